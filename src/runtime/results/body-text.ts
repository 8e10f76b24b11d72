/** Reading an upstream body as text or JSON, by its media type and its bytes. */

import type { CallToolResult } from "@modelcontextprotocol/server";
import { isDeeperThan, MAX_JSON_DEPTH } from "../../model/json-depth.js";
import { isXmlMediaType } from "../../model/media-types.js";
import type { UpstreamResponse } from "../upstream/send.js";
import { hasBudget } from "./truncate.js";
import { readXmlAsJson } from "./xml-json.js";

/** What a result says of an answer cut at `--max-response-bytes`. */
export function describeCutAnswer(keptBytes: number): string {
  return `The API's answer was larger than the bridge reads; only the first ${keptBytes} bytes were kept`;
}

/**
 * A result whose text does not speak of the answer's size (an error, a redirect, an answer that
 * does not match its schema) told that the answer was cut, when it was. Each result builder
 * says it once, in its own words or through this.
 */
export function noteCutAnswer(result: CallToolResult, response: UpstreamResponse): CallToolResult {
  if (!response.truncated) return result;
  const text = `[${describeCutAnswer(response.body.length)} and the rest was discarded.]`;
  return { ...result, content: [...result.content, { type: "text", text }] };
}

/** Error bodies larger than this are shown as text, never parsed for a message. */
const MAX_PARSED_ERROR_BYTES = 1024 * 1024;

/** An error body parsed as JSON, when it is JSON (by its media type or its first character). */
export function parseJsonBody(response: UpstreamResponse): unknown {
  if (response.body.length === 0 || response.body.length > MAX_PARSED_ERROR_BYTES) return undefined;
  const mediaType = (response.headers["content-type"] ?? "").toLowerCase();
  const text = decodeText(response.body).trim();
  if (!mediaType.includes("json") && !/^[{[]/.test(text)) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    // Too deep to walk for messages and fields: the body is still shown as text.
    return isDeeperThan(value, MAX_JSON_DEPTH) ? undefined : value;
  } catch {
    return undefined;
  }
}

/**
 * An error body read from XML (xml-json.ts), when its media type is XML and it reads cleanly:
 * AWS and other XML APIs give their code and message there.
 */
export function parseXmlBody(response: UpstreamResponse): unknown {
  if (response.body.length === 0 || response.body.length > MAX_PARSED_ERROR_BYTES) return undefined;
  if (!isXmlMediaType(response.headers["content-type"] ?? "")) return undefined;
  return readXmlAsJson(decodeText(response.body));
}

export function isTextType(mediaType: string): boolean {
  return (
    mediaType.startsWith("text/") ||
    isXmlMediaType(mediaType) ||
    mediaType === "application/javascript" ||
    mediaType === "application/x-www-form-urlencoded" ||
    mediaType.endsWith("+yaml") ||
    mediaType === "application/yaml"
  );
}

export function isProbablyText(body: Buffer): boolean {
  const sample = body.subarray(0, 512);
  for (const byte of sample) if (byte === 0) return false;
  return !decodeText(sample).includes("\uFFFD");
}

/**
 * JSON text without the whitespace between its tokens: what a pretty-printing API indents
 * (often a third of its answer) costs a model characters and says nothing. Strings are kept as
 * they are, and numbers as written (parsing and writing again would round integers past 2^53).
 * `text` must be JSON.
 */
export function compactJsonText(text: string): string {
  // Most APIs answer compact JSON already: then there is nothing to remove and no need for the
  // replacement, which calls back for every string of the answer.
  if (!hasSpaceOutsideStrings(text)) return text;
  return text.replace(
    /("(?:[^"\\]|\\.)*")|[ \t\n\r]+/g,
    (_match, string: string | undefined) => string ?? "",
  );
}

/** Whether JSON `text` has whitespace between its tokens (outside its strings). */
function hasSpaceOutsideStrings(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      // A backslash: the character after it is escaped.
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) return true;
  }
  return false;
}

export function decodeText(body: Buffer): string {
  return body.toString("utf8");
}

/**
 * Cuts text to `max` characters with a marker that says how much was left out, unless the
 * marker would be as long as what it leaves out: then the whole text costs no more.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max || !hasBudget(max)) return text;
  const marker = `\n[… ${text.length - max} more characters not shown]`;
  return marker.length >= text.length - max ? text : `${text.slice(0, max)}${marker}`;
}
