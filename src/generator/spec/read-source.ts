/**
 * Reading a spec's bytes: a file, an http(s) URL (redirects followed, with a timeout) or
 * standard input, each within the load's byte budget (read-limits.ts); every failure a coded
 * diagnostic naming the source.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { BridgeError, createDiagnostic } from "../../model/diagnostics.js";
import type { Diagnostic } from "../../model/types.js";
import { readJsonBytesAsAscii } from "./json-bytes.js";
import {
  createCollector,
  ESCAPE_ROOM,
  type FileBytes,
  type ReadBudget,
  ReadRefusal,
  readFileWithRoom,
} from "./read-limits.js";
import { errorCode, shortMessage } from "./spec-errors.js";

const STDIN_SOURCE = "<stdin>";

export interface SourceText {
  /** The text to parse: a JSON file's with every character beyond ASCII escaped (json-bytes.ts). */
  text: string;
  /** The text as written, when `text` is the escaped one: for YAML and for a parse error's place. */
  readAsWritten?: () => string;
  /** As given, for messages. */
  display: string;
  /** Absolute file path or URL (after redirects): the base for relative `$ref`s. */
  location: string;
  /** Fetched over the network: relative refs are network refs, file refs are refused. */
  remote: boolean;
}

/** `read`: the spec file's bytes when the caller read them already (taken if `source` names that file). */
export async function readSource(
  source: string,
  stdin: NodeJS.ReadableStream | undefined,
  timeoutMs: number,
  budget: ReadBudget,
  read?: FileBytes,
): Promise<SourceText> {
  if (source === "-") {
    const text = await readStream(stdin ?? process.stdin, budget);
    return { text, display: STDIN_SOURCE, location: path.join(process.cwd(), "stdin"), remote: false };
  }
  if (isHttpUrl(source)) {
    const { text, finalUrl } = await fetchText(source, {
      timeoutMs,
      code: "OMB_SPEC_FETCH",
      file: source,
      budget,
      redirects: "follow",
    });
    return { text, display: source, location: finalUrl, remote: true };
  }
  let filePath = source;
  if (/^file:/i.test(source)) {
    try {
      filePath = fileURLToPath(source);
    } catch {
      throw new BridgeError([
        createDiagnostic("OMB_SPEC_NOT_FOUND", `not a valid file URL: ${source}`, { file: source }),
      ]);
    }
  } else if (/^[a-z][a-z0-9+.-]+:\/\//i.test(source)) {
    throw new BridgeError([
      createDiagnostic("OMB_SPEC_NOT_FOUND", `unsupported URL scheme in ${source}`, {
        file: source,
        hint: "give a file path, an http(s) URL, or - for standard input",
      }),
    ]);
  }
  const location = path.resolve(filePath);
  try {
    const { bytes, room } =
      read?.location === location
        ? takeFileBytes(read, budget)
        : await readFileWithRoom(location, budget, { regularOnly: false, room: ESCAPE_ROOM });
    const escaped = readJsonBytesAsAscii(bytes, room);
    if (escaped === undefined)
      return { text: bytes.toString("utf8"), display: source, location, remote: false };
    return {
      text: escaped,
      readAsWritten: () => bytes.toString("utf8"),
      display: source,
      location,
      remote: false,
    };
  } catch (error) {
    throw new BridgeError([fileErrorDiagnostic(error, source, location)]);
  }
}

/** Bytes read before, counted against the budget as a read of them would be (too large: ReadRefusal). */
function takeFileBytes(read: FileBytes, budget: ReadBudget): { bytes: Buffer; room: number } {
  const collector = createCollector(budget);
  collector.add(read.bytes);
  return { bytes: collector.done(), room: read.room };
}

function fileErrorDiagnostic(error: unknown, source: string, location: string): Diagnostic {
  if (error instanceof ReadRefusal) {
    return createDiagnostic("OMB_SPEC_TOO_LARGE", `cannot read spec file ${location}: ${error.message}`, {
      file: source,
      hint: TOO_LARGE_HINT,
    });
  }
  const code = errorCode(error);
  if (code === "ENOENT" || code === "ENOTDIR") {
    return createDiagnostic("OMB_SPEC_NOT_FOUND", `spec file not found: ${location}`, {
      file: source,
      hint: "check the path; relative paths are resolved from the current directory",
    });
  }
  const reason =
    code === "EISDIR"
      ? "it is a directory"
      : code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : (code ?? "unknown error");
  return createDiagnostic("OMB_SPEC_UNREADABLE", `cannot read spec file ${location}: ${reason}`, {
    file: source,
  });
}

/** What to do when a document is over the byte limit. */
export const TOO_LARGE_HINT =
  "raise the limit with --max-spec-bytes N (maxSpecBytes); a spec that large is rare: check that the $ref names the document meant";

async function readStream(stream: NodeJS.ReadableStream, budget: ReadBudget): Promise<string> {
  const collector = createCollector(budget);
  try {
    for await (const chunk of stream) collector.add(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  } catch (error) {
    if (error instanceof ReadRefusal) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new BridgeError([
        createDiagnostic("OMB_SPEC_TOO_LARGE", `cannot read standard input: ${error.message}`, {
          file: STDIN_SOURCE,
          hint: TOO_LARGE_HINT,
        }),
      ]);
    }
    throw new BridgeError([
      createDiagnostic("OMB_SPEC_UNREADABLE", `cannot read standard input: ${shortMessage(error)}`, {
        file: STDIN_SOURCE,
      }),
    ]);
  }
  return collector.done().toString("utf8");
}

