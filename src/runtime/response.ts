/**
 * Upstream answers → MCP CallToolResult. Success: JSON as structuredContent plus a text copy,
 * text as text, images as image content, other binary as an embedded resource (or a summary
 * when it is over the budget), everything within the response-size budget (truncate.ts).
 * Failure: `isError: true` with the status, the spec's words for it, the API's message, the
 * fields it rejected as our argument names (field-map.ts), the body, and what to do next.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolNode } from "../model/types.js";
import { formatFieldErrors, type MappedFieldError, mapFieldErrors } from "./field-map.js";
import type { UpstreamFailure, UpstreamResponse } from "./http.js";
import { fitJson, fitText, hasBudget, TRUNCATION_META_KEY, type Truncation } from "./truncate.js";

export { TRUNCATION_META_KEY } from "./truncate.js";

/** Key of the structured error facts in a result's `_meta`. */
export const ERROR_META_KEY = "openapi-mcp-bridge/error";

export interface ResultOptions {
  /** Characters of body text kept in a result (default 25,000; Infinity or 0: no limit). */
  maxTextChars: number;
  /** Checks structuredContent against the tool's outputSchema; returns a message when it fails. */
  checkOutput?: (value: unknown) => string | undefined;
  /** The call's arguments, to say which page comes next when an answer is cut. */
  args?: Record<string, unknown>;
}

/** Images larger than this go to the model as a summary, not as image content (5 MiB). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export type ErrorCategory =
  | "invalid_argument"
  | "authentication"
  | "permission"
  | "not_found"
  | "conflict"
  | "rate_limited"
  | "upstream_unavailable"
  | "timeout"
  | "upstream_bug"
  | "redirect"
  | "unexpected_response";

export interface ErrorFacts {
  category: ErrorCategory;
  status?: number;
  retryable: boolean;
  retryAfterSeconds?: number;
  /** The API's own message (problem+json title/detail, `error.message`, `message`...). */
  message?: string;
  /** Fields the API rejected, with the tool's argument each one is (when one matches). */
  fields?: MappedFieldError[];
}

export function toSuccessResult(
  tool: ToolNode,
  response: UpstreamResponse,
  options: ResultOptions,
): CallToolResult {
  const mediaType = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const truncatedNote = response.truncated
    ? `\n[The API's answer was larger than the bridge reads; only the first ${response.body.length} bytes were kept.]`
    : "";
  if (response.body.length === 0) {
    const text = `HTTP ${response.status}: the operation succeeded and the API returned no body.`;
    if (tool.outputSchema) {
      return {
        content: [{ type: "text", text }],
        structuredContent: tool.outputWrapped ? { result: null } : {},
      };
    }
    return { content: [{ type: "text", text }] };
  }
  const looksJson = isJsonType(mediaType) || (mediaType === "" && tool.outputSchema !== undefined);
  if (looksJson && !response.truncated) {
    const text = response.body.toString("utf8");
    let parsed: unknown;
    let ok = true;
    try {
      parsed = JSON.parse(text);
    } catch {
      ok = false;
    }
    if (ok) {
      const isObject = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
      const structured =
        tool.outputWrapped || !isObject ? { result: parsed } : (parsed as Record<string, unknown>);
      if (tool.outputSchema && options.checkOutput) {
        const problem = options.checkOutput(structured);
        if (problem !== undefined) {
          return toMismatchResult(response, text, problem, options);
        }
      }
      const fitted = fitJson(parsed, text, {
        budget: options.maxTextChars,
        tool,
        headers: response.headers,
        ...(options.args ? { args: options.args } : {}),
      });
      if (!fitted.truncation) return { content: [{ type: "text", text }], structuredContent: structured };
      let cut: Record<string, unknown> =
        tool.outputWrapped || !isObject
          ? { result: fitted.value }
          : (fitted.value as Record<string, unknown>);
      // The cut copy keeps the shape; should a stricter output schema still refuse it, the
      // client gets the complete structured copy (valid) and the model the cut text.
      let structuredComplete = false;
      if (tool.outputSchema && options.checkOutput && options.checkOutput(cut) !== undefined) {
        cut = structured;
        structuredComplete = true;
      }
      return {
        content: [{ type: "text", text: fitted.text }],
        structuredContent: cut,
        _meta: {
          [TRUNCATION_META_KEY]: {
            ...fitted.truncation,
            ...(structuredComplete ? { structuredContentComplete: true } : {}),
          },
        },
      };
    }
  }
  if (tool.outputSchema) {
    const text = decodeText(response.body);
    return toMismatchResult(
      response,
      text,
      `the answer is ${mediaType || "untyped"}${looksJson ? " that is not complete JSON" : ""}, not the JSON the spec documents`,
      options,
    );
  }
  if (mediaType.startsWith("image/")) {
    // A cut image is corrupt, and a huge one is more than clients take: say what it is instead.
    if (response.truncated || response.body.length > MAX_IMAGE_BYTES) {
      return toBinarySummary(response, mediaType, options);
    }
    return {
      content: [{ type: "image", data: response.body.toString("base64"), mimeType: mediaType }],
    };
  }
  // JSON that did not parse or was cut at --max-response-bytes is still text.
  if (isTextType(mediaType) || isJsonType(mediaType) || (mediaType === "" && isProbablyText(response.body))) {
    const fitted = fitText(decodeText(response.body), {
      budget: options.maxTextChars,
      tool,
      headers: response.headers,
      ...(options.args ? { args: options.args } : {}),
    });
    const result: CallToolResult = { content: [{ type: "text", text: fitted.text + truncatedNote }] };
    if (fitted.truncation) result._meta = { [TRUNCATION_META_KEY]: { ...fitted.truncation } };
    return result;
  }
  const base64 = response.body.toString("base64");
  if (response.truncated || (hasBudget(options.maxTextChars) && base64.length > options.maxTextChars)) {
    return toBinarySummary(response, mediaType, options);
  }
  return {
    content: [
      {
        type: "resource",
        resource: {
          uri: responseUri(tool),
          mimeType: mediaType || "application/octet-stream",
          blob: base64,
        },
      },
    ],
  };
}

