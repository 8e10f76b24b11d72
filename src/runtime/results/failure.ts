/**
 * A non-2xx answer, a redirect or a failed call → an `isError` result: the classification, the
 * HTTP status, the spec's words for it, the API's message, the fields it rejected as our
 * argument names (field-map.ts), the body, and what to do next.
 */

import type { CallToolResult } from "@modelcontextprotocol/server";
import { isDeeperThan, MAX_JSON_DEPTH } from "../../model/json-depth.js";
import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";
import type { UpstreamFailure, UpstreamResponse } from "../upstream/send.js";
import {
  clip,
  decodeText,
  isProbablyText,
  isTextType,
  noteCutAnswer,
  parseJsonBody,
  parseXmlBody,
} from "./body-text.js";
import {
  categoryLabel,
  ERROR_META_KEY,
  type ErrorCategory,
  type ErrorFacts,
  toErrorResult,
} from "./error-result.js";
import { formatFieldErrors, mapFieldErrors } from "./field-map.js";
import { isGenericStatusText } from "./generic-status-text.js";
import type { ResultOptions } from "./success.js";
import { describeUntoldJson, MAX_SCANNED_BODY_CHARS, splitToldBody } from "./untold-body.js";

/**
 * A 3xx the spec documents (download links, moved resources) is the operation's answer, not a
 * failure: the bridge does not follow it (credentials must not travel to another host), it
 * hands the model the Location.
 */
export function isDocumentedRedirect(tool: ToolNode, status: number): boolean {
  if (status < 300 || status >= 400) return false;
  return tool.http.responses.some((r) => r.status === String(status) || r.status === "3XX");
}

/** A documented redirect's result: the location is the answer (the bridge follows none). */
export function toRedirectResult(tool: ToolNode, response: UpstreamResponse): CallToolResult {
  return noteCutAnswer(describeRedirect(tool, response), response);
}

