/**
 * A 2xx answer → MCP CallToolResult: JSON (and XML read as JSON, xml-json.ts) as
 * structuredContent plus a text copy, text as text, a small image as image content and small
 * other binary as an embedded resource; a larger file is kept for `resources/read` and linked
 * (resources/file-result.ts), or summarised when it cannot be kept; everything within the result
 * budget (truncate.ts). Failures: failure.ts.
 */

import type { CallToolResult } from "@modelcontextprotocol/server";
import { formatBytes } from "../../model/format-bytes.js";
import { isDeeperThan, MAX_JSON_DEPTH } from "../../model/json-depth.js";
import { isJsonMediaType, isXmlMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";
import { PAGE_META_KEY, showsRecords, toPageFacts } from "../apps/result-view.js";
import { type FileOptions, INLINE_FILE_BYTES, toFileLinkResult } from "../resources/file-result.js";
import type { UpstreamResponse } from "../upstream/send.js";
import {
  clip,
  compactJsonText,
  decodeText,
  describeCutAnswer,
  isProbablyText,
  isTextType,
  noteCutAnswer,
} from "./body-text.js";
import { findDocumentedResult, mayBeString } from "./documented-result.js";
import { ERROR_META_KEY, type ErrorFacts } from "./error-result.js";
import { describeUnmatched, type FieldSelection, projectFields } from "./project-fields.js";
import {
  type FitOptions,
  fitJson,
  fitsBudget,
  fitText,
  hasBudget,
  type KeepOptions,
  TRUNCATION_META_KEY,
  type Truncation,
} from "./truncate.js";
import { readXmlAsJson } from "./xml-json.js";

export interface ResultOptions {
  /** Characters of body text kept in a result (default 25,000; Infinity or 0: no limit). */
  maxTextChars: number;
  /** Checks structuredContent against the tool's outputSchema; returns a message when it fails. */
  checkOutput?: (value: unknown) => string | undefined;
  /** The call's arguments, to say which page comes next when an answer is cut. */
  args?: Record<string, unknown>;
  /** Only these fields of a JSON or XML answer (project-fields.ts), applied before the budget. */
  fields?: FieldSelection;
  /** Where a cut answer is kept for reading in parts (without: the marker says how to narrow). */
  keep?: KeepOptions;
  /** Where a file too large for the result is kept (without: it is summarised, never inlined). */
  files?: FileOptions;
  /** The client renders views: a JSON answer carries its paging facts (apps/result-view.ts). */
  pageFacts?: boolean;
}

/** The text of a success without a body (a program's api call reads it as `null`). */
export function emptyBodyText(status: number): string {
  return `HTTP ${status}: the operation succeeded and the API returned no body.`;
}

/**
 * An answer that is a JSON string holding a JSON object or list, where the operation documents
 * no string: encoded twice (a mock serving a spec's examples written as strings, as Jira's
 * are; an API that stringifies its body). Read once more, so the model, `fields` and the
 * budget's cuts see the data, not one long escaped string.
 */
function readEncodedJson(tool: ToolNode, value: unknown): { value: unknown; text: string } | undefined {
  if (typeof value !== "string" || !/^\s*[{[]/.test(value)) return undefined;
  if (mayBeString(findDocumentedResult(tool))) return undefined;
  try {
    const inner: unknown = JSON.parse(value);
    return typeof inner === "object" && inner !== null ? { value: inner, text: value.trim() } : undefined;
  } catch {
    return undefined;
  }
}

export function toSuccessResult(
  tool: ToolNode,
  response: UpstreamResponse,
  options: ResultOptions,
): CallToolResult {
  const fitOptions = (
    structuredOf?: (value: unknown) => Record<string, unknown> | undefined,
  ): FitOptions => ({
    budget: options.maxTextChars,
    tool,
    headers: response.headers,
    ...(options.args ? { args: options.args } : {}),
    ...(options.keep
      ? {
          keep: {
            ...options.keep,
            // A part read later is this tool's result too: with an output schema, its structured
            // copy has the answer's shape (the outline requires nothing, so {} conforms for text).
            structuredOf: (value: unknown) =>
              tool.outputSchema === undefined ? undefined : value === undefined ? {} : structuredOf?.(value),
          },
        }
      : {}),
  });
  const mediaType = (response.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  const truncatedNote = response.truncated ? `\n[${describeCutAnswer(response.body.length)}.]` : "";
  if (response.body.length === 0) {
    const text = emptyBodyText(response.status);
    if (tool.outputSchema) {
      return {
        content: [{ type: "text", text }],
        structuredContent: tool.outputWrapped ? { result: null } : {},
      };
    }
    return { content: [{ type: "text", text }] };
  }
  const looksJson = isJsonMediaType(mediaType) || (mediaType === "" && tool.outputSchema !== undefined);
  // XML is read into JSON (xml-json.ts) where no output schema promised JSON: then `fields`, the
  // budget's JSON cuts and continuation work on it too; XML that does not read cleanly stays text.
  const readsXml = isXmlMediaType(mediaType) && tool.outputSchema === undefined;
  if ((looksJson || readsXml) && !response.truncated) {
    let text = response.body.toString("utf8");
    let parsed: unknown;
    let ok = true;
    if (readsXml) {
      const lists = tool.http.xmlLists;
      parsed = readXmlAsJson(text, lists === undefined ? undefined : new Set(lists));
      ok = parsed !== undefined;
    } else {
      try {
        parsed = JSON.parse(text);
      } catch {
        ok = false;
      }
    }
    const inner = ok && !readsXml ? readEncodedJson(tool, parsed) : undefined;
    if (inner !== undefined) {
      parsed = inner.value;
      text = inner.text;
    }
    // The XML reader refuses what nests too deep itself.
    if (ok && !readsXml && isDeeperThan(parsed, MAX_JSON_DEPTH)) {
      const problem = `it nests deeper than ${MAX_JSON_DEPTH} levels, more than the bridge passes on as structured content`;
      if (tool.outputSchema) return toMismatchResult(response, text, problem, options);
      const fitted = fitText(text, fitOptions());
      const result: CallToolResult = {
        content: [
          { type: "text", text: `[The API's JSON answer: ${problem}; here it is as text.]\n${fitted.text}` },
        ],
      };
      if (fitted.truncation) result._meta = { [TRUNCATION_META_KEY]: { ...fitted.truncation } };
      return result;
    }
    if (ok) {
      const wrapOf = (value: unknown) =>
        tool.outputWrapped || !isRecord(value) ? { result: value } : (value as Record<string, unknown>);
      // The API's answer is checked as it came; a projection of it keeps its shape.
      if (tool.outputSchema && options.checkOutput) {
        const problem = options.checkOutput(wrapOf(parsed));
        if (problem !== undefined) {
          return toMismatchResult(response, text, problem, options);
        }
      }
      // The model reads the answer without its indentation; the budget counts what it reads.
      let shownText = readsXml ? JSON.stringify(parsed) : compactJsonText(text);
      let note: string | undefined;
      if (options.fields) {
        const projected = projectFields(parsed, options.fields);
        note = describeUnmatched(projected.unmatched, parsed);
        parsed = projected.value;
        shownText = JSON.stringify(parsed);
      }
      const wrapped = tool.outputWrapped || !isRecord(parsed);
      const structured = wrapOf(parsed);
      const wrap = wrapOf;
      // The options (and the keep closures) are made only for an answer that is cut.
      const fitted = fitsBudget(shownText.length, options.maxTextChars)
        ? { value: parsed, text: shownText, truncation: undefined }
        : fitJson(parsed, shownText, fitOptions(wrap));
      const withNote = (body: string) => (note === undefined ? body : `${body}\n${note}`);
      // For the result view: which tool, these arguments, and the next page's.
      const page =
        options.pageFacts === true && showsRecords(tool)
          ? { [PAGE_META_KEY]: toPageFacts(tool, options.args ?? {}, response.headers, parsed) }
          : undefined;
      if (!fitted.truncation) {
        return {
          content: [{ type: "text", text: withNote(shownText) }],
          structuredContent: structured,
          ...(page ? { _meta: page } : {}),
        };
      }
      let cut: Record<string, unknown> = wrapped
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
        content: [{ type: "text", text: withNote(fitted.text) }],
        structuredContent: cut,
        _meta: {
          [TRUNCATION_META_KEY]: {
            ...fitted.truncation,
            ...(structuredComplete ? { structuredContentComplete: true } : {}),
          },
          ...page,
        },
      };
    }
  }
  const binary = !(
    isTextType(mediaType) ||
    isJsonMediaType(mediaType) ||
    (mediaType === "" && isProbablyText(response.body))
  );
  if (tool.outputSchema && binary && !response.truncated && options.files) {
    // A file where the spec promised JSON: an error, with the file linked, never its bytes as text.
    const linked = linkFile(tool, response, mediaType, options.files);
    if (linked) {
      const facts: ErrorFacts = {
        category: "unexpected_response",
        status: response.status,
        retryable: false,
      };
      const line = linked.content[0]?.type === "text" ? linked.content[0].text : "";
      return {
        isError: true,
        content: [
          {
            type: "text",
            text:
              `Unexpected response: HTTP ${response.status} succeeded, but the answer is ${mediaType || "untyped"}, ` +
              `not the JSON the spec documents. The request was carried out; do not repeat it blindly. ${line}`,
          },
          ...linked.content.slice(1),
        ],
        _meta: { [ERROR_META_KEY]: { ...facts }, ...linked._meta },
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
  if (mediaType.startsWith("image/") && !response.truncated && response.body.length <= INLINE_FILE_BYTES) {
    return {
      content: [{ type: "image", data: response.body.toString("base64"), mimeType: mediaType }],
    };
  }
  // JSON that did not parse or was cut at --max-response-bytes is still text.
  if (!binary) {
    const fitted = fitText(decodeText(response.body), fitOptions());
    const fieldsNote = options.fields
      ? `\n[The fields asked for were not applied: the answer is not JSON${readsXml ? " (nor XML the bridge reads as JSON)" : ""}.]`
      : "";
    const result: CallToolResult = {
      content: [{ type: "text", text: fitted.text + truncatedNote + fieldsNote }],
    };
    if (fitted.truncation) result._meta = { [TRUNCATION_META_KEY]: { ...fitted.truncation } };
    return result;
  }
  const isImage = mediaType.startsWith("image/");
  // A cut file is corrupt: said what it is, never kept or shown.
  if (response.truncated) return toBinarySummary(response, mediaType, options);
  const base64Chars = Math.ceil(response.body.length / 3) * 4;
  if (
    !isImage &&
    response.body.length <= INLINE_FILE_BYTES &&
    !(hasBudget(options.maxTextChars) && base64Chars > options.maxTextChars)
  ) {
    return {
      content: [
        {
          type: "resource",
          resource: {
            uri: responseUri(tool),
            mimeType: mediaType || "application/octet-stream",
            blob: response.body.toString("base64"),
          },
        },
      ],
    };
  }
  const linked = options.files ? linkFile(tool, response, mediaType, options.files) : undefined;
  return linked ?? toBinarySummary(response, mediaType, options);
}

/** The answer kept as a file and linked (resources/file-result.ts), or undefined when it cannot be kept. */
function linkFile(
  tool: ToolNode,
  response: UpstreamResponse,
  mediaType: string,
  files: FileOptions,
): CallToolResult | undefined {
  const filename = parseFilename(response.headers["content-disposition"]);
  return toFileLinkResult(
    {
      status: response.status,
      mimeType: mediaType || "application/octet-stream",
      bytes: response.body,
      ...(filename ? { filename } : {}),
      fallbackName: tool.name,
    },
    files,
  );
}

function responseUri(tool: ToolNode): string {
  return `openapi-mcp-bridge://response/${encodeURIComponent(tool.name)}`;
}

/**
 * A binary answer the result cannot carry nor link (cut at --max-response-bytes, or too large
 * to keep as a file): what it is, how large, its file name, and why it is not included.
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
    : `${formatBytes(bytes)} is more than a result carries (${formatBytes(INLINE_FILE_BYTES)}) and more than the bridge keeps as a file to read`;
  const text =
    `HTTP ${response.status}: the operation succeeded; the API answered with binary data (${what}, ${response.truncated ? "over " : ""}${formatBytes(bytes)}) ` +
    `that is not included: ${why}. Tell the user it is too large to pass through` +
    `${response.truncated ? "; the bridge's operator can raise --max-response-bytes" : ""}.`;
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

function toMismatchResult(
  response: UpstreamResponse,
  text: string,
  problem: string,
  options: ResultOptions,
): CallToolResult {
  const facts: ErrorFacts = { category: "unexpected_response", status: response.status, retryable: false };
  return noteCutAnswer(
    {
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
    },
    response,
  );
}