function responseUri(tool: ToolNode): string {
  return `openapi-mcp-bridge://response/${encodeURIComponent(tool.name)}`;
}

/**
 * A binary answer the result cannot carry (over the budget, or cut at --max-response-bytes):
 * what it is, how large, its file name, and why it is not included. The bridge serves no MCP
 * resources, so a resource link would point at nothing the client could read.
 */
function toBinarySummary(
  response: UpstreamResponse,
  mediaType: string,
  options: ResultOptions,
): CallToolResult {
  const type = mediaType || "application/octet-stream";
  const bytes = response.body.length;
  const filename = parseFilename(response.headers["content-disposition"]);
  const what = `${type}${filename ? `, file name ${JSON.stringify(filename)}` : ""}`;
  const why = response.truncated
    ? `it is larger than the bridge reads from the API (only the first ${formatBytes(bytes)} arrived), so it is incomplete`
    : mediaType.startsWith("image/")
      ? `${formatBytes(bytes)} is more than an image in a result may be (${formatBytes(MAX_IMAGE_BYTES)})`
      : `${formatBytes(bytes)} is ${Math.ceil((bytes * 4) / 3).toLocaleString("en-US")} characters as base64, more than the ${options.maxTextChars.toLocaleString("en-US")} a result may hold`;
  const text =
    `HTTP ${response.status}: the operation succeeded; the API answered with binary data (${what}, ${response.truncated ? "over " : ""}${formatBytes(bytes)}) ` +
    `that is not included: ${why}. Tell the user it is too large to pass through; the bridge's operator can raise ` +
    `${response.truncated ? "--max-response-bytes" : "--max-result-chars (0: no limit)"}.`;
  const truncation: Truncation & { binary: { mimeType: string; bytes: number; filename?: string } } = {
    truncated: true,
    originalChars: Math.ceil((bytes * 4) / 3),
    shownChars: 0,
    budget: options.maxTextChars,
    binary: { mimeType: type, bytes, ...(filename ? { filename } : {}) },
  };
  return { content: [{ type: "text", text }], _meta: { [TRUNCATION_META_KEY]: { ...truncation } } };
}

/** RFC 6266 `Content-Disposition: attachment; filename="x.pdf"` (or filename*=UTF-8''x.pdf). */
function parseFilename(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)?'[^']*'([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(header);
  const name = plain?.[1] ?? plain?.[2];
  return name ? name.slice(0, 200) : undefined;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A 3xx the spec documents (download links, moved resources) is the operation's answer, not a
 * failure: the bridge does not follow it (credentials must not travel to another host), it
 * hands the model the Location.
 */
export function isDocumentedRedirect(tool: ToolNode, status: number): boolean {
  if (status < 300 || status >= 400) return false;
  return tool.http.responses.some((r) => r.status === String(status) || r.status === "3XX");
}

export function toRedirectResult(tool: ToolNode, response: UpstreamResponse): CallToolResult {
  const location = response.headers.location;
  const documented = findResponseDescription(tool, response.status);
  const lines = [
    `HTTP ${response.status}: the API answers with a redirect${location ? ` to ${location}` : " without a Location"}.`,
  ];
  if (documented) lines.push(`The API documents this status as: ${documented}`);
  lines.push(
    "The bridge does not follow redirects; the location is the result (for example a download link).",
  );
  const result: CallToolResult = { content: [{ type: "text", text: lines.join("\n") }] };
  if (tool.outputSchema) {
    result.structuredContent = tool.outputWrapped ? { result: location ?? null } : {};
  }
  return result;
}

