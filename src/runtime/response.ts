/**
 * Upstream answers → MCP CallToolResult. Success: JSON as structuredContent plus a text copy,
 * text as text, images as image content, other binary as an embedded resource. Failure:
 * `isError: true` with the status, the spec's words for it, the body, and what to do next.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolNode } from "../model/types.js";
import type { UpstreamFailure, UpstreamResponse } from "./http.js";

/** Key of the structured error facts in a result's `_meta`. */
export const ERROR_META_KEY = "openapi-mcp-bridge/error";

export interface ResultOptions {
  /** Characters of body text kept in a result (default 25,000). */
  maxTextChars: number;
  /** Checks structuredContent against the tool's outputSchema; returns a message when it fails. */
  checkOutput?: (value: unknown) => string | undefined;
}

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
      return {
        content: [{ type: "text", text: clip(text, options.maxTextChars) }],
        structuredContent: structured,
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
    return {
      content: [{ type: "image", data: response.body.toString("base64"), mimeType: mediaType }],
    };
  }
  if (isTextType(mediaType) || (mediaType === "" && isProbablyText(response.body))) {
    return {
      content: [
        { type: "text", text: clip(decodeText(response.body), options.maxTextChars) + truncatedNote },
      ],
    };
  }
  return {
    content: [
      {
        type: "resource",
        resource: {
          uri: `openapi-mcp-bridge://response/${encodeURIComponent(tool.name)}`,
          mimeType: mediaType || "application/octet-stream",
          blob: response.body.toString("base64"),
        },
      },
      ...(truncatedNote ? [{ type: "text" as const, text: truncatedNote.trim() }] : []),
    ],
  };
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
  lines.push(`Next step: ${nextStep}`);
  const body = describeErrorBody(response);
  if (body !== "") lines.push(`Response body:\n${clip(body, Math.min(options.maxTextChars, 4000))}`);
  const facts: ErrorFacts = { category, status: response.status, retryable };
  if (retryAfter !== undefined) facts.retryAfterSeconds = retryAfter;
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

/** The useful part of an error body: problem+json and `{error: {message}}` shapes read out. */
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
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… ${text.length - max} more characters not shown]`;
}
