/**
 * A configuration file a running bridge reads (`--auth-config FILE`, a tool catalog): JSON, or
 * else YAML. The one runtime file that touches the `yaml` package, lazily (when a file is not
 * JSON): a server configured without YAML never loads it; a generated project lists it as a
 * dependency because this file imports it.
 */
import { readFile } from "node:fs/promises";
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { failWith } from "../../model/diagnostics.js";

/** The file's value; `code` is the diagnostic of a file that cannot be read or parsed. */
export async function readConfigFile(file: string, code: DiagnosticCode, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return failWith(code, `cannot read the ${what}: ${(error as Error).message}`, {
      file,
      hint: "check the path; it is read relative to the directory the server was started in",
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // not JSON: YAML, below
  }
  try {
    const { parse } = await import("yaml");
    return parse(text, { maxAliasCount: 100 }) as unknown;
  } catch (error) {
    return failWith(code, `the ${what} is neither JSON nor YAML: ${(error as Error).message}`, { file });
  }
}