function toMismatchResult(
  response: UpstreamResponse,
  text: string,
  problem: string,
  options: ResultOptions,
): CallToolResult {
  const facts: ErrorFacts = { category: "unexpected_response", status: response.status, retryable: false };
  return {
    isError: true,
    content: [
      {
        type: "text",
        text:
          `Unexpected response: HTTP ${response.status} succeeded, but ${problem}. ` +
          "The request was carried out; do not repeat it blindly. The API's answer follows.\n" +
          clip(text, options.maxTextChars),
      },
    ],
    _meta: { [ERROR_META_KEY]: { ...facts } },
  };
}

/** Classifies a non-2xx status (RFC 9110 §15) into what a model can act on. */
export function classifyStatus(status: number): {
  category: ErrorCategory;
  retryable: boolean;
  next: string;
} {
  if (status >= 300 && status < 400) {
    return {
      category: "redirect",
      retryable: false,
      next: "The bridge does not follow redirects; the API may have moved: tell the user.",
    };
  }
  switch (status) {
    case 400:
    case 422:
      return {
        category: "invalid_argument",
        retryable: false,
        next: "Fix the arguments the API complains about and call again.",
      };
    case 401:
      return {
        category: "authentication",
        retryable: false,
        next: "The credentials are missing, invalid or expired; ask the user to configure them. Retrying will not help.",
      };
    case 403:
      return {
        category: "permission",
        retryable: false,
        next: "The credentials are valid but lack permission for this; do not retry, tell the user.",
      };
    case 404:
    case 410:
      return {
        category: "not_found",
        retryable: false,
        next: "Check the identifiers in the arguments (list or search for the right one first) and call again.",
      };
    case 409:
    case 412:
      return {
        category: "conflict",
        retryable: false,
        next: "The resource's state conflicts with the request; fetch its current state, then decide.",
      };
    case 408:
      return { category: "timeout", retryable: true, next: "Retry the call." };
    case 429:
      return { category: "rate_limited", retryable: true, next: "Wait before calling again." };
    case 502:
    case 503:
    case 504:
      return {
        category: "upstream_unavailable",
        retryable: true,
        next: "The API is unavailable for now; retry later.",
      };
  }
  if (status >= 500) {
    return {
      category: "upstream_bug",
      retryable: true,
      next: "The API failed on its side; retry once later, and if it fails again tell the user.",
    };
  }
  return {
    category: "invalid_argument",
    retryable: false,
    next: "Check the arguments against the tool's description and call again.",
  };
}

export function toStatusErrorResult(
  tool: ToolNode,
  response: UpstreamResponse,
  options: ResultOptions & { missingCredentials: string[] },
): CallToolResult {
  const { category, retryable, next } = classifyStatus(response.status);
  const documented = findResponseDescription(tool, response.status);
  const retryAfter = parseRetryAfter(response.headers["retry-after"]);
  const lines: string[] = [];
  const reason = response.statusText ? ` ${response.statusText}` : "";
  lines.push(
    `${categoryLabel(category)}: HTTP ${response.status}${reason} from ${tool.http.method.toUpperCase()} ${tool.http.path}.`,
  );
  if (documented) lines.push(`The API documents this status as: ${documented}`);
  if (response.status === 401 && options.missingCredentials.length > 0) {
    lines.push(
      `No credential is configured for ${options.missingCredentials.map((s) => `"${s}"`).join(" or ")}; ` +
        "the bridge's user must provide one (--auth SCHEME=VALUE or OPENAPI_MCP_AUTH_<SCHEME>).",
    );
  }
  let nextStep = next;
  if (retryAfter !== undefined) nextStep = `${next} The API asks to wait ${retryAfter} s (Retry-After).`;
  if (response.status >= 300 && response.status < 400 && response.headers.location) {
    lines.push(`Location: ${response.headers.location}`);
  }
  const parsed = parseJsonBody(response);
  const message = parsed === undefined ? undefined : findErrorMessage(parsed);
  if (message !== undefined) lines.push(`The API says: ${clip(message, 500)}`);
  const fields = parsed !== undefined && category === "invalid_argument" ? mapFieldErrors(tool, parsed) : [];
  if (fields.length > 0) {
    lines.push(
      "The API rejected these arguments:",
      ...formatFieldErrors(fields.slice(0, 20)).map((l) => clip(l, 500)),
    );
    if (fields.length > 20) lines.push(`- … and ${fields.length - 20} more (see the response body)`);
  }
  lines.push(`Next step: ${nextStep}`);
  const body = describeErrorBody(response);
  if (body !== "") lines.push(`Response body:\n${clip(body, Math.min(options.maxTextChars, 4000))}`);
  const facts: ErrorFacts = { category, status: response.status, retryable };
  if (retryAfter !== undefined) facts.retryAfterSeconds = retryAfter;
  if (message !== undefined) facts.message = clip(message, 500);
  if (fields.length > 0) facts.fields = fields;
  return {
    isError: true,
    content: [{ type: "text", text: lines.join("\n") }],
    _meta: { [ERROR_META_KEY]: { ...facts } },
  };
}