function describeRedirect(tool: ToolNode, response: UpstreamResponse): CallToolResult {
  const location = response.headers.location?.trim();
  const documented = findResponseDescription(tool, response.status, response.statusText);
  // 304 Not Modified is no redirect (RFC 9110 §15.4.5): it answers a conditional request.
  if (response.status === 304) return toNotModifiedResult(tool, documented);
  if (!location) return toMissingLocationResult(tool, response, documented);
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

/**
 * A documented redirect with no Location (RFC 9110 §10.2.2: the header is what a 3xx answer
 * points with) leaves the model with nothing to follow or to hand over: an error saying so,
 * never a "success" whose result is empty.
 */
function toMissingLocationResult(
  tool: ToolNode,
  response: UpstreamResponse,
  documented: string | undefined,
): CallToolResult {
  const reason = response.statusText ? ` ${response.statusText}` : "";
  const lines = [
    `Unexpected response: HTTP ${response.status}${reason} from ${tool.http.method.toUpperCase()} ${tool.http.path} is a redirect without a Location header, so it does not say where the result is.`,
  ];
  if (documented) lines.push(`The API documents this status as: ${documented}`);
  lines.push(
    tool.annotations.idempotentHint
      ? "Next step: Call again; if the answer stays the same, tell the user the API did not say where the result is."
      : "Next step: The request may have been carried out; do not repeat it blindly. Check its effect first, or tell the user.",
  );
  const body = response.body.length > 0 && isProbablyText(response.body) ? decodeText(response.body) : "";
  if (body.trim() !== "") lines.push(`Response body:\n${clip(body, 4000)}`);
  const facts: ErrorFacts = { category: "unexpected_response", status: response.status, retryable: false };
  return {
    isError: true,
    content: [{ type: "text", text: lines.join("\n") }],
    _meta: { [ERROR_META_KEY]: { ...facts } },
  };
}

function toNotModifiedResult(tool: ToolNode, documented: string | undefined): CallToolResult {
  const lines = [
    "HTTP 304 Not Modified: the resource has not changed since the version the request named (If-None-Match or If-Modified-Since); the API sends no copy of it.",
  ];
  if (documented) lines.push(`The API documents this status as: ${documented}`);
  const result: CallToolResult = { content: [{ type: "text", text: lines.join("\n") }] };
  if (tool.outputSchema) result.structuredContent = tool.outputWrapped ? { result: null } : {};
  return result;
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
  const documented = findResponseDescription(tool, response.status, response.statusText);
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
  const xml = parsed === undefined ? parseXmlBody(response) : undefined;
  const message = parsed !== undefined ? findErrorMessage(parsed) : findXmlErrorMessage(xml);
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
  const body = describeErrorBody(response, lines.join("\n"), xml);
  if (body !== "") lines.push(clip(body, Math.min(options.maxTextChars, 4000)));
  const facts: ErrorFacts = { category, status: response.status, retryable };
  if (retryAfter !== undefined) facts.retryAfterSeconds = retryAfter;
  if (message !== undefined) facts.message = clip(message, 500);
  if (fields.length > 0) facts.fields = fields;
  return noteCutAnswer(
    {
      isError: true,
      content: [{ type: "text", text: lines.join("\n") }],
      _meta: { [ERROR_META_KEY]: { ...facts } },
    },
    response,
  );
}

export function toFailureResult(tool: ToolNode, failure: UpstreamFailure, origin: string): CallToolResult {
  const operation = `${tool.http.method.toUpperCase()} ${tool.http.path}`;
  if (failure.kind === "local") {
    const facts: ErrorFacts = { category: "invalid_argument", retryable: false };
    return {
      isError: true,
      content: [
        {
          type: "text",
          text:
            `Invalid argument: ${operation}: ${failure.message}. Nothing was sent to the API.\n` +
            "Next step: check the header arguments (plain text only, no header the HTTP client controls); " +
            "if they are right, the bridge's configuration (--header, credentials) is at fault: tell the user.",
        },
      ],
      _meta: { [ERROR_META_KEY]: { ...facts } },
    };
  }
  if (failure.kind === "cancelled") {
    // Nobody reads it (the client cancelled): it is what the audit line records.
    return toErrorResult(`Cancelled: ${operation}: ${failure.message}.`, "cancelled");
  }
  const timeout = failure.kind === "timeout";
  const facts: ErrorFacts = {
    category: timeout ? "timeout" : "upstream_unavailable",
    retryable: true,
    ...(failure.kind === "connect" ? { unsent: true as const } : {}),
  };
  const label = timeout ? "Timeout" : "Upstream unavailable";
  // No connection made: nothing reached the API, so even a POST is safe to send again.
  const safeToRetry =
    tool.annotations.idempotentHint || failure.kind === "connect"
      ? "Retry later."
      : "This operation is not idempotent: it may or may not have taken effect; check before retrying.";
  return {
    isError: true,
    content: [
      {
        type: "text",
        text: `${label}: ${operation} at ${origin}: ${failure.message}.\nNext step: ${safeToRetry}`,
      },
    ],
    _meta: { [ERROR_META_KEY]: { ...facts } },
  };
}

function findResponseDescription(tool: ToolNode, status: number, statusText?: string): string | undefined {
  const exact = tool.http.responses.find((r) => r.status === String(status));
  const range = tool.http.responses.find((r) => r.status === `${String(status)[0]}XX`);
  const fallback = tool.http.responses.find((r) => r.status === "DEFAULT" || r.status === "default");
  const description = (exact ?? range ?? fallback)?.description.trim();
  return description && !isGenericStatusText(description, statusText) ? description : undefined;
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The API's own words: problem+json `title: detail`, `{error: {message}}`, `{error, error_description}`
 * (OAuth), `{message}`, `{detail: "..."}`, a list of `errors` (texts, or objects with a message)
 * or Jira's `errorMessages`,
 * AWS JSON's `Message`, `errorMessage`, `msg`.
 */
export function findErrorMessage(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const text = (value: unknown) =>
    typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
  const error = record.error;
  if (isRecord(error)) {
    const message = text(error.message) ?? text(error.detail) ?? text(error.description);
    if (message) return message;
  }
  const title = text(record.title);
  const detail = text(record.detail);
  if (title && detail) return detail.startsWith(title) ? detail : `${title}: ${detail}`;
  const description = text(record.error_description);
  if (text(error) && description) return `${text(error)}: ${description}`;
  return (
    text(record.message) ??
    detail ??
    description ??
    text(error) ??
    title ??
    joinErrorTexts(record.errors) ??
    joinErrorTexts(record.errorMessages) ??
    text(record.errorMessage) ??
    text(record.error_message) ??
    text(record.msg) ??
    readAwsMessage(record)
  );
}

/** AWS's `{Code, Message}` (S3, the query protocol) and JSON protocol's `{__type, Message}`. */
function readAwsMessage(record: Record<string, unknown>): string | undefined {
  const message = typeof record.Message === "string" ? record.Message.trim() : "";
  if (message === "") return undefined;
  const type = typeof record.__type === "string" ? record.__type.split("#").pop() : undefined;
  const code = typeof record.Code === "string" && record.Code.trim() !== "" ? record.Code.trim() : type;
  return code ? `${code}: ${message}` : message;
}

/** Error texts an API lists without naming fields (`errors: ["Name is taken"]`, JSON:API's titles). */
const MAX_JOINED_ERRORS = 3;

function joinErrorTexts(errors: unknown): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  const texts: string[] = [];
  for (const item of errors.slice(0, MAX_JOINED_ERRORS)) {
    if (typeof item === "string" && item.trim() !== "") texts.push(item.trim());
    else if (isRecord(item)) {
      const message = [item.message, item.detail, item.title].find(
        (value): value is string => typeof value === "string" && value.trim() !== "",
      );
      if (message !== undefined) texts.push(message.trim());
    }
  }
  if (texts.length === 0) return undefined;
  const more = errors.length - MAX_JOINED_ERRORS;
  return more > 0 ? `${texts.join("; ")} (and ${more} more)` : texts.join("; ");
}

/**
 * The API's own words in an XML error read as JSON (xml-json.ts drops the root): the keys
 * findErrorMessage knows, else the code and message of AWS EC2's
 * `<Response><Errors><Error><Code/><Message/>`, the query protocol's
 * `<ErrorResponse><Error><Code/><Message/>` or S3's `<Error><Code/><Message/>`.
 */
export function findXmlErrorMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const known = findErrorMessage(body);
  if (known !== undefined) return known;
  const errors = isRecord(body.Errors) ? body.Errors.Error : undefined;
  for (const candidate of [body, body.Error, Array.isArray(errors) ? errors[0] : errors]) {
    if (!isRecord(candidate)) continue;
    const code = typeof candidate.Code === "string" ? candidate.Code.trim() : "";
    const message = typeof candidate.Message === "string" ? candidate.Message.trim() : "";
    if (code !== "" || message !== "")
      return code !== "" && message !== "" ? `${code}: ${message}` : code || message;
  }
  return undefined;
}

