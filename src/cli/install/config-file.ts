/**
 * A client's configuration file, read and written without losing what others put there: read
 * as JSON (VS Code's may have comments and trailing commas, which it allows), refused with
 * OMB_CLIENT_CONFIG_INVALID and left untouched when it is not an object of JSON, written whole
 * with the previous bytes kept in a backup beside it, through a temporary file and a rename so
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

export interface ConfigDocument {
  path: string;
  /** The file's text, undefined when it does not exist yet. */
  text: string | undefined;
  data: Record<string, unknown>;
  /** It had comments or trailing commas (VS Code's JSONC), which the rewrite does not keep. */
  relaxed: boolean;
}

/** Reads the file (missing or empty: an empty object); `relaxed` allows comments and trailing commas. */
export function readConfigDocument(path: string, options: { relaxed: boolean }): ConfigDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { path, text: undefined, data: {}, relaxed: false };
    return failWith(
      "OMB_CLIENT_CONFIG_INVALID",
      `cannot read the client's configuration: ${(error as Error).message}`,
      {
        file: path,
      },
    );
  }
  if (text.trim() === "") return { path, text, data: {}, relaxed: false };
  const strict = tryParse(text);
  const relaxedText = options.relaxed && strict.error !== undefined ? stripJsonComments(text) : undefined;
  const parsed = relaxedText === undefined ? strict : tryParse(relaxedText);
  if (parsed.error !== undefined) {
    return failWith(
      "OMB_CLIENT_CONFIG_INVALID",
      `not valid JSON${locate(relaxedText ?? text, parsed.error)}: the file was left untouched`,
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
  return { path, text, data: parsed.value, relaxed: relaxedText !== undefined };
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

/** Writes `data` over the file; returns the backup's path (undefined for a new file). */
export function writeConfigDocument(
  doc: ConfigDocument,
  data: Record<string, unknown>,
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
  writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode, flag: "wx" });
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

function tryParse(text: string): { value?: unknown; error?: Error } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: error as Error };
  }
}

/** ` at line L, column C` from a JSON.parse message that names a position, else its message. */
function locate(text: string, error: Error): string {
  const position = /position (\d+)/.exec(error.message);
  if (position === null) return ` (${error.message})`;
  const before = text.slice(0, Number(position[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return ` at line ${line}, column ${column}`;
}

/**
 * JSONC → JSON: `//` and `/* *\/` comments and trailing commas removed outside strings (what
 * VS Code accepts in its settings files). Comments become spaces so positions keep their lines.
 */
export function stripJsonComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else {
      // A trailing comma: the next thing that is not white space closes the object or array.
      if (char !== "," || !/^\s*[}\]]/.test(text.slice(i + 1))) out += char;
      i++;
    }
  }
  return out;
}