export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

export interface FetchOptions {
  timeoutMs: number;
  /** The code of a failure to fetch (unreachable, timeout, non-2xx). */
  code: DiagnosticCode;
  /** The file named by the diagnostics. */
  file: string;
  budget: ReadBudget;
  /**
   * `follow`: any redirect (the spec's own URL, which the operator gave). `same-host`: only
   * redirects to the same host, never from https to http (a network `$ref`, which the spec gave).
   */
  redirects: "follow" | "same-host";
}

/** Redirects followed at most when `redirects` is `same-host` (fetch's own limit is 20). */
const MAX_REDIRECTS = 10;

/** GETs a URL as text within the byte budget; any failure becomes one diagnostic. */
export async function fetchText(
  url: string,
  options: FetchOptions,
): Promise<{ text: string; finalUrl: string }> {
  const { timeoutMs, code, file, budget } = options;
  const fail = (message: string, hint?: string, failCode: DiagnosticCode = code): never => {
    throw new BridgeError([
      createDiagnostic(failCode, message, hint === undefined ? { file } : { file, hint }),
    ]);
  };
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  let response: Response;
  for (let hop = 0; ; hop++) {
    try {
      response = await fetch(current, {
        headers: { accept: "application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.8" },
        redirect: options.redirects === "follow" ? "follow" : "manual",
        signal,
      });
    } catch (error) {
      return fail(
        describeFetchError(error, current, timeoutMs),
        "check the URL and that the host is reachable",
      );
    }
    const location = response.headers.get("location");
    if (
      options.redirects === "follow" ||
      response.status < 300 ||
      response.status > 399 ||
      location === null
    ) {
      break;
    }
    await response.body?.cancel().catch(() => {});
    const next = checkRedirect(current, location);
    if (typeof next !== "string") {
      return fail(
        `GET ${current} redirects to ${location}: ${next.refused}`,
        "a $ref must name the document where it is; point it at the final URL, or download the document next to the spec",
        "OMB_REF_REDIRECT",
      );
    }
    if (hop >= MAX_REDIRECTS) return fail(`GET ${url} redirects more than ${MAX_REDIRECTS} times`);
    current = next;
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => {});
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    return fail(`GET ${current} returned HTTP ${status}`, httpStatusHint(response.status, status, code));
  }
  try {
    const collector = createCollector(budget);
    if (response.body) {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) collector.add(chunk);
    }
    return { text: collector.done().toString("utf8"), finalUrl: response.url || current };
  } catch (error) {
    if (error instanceof ReadRefusal) {
      await response.body?.cancel().catch(() => {});
      return fail(`GET ${current}: ${error.message}`, TOO_LARGE_HINT, "OMB_SPEC_TOO_LARGE");
    }
    return fail(describeFetchError(error, current, timeoutMs));
  }
}

/**
 * What to do about a non-2xx answer: the spec's own URL (OMB_SPEC_FETCH) is the operator's to
 * check or download; a network `$ref`'s URL is the spec's to correct. The bridge sends no
 * credentials with either (there is no option for it): a private spec is downloaded first.
 */
function httpStatusHint(status: number, said: string, code: DiagnosticCode): string {
  const ownUrl = code === "OMB_SPEC_FETCH";
  const check = ownUrl ? "check the URL" : "correct the $ref's URL";
  const download = ownUrl
    ? "download the spec (e.g. curl -fL -H 'Authorization: ...' -o openapi.yaml URL) and give the file"
    : "download the document next to the spec and point the $ref at the file";
  if (status === 404 || status === 410) {
    // Some hosts (GitHub among them) answer 404 to a request without the credentials it needs.
    const privately = ownUrl ? `; if the spec is private (some hosts answer 404 then), ${download}` : "";
    return `${check}: the server said ${said}, it has no document at this address${privately}`;
  }
  if (status === 401 || status === 403 || status === 407) {
    return `the server said ${said}: the ${ownUrl ? "spec" : "document"} is private and the bridge sends no credentials when it fetches one; ${download}`;
  }
  if (status === 429 || status >= 500) {
    return `the server said ${said}: try again later, or ${download}`;
  }
  return `${check} (the server said ${said}), or ${download}`;
}

/** The next URL of a `same-host` redirect, or why it is refused. */
function checkRedirect(from: string, location: string): string | { refused: string } {
  let target: URL;
  const source = new URL(from);
  try {
    target = new URL(location, source);
  } catch {
    return { refused: "not a valid URL" };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    return { refused: `only http(s) redirects are followed, not ${target.protocol}` };
  }
  if (target.hostname !== source.hostname) {
    return { refused: `another host (${target.hostname}); a network $ref is only followed on its own host` };
  }
  if (source.protocol === "https:" && target.protocol === "http:") {
    return { refused: "a redirect from https to http is not followed" };
  }
  return target.href;
}

function describeFetchError(error: unknown, url: string, timeoutMs: number): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") return `GET ${url} timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  const code = errorCode(cause) ?? errorCode(error);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the URL
  }
  switch (code) {
    case "ECONNREFUSED":
      return `cannot reach ${host}: connection refused`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot reach ${host}: host not found`;
    case "ECONNRESET":
      return `cannot reach ${host}: connection reset`;
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return `cannot reach ${host}: connection timed out`;
    default:
      return `cannot fetch ${url}: ${code ?? shortMessage(cause ?? error)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing
