/**
 * A client's configuration file, read and written without losing what others put there: read
 * as JSON (VS Code's as JSONC: comments and trailing commas, which it allows), refused with
 * OMB_CLIENT_CONFIG_INVALID and left untouched when it is not an object of JSON, written
 * (client-config.ts edits only its entry in the text, jsonc.ts) with the previous bytes kept in
 * a backup beside it, through a temporary file and a rename so
 * the client never reads half a file, with the file's mode kept (0600 for a new file: it may
 * end up holding a secret). The backup and the temporary file are created exclusively (a name
 * someone planted, a symlink to another file, is never written through), the temporary one
 * under a random name.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  constants,
  copyFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { failWith } from "../../model/diagnostics.js";
import { isRecord as isObject } from "../../model/records.js";
import { JsoncSyntaxError, parseJsonc } from "./jsonc.js";

export interface ConfigDocument {
  path: string;
  /** The file's text, undefined when it does not exist yet. */
  text: string | undefined;
  data: Record<string, unknown>;
}

/** Reads the file (missing or empty: an empty object); `relaxed` reads it as JSONC (comments, trailing commas). */
export function readConfigDocument(path: string, options: { relaxed: boolean }): ConfigDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { path, text: undefined, data: {} };
    return failWith(
      "OMB_CLIENT_CONFIG_INVALID",
      `cannot read the client's configuration: ${(error as Error).message}`,
      {
        file: path,
      },
    );
  }
  if (text.trim() === "") return { path, text, data: {} };
  const parsed = tryParse(text, options.relaxed);
  if (parsed.error !== undefined) {
    return failWith(
      "OMB_CLIENT_CONFIG_INVALID",
      `not valid ${options.relaxed ? "JSONC" : "JSON"}${parsed.error}: the file was left untouched`,
      {
        file: path,
        hint: "fix the file (or move it away), then run the command again",
      },
    );
  }
  if (!isObject(parsed.value)) {
    return failWith(
      "OMB_CLIENT_CONFIG_INVALID",
      "the configuration is not a JSON object: the file was left untouched",
      {
        file: path,
        hint: "fix the file (or move it away), then run the command again",
      },
    );
  }
  return { path, text, data: parsed.value };
}

/** The object under `key` (created when absent); OMB_CLIENT_CONFIG_INVALID when it is something else. */
export function readServers(doc: ConfigDocument, key: string): Record<string, unknown> {
  const servers = doc.data[key] ?? {};
  if (!isObject(servers)) {
    return failWith("OMB_CLIENT_CONFIG_INVALID", `"${key}" is not an object: the file was left untouched`, {
      file: doc.path,
      pointer: `/${key}`,
      hint: `make "${key}" an object of server names to entries, then run the command again`,
    });
  }
  return servers;
}

/**
 * Writes `content` over the file: text as it is (an edit of the file's own text), an object as
 * JSON; returns the backup's path (undefined for a new file).
 */
export function writeConfigDocument(
  doc: ConfigDocument,
  content: Record<string, unknown> | string,
  now = new Date(),
): string | undefined {
  mkdirSync(dirname(doc.path), { recursive: true });
  let backup: string | undefined;
  let mode = 0o600;
  if (doc.text !== undefined) {
    mode = statSync(doc.path).mode & 0o777;
    backup = copyToNewFile(
      doc.path,
      `${doc.path}.${now
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d+Z$/, "Z")}`,
    );
  }
  const temporary = `${doc.path}.${randomBytes(8).toString("hex")}.tmp`;
  writeFileSync(temporary, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`, {
    mode,
    flag: "wx",
  });
  chmodSync(temporary, mode);
  renameSync(temporary, doc.path);
  return backup;
}

/** A copy of `file` at `<stem>.bak`, else `<stem>-2.bak`...: a name that exists is never written. */
function copyToNewFile(file: string, stem: string): string {
  for (let n = 1; ; n++) {
    const target = `${stem}${n === 1 ? "" : `-${n}`}.bak`;
    try {
      copyFileSync(file, target, constants.COPYFILE_EXCL);
      return target;
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST" || n >= 100) throw error;
    }
  }
}

/** The value, or where and why the text is not JSON (`relaxed`: JSONC). */
function tryParse(text: string, relaxed: boolean): { value?: unknown; error?: string } {
  try {
    return { value: parseJsonc(text, { relaxed }).value };
  } catch (error) {
    if (!(error instanceof JsoncSyntaxError)) throw error;
    const before = text.slice(0, error.offset);
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    return { error: ` at line ${line}, column ${column} (${error.message})` };
  }
}