/**
 * The error body's line: JSON compacted, without what the told lines already say
 * (untold-body.ts), HTML reduced to its text; "" when there is nothing to add.
 */
function describeErrorBody(response: UpstreamResponse, told: string, xml: unknown): string {
  if (response.body.length === 0) return "";
  const mediaType = (response.headers["content-type"] ?? "").toLowerCase();
  const text = decodeText(response.body);
  // An XML error (AWS's `<Response><Errors><Error><Code/><Message/>…<RequestID/>`) is mostly
  // its code and message, which the lines quote: the rest is shown as the JSON it was read as.
  if (isRecord(xml) && text.length <= MAX_SCANNED_BODY_CHARS) {
    const { whole, rest } = splitToldBody(xml, told, response.status);
    if (rest === "") return "";
    if (rest !== whole) return `The rest of the response body (XML read as JSON):\n${rest}`;
  }
  if (mediaType.includes("json")) {
    try {
      const value = JSON.parse(text) as unknown;
      if (isDeeperThan(value, MAX_JSON_DEPTH)) return `Response body:\n${text}`;
      return describeUntoldJson(value, told, response.status) ?? "";
    } catch {
      return `Response body:\n${text}`;
    }
  }
  if (mediaType.includes("html")) {
    const plain = text
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    return `Response body:\n${plain}`;
  }
  if (isTextType(mediaType) || isProbablyText(response.body)) return `Response body:\n${text}`;
  return `Response body:\n[${response.body.length} bytes of ${mediaType || "binary data"}]`;
}
