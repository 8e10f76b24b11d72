/**
 * Reading a spec's bytes: a file, an http(s) URL (redirects followed, with a timeout) or
 * standard input; every failure a coded diagnostic naming the source.
 */
import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { BridgeError, createDiagnostic } from "../../model/diagnostics.js";
import type { Diagnostic } from "../../model/types.js";
import { errorCode, shortMessage } from "./spec-errors.js";

const STDIN_SOURCE = "<stdin>";

export interface SourceText {
  text: string;
  /** As given, for messages. */
  display: string;
  /** Absolute file path or URL (after redirects): the base for relative `$ref`s. */
  location: string;
  /** Fetched over the network: relative refs are network refs, file refs are refused. */
  remote: boolean;
}

export async function readSource(
  source: string,
  stdin: NodeJS.ReadableStream | undefined,
  timeoutMs: number,
): Promise<SourceText> {
  if (source === "-") {
    const text = await readStream(stdin ?? process.stdin);
    return { text, display: STDIN_SOURCE, location: path.join(process.cwd(), "stdin"), remote: false };
  }
  if (isHttpUrl(source)) {
    const { text, finalUrl } = await fetchText(source, timeoutMs, "OMB_SPEC_FETCH", source);
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
    return { text: await readFile(location, "utf8"), display: source, location, remote: false };
  } catch (error) {
    throw new BridgeError([fileErrorDiagnostic(error, source, location)]);
  }
}

function fileErrorDiagnostic(error: unknown, source: string, location: string): Diagnostic {
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

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  } catch (error) {
    throw new BridgeError([
      createDiagnostic("OMB_SPEC_UNREADABLE", `cannot read standard input: ${shortMessage(error)}`, {
        file: STDIN_SOURCE,
      }),
    ]);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** GETs a URL as text; any failure becomes one diagnostic with `code`. */
export async function fetchText(
  url: string,
  timeoutMs: number,
  code: DiagnosticCode,
  file: string,
): Promise<{ text: string; finalUrl: string }> {
  const fail = (message: string, hint?: string): never => {
    throw new BridgeError([createDiagnostic(code, message, hint === undefined ? { file } : { file, hint })]);
  };
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.8" },
      redirect: "follow",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return fail(describeFetchError(error, url, timeoutMs), "check the URL and that the host is reachable");
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => {});
    return fail(
      `GET ${url} returned HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
    );
  }
  try {
    return { text: await response.text(), finalUrl: response.url || url };
  } catch (error) {
    return fail(describeFetchError(error, url, timeoutMs));
  }
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