export function toFailureResult(tool: ToolNode, failure: UpstreamFailure, origin: string): CallToolResult {
  const timeout = failure.kind === "timeout";
  const facts: ErrorFacts = { category: timeout ? "timeout" : "upstream_unavailable", retryable: true };
  const label = timeout ? "Timeout" : "Upstream unavailable";
  const safeToRetry = tool.annotations.idempotentHint
    ? "Retry later."
    : "This operation is not idempotent: it may or may not have taken effect; check before retrying.";
  return {
    isError: true,
    content: [
      {
        type: "text",
        text: `${label}: ${tool.http.method.toUpperCase()} ${tool.http.path} at ${origin}: ${failure.message}.\nNext step: ${safeToRetry}`,
      },
    ],
    _meta: { [ERROR_META_KEY]: { ...facts } },
  };
}

function categoryLabel(category: ErrorCategory): string {
  const labels: Record<ErrorCategory, string> = {
    invalid_argument: "Invalid argument",
    authentication: "Authentication failed",
    permission: "Permission denied",
    not_found: "Not found",
    conflict: "Conflict",
    rate_limited: "Rate limited",
    upstream_unavailable: "Upstream unavailable",
    timeout: "Timeout",
    upstream_bug: "Upstream error",
    redirect: "Redirected",
    unexpected_response: "Unexpected response",
  };
  return labels[category];
}

function findResponseDescription(tool: ToolNode, status: number): string | undefined {
  const exact = tool.http.responses.find((r) => r.status === String(status));
  const range = tool.http.responses.find((r) => r.status === `${String(status)[0]}XX`);
  const fallback = tool.http.responses.find((r) => r.status === "DEFAULT" || r.status === "default");
  const description = (exact ?? range ?? fallback)?.description.trim();
  return description ? description : undefined;
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** An error body parsed as JSON, when it is JSON (by its media type or its first character). */
function parseJsonBody(response: UpstreamResponse): unknown {
  if (response.body.length === 0 || response.body.length > 1024 * 1024) return undefined;
  const mediaType = (response.headers["content-type"] ?? "").toLowerCase();
  const text = decodeText(response.body).trim();
  if (!mediaType.includes("json") && !/^[{[]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The API's own words: problem+json `title: detail`, `{error: {message}}`, `{error, error_description}`
 * (OAuth), `{message}`, `{detail: "..."}`.
 */
export function findErrorMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const text = (value: unknown) =>
    typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  const error = record.error;
  if (typeof error === "object" && error !== null && !Array.isArray(error)) {
    const inner = error as Record<string, unknown>;
    const message = text(inner.message) ?? text(inner.detail) ?? text(inner.description);
    if (message) return message;
  }
  const title = text(record.title);
  const detail = text(record.detail);
  if (title && detail) return detail.startsWith(title) ? detail : `${title}: ${detail}`;
  const description = text(record.error_description);
  if (text(error) && description) return `${text(error)}: ${description}`;
  return text(record.message) ?? detail ?? description ?? text(error) ?? title;
}

/** The error body as text: JSON compacted, HTML reduced to its text. */
function describeErrorBody(response: UpstreamResponse): string {
  if (response.body.length === 0) return "";
  const mediaType = (response.headers["content-type"] ?? "").toLowerCase();
  const text = decodeText(response.body);
  if (mediaType.includes("json")) {
    try {
      return JSON.stringify(JSON.parse(text));
    } catch {
      return text;
    }
  }
  if (mediaType.includes("html")) {
    return text
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  }
  if (isTextType(mediaType) || isProbablyText(response.body)) return text;
  return `[${response.body.length} bytes of ${mediaType || "binary data"}]`;
}

export function isJsonType(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json") || mediaType === "text/json";
}

function isTextType(mediaType: string): boolean {
  return (
    mediaType.startsWith("text/") ||
    mediaType.endsWith("+xml") ||
    mediaType === "application/xml" ||
    mediaType === "application/javascript" ||
    mediaType === "application/x-www-form-urlencoded" ||
    mediaType.endsWith("+yaml") ||
    mediaType === "application/yaml"
  );
}

function isProbablyText(body: Buffer): boolean {
  const sample = body.subarray(0, 512);
  for (const byte of sample) if (byte === 0) return false;
  return !decodeText(sample).includes("\uFFFD");
}

function decodeText(body: Buffer): string {
  return body.toString("utf8");
}

/** Cuts text to `max` characters with a marker that says how much was left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max || !hasBudget(max)) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters not shown]`;
}
