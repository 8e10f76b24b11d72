/**
 * TypeScript in an `execute` program: a program that is not valid JavaScript is given to the
 * TypeScript compiler's `transpileModule` (types removed, nothing checked), and run if that
 * parses. Valid JavaScript never reaches it, so plain programs never pay for it.
 *
 * The compiler is loaded on first use, in the thread that runs programs (a worker, normally),
 * with `require`: 9 MB of CommonJS, about half a second once per thread. It is optional for a
 * bridge that only serves: where the `typescript` package is not installed, the program's
 * syntax error says that annotations need it. Lines of errors are mapped back to the program
 * as written through the source map.
 */
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

export interface Stripped {
  /** The program as JavaScript (the async function wrapper included). */
  program: string;
  /** A line of `program` → the line of the program as written (1-based, wrapper lines alike). */
  lineOf(line: number): number;
}

let compiler: typeof TypeScript | null | undefined;

function loadCompiler(): typeof TypeScript | undefined {
  if (compiler === undefined) {
    try {
      compiler = createRequire(import.meta.url)("typescript") as typeof TypeScript;
    } catch {
      compiler = null;
    }
  }
  return compiler ?? undefined;
}

/**
 * `wrapped` (the program inside its async function) without its TypeScript syntax; undefined
 * when it is not valid TypeScript either; `unavailable` when the compiler is not installed.
 */
export function stripTypes(wrapped: string): Stripped | { unavailable: string } | undefined {
  const ts = loadCompiler();
  if (ts === undefined) {
    return {
      unavailable:
        "if it is TypeScript: the bridge removes type annotations only where the typescript package is installed; write plain JavaScript",
    };
  }
  const output = ts.transpileModule(wrapped, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, sourceMap: true, removeComments: false },
    reportDiagnostics: true,
    fileName: "program.ts",
  });
  if ((output.diagnostics ?? []).some((d) => d.category === ts.DiagnosticCategory.Error)) return undefined;
  const lines = readLineMap(output.sourceMapText ?? "");
  const program = output.outputText.replace(/\n\/\/# sourceMappingURL=.*\s*$/, "\n");
  return { program, lineOf: (line) => lines[line - 1] ?? line };
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** For each generated line (index 0 = line 1), the 1-based source line of its first mapping. */
export function readLineMap(sourceMapText: string): (number | undefined)[] {
  let mappings = "";
  try {
    const parsed = JSON.parse(sourceMapText) as { mappings?: unknown };
    if (typeof parsed.mappings === "string") mappings = parsed.mappings;
  } catch {
    return [];
  }
  const lines: (number | undefined)[] = [];
  let sourceLine = 0;
  for (const line of mappings.split(";")) {
    let first: number | undefined;
    for (const segment of line.split(",")) {
      if (segment === "") continue;
      const fields = decodeVlq(segment);
      if (fields.length >= 4) {
        sourceLine += fields[2]!;
        first ??= sourceLine + 1;
      }
    }
    lines.push(first);
  }
  return lines;
}

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) return values;
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}
