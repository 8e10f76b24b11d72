/**
 * Request bodies: tool arguments → bytes and a Content-Type, per the Media Type and Encoding
 * Objects of OpenAPI 3.1 (§4.8.14, §4.8.15 and Appendix E).
 *
 * Choices where the specifications leave room (each one is tested in test/unit/body.test.ts):
 * - A body with no value (value mode: the argument is undefined; properties mode: no property
 *   argument present) gives `undefined`. A properties-mode body that is sent carries each
 *   property's `fill` (a required property with a default or one allowed value) the call left
 *   out, and the entries of its extra-properties argument (`extraArgument`) as given. A required body in value mode has a required `body`
 *   argument, so input validation reports its absence before a request is built. A required
 *   body in properties mode whose schema requires no property is a call the input schema
 *   allows with no body argument at all: `encodeEmptyBody` sends the smallest valid body
 *   (`{}`, an empty form), never a refusal the schema did not state.
 * - JSON: the value or the assembled object goes through `JSON.stringify` as it is; an array or
 *   a primitive body is never wrapped in an object.
 * - application/x-www-form-urlencoded: a property whose Encoding Object sets `style`, `explode`
 *   or `allowReserved` is serialised like a query parameter (RFC 6570, spaces as `%20`). Other
 *   properties use content-based serialisation (3.1.1 Encoding Object defaults): strings,
 *   numbers and booleans as text, objects as JSON (or per `contentType`), arrays as one pair per
 *   item; names and values are then encoded per RFC 1866 as Appendix E recommends: everything but
 *   `A-Za-z0-9-._` is percent-encoded and spaces become `+`. `null` values are left out.
 * - multipart/form-data: built as an undici `FormData` (contentType "", undici adds the
 *   boundary). Arrays become one part per item with the same name (RFC 7578 §4.3). Strings,
 *   numbers and booleans are plain text parts; objects are `application/json` parts without a
 *   filename (a filename would make servers treat them as uploads). An Encoding Object
 *   `contentType` other than text/plain makes a text value a typed part. File properties take
 *   base64 (see `decodeBase64Argument`) and become parts with a filename (default "file") and
 *   a content type: the Encoding Object's when it names exactly one concrete type, else the
 *   caller's, else the first concrete type listed, else application/octet-stream. Per-part
 *   headers and `style` in multipart are not supported.
 * - Wildcard media types: JSON bodies are sent as application/json, form bodies as
 *   application/x-www-form-urlencoded, `text/*` as text/plain, anything else as
 *   application/octet-stream (a binary body prefers the content type the caller gave).
 */

import { createRequire } from "node:module";
import type { FormData as UndiciFormData } from "undici";
import { isJsonMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { BodyBindingNode, BodyEncodingNode, BodyPropertyNode } from "../../model/types.js";
import { ArgumentError } from "./argument-error.js";
import { serializeFormField } from "./params.js";

export interface EncodedBody {
  /** The Content-Type header value; "" for FormData, whose boundary undici sets. */
  contentType: string;
  payload: string | Uint8Array | UndiciFormData;
}

type FormData = UndiciFormData;

/**
 * undici's own FormData (undici.request rejects the global one), loaded on the first
 * multipart body rather than at start-up.
 */
function createFormData(): FormData {
  const undici = createRequire(import.meta.url)("undici") as typeof import("undici");
  return new undici.FormData();
}

export interface DecodedFile {
  bytes: Uint8Array;
  filename?: string;
  contentType?: string;
}

/** One body property with its value, wire name and (when known) its model node. */
interface BodyField {
  name: string;
  argument: string;
  value: unknown;
  node?: BodyPropertyNode;
}

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_BASE64 = /^[A-Za-z0-9_-]*={0,2}$/;
const DATA_URL = /^data:([^,]*?);base64,(.*)$/is;
const utf8 = new TextEncoder();

function decodeBase64Text(argument: string, text: string): Uint8Array {
  const compact = text.replace(/[\t\n\r ]/g, "");
  const urlSafe = !STANDARD_BASE64.test(compact);
  if (urlSafe && !URL_BASE64.test(compact)) {
    throw new ArgumentError(
      argument,
      "is not valid base64: only A-Z a-z 0-9 + / (or - _) and = padding allowed",
    );
  }
  const data = compact.replace(/=+$/, "");
  const padded = data.length !== compact.length;
  if (data.length % 4 === 1 || (padded && compact.length % 4 !== 0)) {
    throw new ArgumentError(argument, "is not valid base64: its length or padding is wrong");
  }
  const encoding = urlSafe ? "base64url" : "base64";
  const bytes = Buffer.from(data, encoding);
  if (bytes.toString(encoding).replace(/=+$/, "") !== data) {
    throw new ArgumentError(argument, "is not valid base64: its last character carries stray bits");
  }
  return new Uint8Array(bytes);
}

/**
 * Reads a file argument: a base64 or base64url string, a `data:<type>;base64,...` URL, or an
 * object `{ base64, filename?, contentType? }`. Whitespace inside the base64 text is ignored;
 * anything else that is not canonical base64 is refused with an ArgumentError.
 */
export function decodeBase64Argument(argument: string, value: unknown): DecodedFile {
  if (typeof value === "string") {
    const dataUrl = DATA_URL.exec(value.trim());
    if (dataUrl) {
      const bytes = decodeBase64Text(argument, dataUrl[2]!);
      const contentType = dataUrl[1]!.trim();
      return contentType === "" ? { bytes } : { bytes, contentType };
    }
    return { bytes: decodeBase64Text(argument, value) };
  }
  if (isRecord(value) && typeof value["base64"] === "string") {
    const { filename, contentType } = value;
    if (filename !== undefined && typeof filename !== "string") {
      throw new ArgumentError(argument, "filename must be a string");
    }
    if (contentType !== undefined && typeof contentType !== "string") {
      throw new ArgumentError(argument, "contentType must be a string");
    }
    const decoded = decodeBase64Argument(argument, value["base64"]);
    return {
      bytes: decoded.bytes,
      ...(filename !== undefined && filename !== "" ? { filename } : {}),
      ...(contentType !== undefined && contentType !== ""
        ? { contentType }
        : decoded.contentType !== undefined
          ? { contentType: decoded.contentType }
          : {}),
    };
  }
  throw new ArgumentError(
    argument,
    "expected a base64 string or an object { base64: string, filename?: string, contentType?: string }",
  );
}

/** The media type without parameters, lower-cased. */
function readEssence(mediaType: string): string {
  return (mediaType.split(";")[0] ?? "").trim().toLowerCase();
}

/** The Content-Type to send for a body media type that may be a wildcard. */
function resolveContentType(body: BodyBindingNode): string {
  const essence = readEssence(body.mediaType);
  if (!essence.includes("*")) return body.mediaType.trim();
  if (body.kind === "json") return "application/json";
  if (body.kind === "form") return "application/x-www-form-urlencoded";
  if (essence.startsWith("text/")) return "text/plain";
  return "application/octet-stream";
}

/** The concrete media types in an Encoding Object `contentType` list (wildcards dropped). */
function listConcreteTypes(contentType: string | undefined): string[] {
  if (contentType === undefined) return [];
  return contentType
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "" && !entry.includes("*"));
}

/** Collects the body's fields: present property arguments, or the entries of the value. */
function collectFields(body: BodyBindingNode, args: Record<string, unknown>): BodyField[] | undefined {
  if (body.mode === "properties") {
    const nodes = body.properties ?? [];
    const extra = collectExtraFields(body, args);
    const given = extra.length > 0 || nodes.some((node) => args[node.argument] !== undefined);
    // The bridge's values (`fill`) go with a body that is sent: given fields, or a required body.
    if (!given && !body.required) return undefined;
    const fields: BodyField[] = [];
    for (const node of nodes) {
      const value = args[node.argument] !== undefined ? args[node.argument] : node.fill;
      if (value !== undefined) fields.push({ name: node.name, argument: node.argument, value, node });
    }
    fields.push(...extra);
    return fields.length === 0 ? undefined : fields;
  }
  const argument = body.argument ?? "body";
  const value = args[argument];
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    throw new ArgumentError(argument, `a ${body.mediaType} body must be an object of fields`);
  }
  const nodes = new Map((body.properties ?? []).map((node) => [node.name, node]));
  return Object.entries(value)
    .filter(([, item]) => item !== undefined)
    .map(([name, item]) => {
      const node = nodes.get(name);
      return node === undefined ? { name, argument, value: item } : { name, argument, value: item, node };
    });
}

/**
 * The entries of the body's extra-properties argument (`extraArgument`). A name the body lists
 * is refused: it has its own argument, and two values for one property would leave the choice
 * to chance.
 */
function collectExtraFields(body: BodyBindingNode, args: Record<string, unknown>): BodyField[] {
  const argument = body.extraArgument;
  const value = argument === undefined ? undefined : args[argument];
  if (argument === undefined || !isRecord(value)) return [];
  const listed = new Map((body.properties ?? []).map((node) => [node.name, node.argument]));
  const fields: BodyField[] = [];
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const own = listed.get(name);
    if (own !== undefined) {
      throw new ArgumentError(
        argument,
        `"${name}" is a listed body property: give it as the argument \`${own}\``,
      );
    }
    fields.push({ name, argument, value: item });
  }
  return fields;
}

/** The whole body value: the argument itself, or an object assembled from property arguments. */
function collectValue(body: BodyBindingNode, args: Record<string, unknown>): unknown {
  if (body.mode === "value") return args[body.argument ?? "body"];
  const fields = collectFields(body, args);
  if (fields === undefined) return undefined;
  if (body.kind === "text" || body.kind === "binary") return fields[0]!.value;
  return Object.fromEntries(fields.map((field) => [field.name, field.value]));
}

/** The argument whose value a text or binary body is made of, for error messages. */
function readValueArgument(body: BodyBindingNode, args: Record<string, unknown>): string {
  if (body.mode === "value") return body.argument ?? "body";
  return body.properties?.find((node) => args[node.argument] !== undefined)?.argument ?? "body";
}

/** RFC 1866 / WHATWG form-urlencoded: all but `A-Za-z0-9-._` percent-encoded, space as `+`. */
function encodeFormComponent(text: string): string {
  let out = "";
  for (const byte of utf8.encode(text)) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._]/.test(char)) out += char;
    else if (byte === 0x20) out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Text of one value under content-based serialisation with an optional declared contentType. */
function serializeContentItem(argument: string, item: unknown, contentType: string | undefined): string {
  const declared = listConcreteTypes(contentType)[0];
  if (declared !== undefined && isJsonMediaType(declared)) return JSON.stringify(item);
  if (typeof item === "string") return item;
  if (typeof item === "number" && !Number.isFinite(item)) {
    throw new ArgumentError(argument, `${item} is not a number JSON can represent`);
  }
  return typeof item === "object" ? JSON.stringify(item) : String(item);
}

/** 3.1.1 Encoding Object: any of style, explode, allowReserved selects RFC 6570 serialisation. */
function usesStyleSerialisation(encoding: BodyEncodingNode): boolean {
  return (
    encoding.style !== undefined || encoding.explode !== undefined || encoding.allowReserved !== undefined
  );
}

function encodeFormBody(body: BodyBindingNode, fields: BodyField[]): string {
  const pairs: string[] = [];
  for (const field of fields) {
    if (field.value === null) continue;
    const encoding = body.encoding?.[field.name];
    if (encoding !== undefined && usesStyleSerialisation(encoding)) {
      const style = encoding.style ?? "form";
      pairs.push(
        ...serializeFormField({
          argument: field.argument,
          name: field.name,
          value: field.value,
          style,
          explode: encoding.explode ?? style === "form",
          allowReserved: encoding.allowReserved ?? false,
        }),
      );
      continue;
    }
    const items = Array.isArray(field.value) && field.node?.shape !== "object" ? field.value : [field.value];
    for (const item of items) {
      if (item === null || item === undefined) continue;
      const text =
        field.node?.file && isRecord(item) && typeof item["base64"] === "string"
          ? item["base64"]
          : serializeContentItem(field.argument, item, encoding?.contentType);
      pairs.push(`${encodeFormComponent(field.name)}=${encodeFormComponent(text)}`);
    }
  }
  return pairs.join("&");
}

function chooseFileType(declared: string | undefined, given: string | undefined): string {
  const concrete = listConcreteTypes(declared);
  const listed =
    declared === undefined ? 0 : declared.split(",").filter((entry) => entry.trim() !== "").length;
  if (listed === 1 && concrete.length === 1) return concrete[0]!;
  return given ?? concrete[0] ?? "application/octet-stream";
}

function appendMultipartItem(
  form: FormData,
  field: BodyField,
  item: unknown,
  declared: string | undefined,
): void {
  if (field.node?.file) {
    const file = decodeBase64Argument(field.argument, item);
    const type = chooseFileType(declared, file.contentType);
    form.append(field.name, new Blob([file.bytes], { type }), file.filename ?? "file");
    return;
  }
  const partType = listConcreteTypes(declared)[0];
  if (typeof item === "object") {
    const type = partType !== undefined && isJsonMediaType(partType) ? partType : "application/json";
    form.append(field.name, new Blob([JSON.stringify(item)], { type }), "");
    return;
  }
  const text = serializeContentItem(field.argument, item, declared);
  if (partType === undefined || readEssence(partType) === "text/plain") {
    form.append(field.name, text);
  } else {
    form.append(field.name, new Blob([text], { type: partType }), "");
  }
}

function encodeMultipartBody(body: BodyBindingNode, fields: BodyField[]): FormData {
  const form = createFormData();
  for (const field of fields) {
    const declared = body.encoding?.[field.name]?.contentType;
    const items = Array.isArray(field.value) && field.node?.shape !== "object" ? field.value : [field.value];
    for (const item of items) {
      if (item !== null && item !== undefined) appendMultipartItem(form, field, item, declared);
    }
  }
  return form;
}

/**
 * The body of a required properties-mode body when the call gives none of its properties: an
 * empty object (JSON), an empty form, an empty multipart form. Undefined when the body is not
 * required or is one `body` argument (whose absence validation reports).
 */
export function encodeEmptyBody(body: BodyBindingNode): EncodedBody | undefined {
  if (!body.required || body.mode !== "properties") return undefined;
  switch (body.kind) {
    case "json":
      return { contentType: resolveContentType(body), payload: "{}" };
    case "form":
      return { contentType: resolveContentType(body), payload: "" };
    case "multipart":
      return { contentType: "", payload: createFormData() };
    default:
      return undefined;
  }
}

/**
 * Turns the body arguments into a payload and its Content-Type, or `undefined` when the call
 * carries no body value.
 */
export function encodeBody(body: BodyBindingNode, args: Record<string, unknown>): EncodedBody | undefined {
  switch (body.kind) {
    case "form": {
      const fields = collectFields(body, args);
      if (fields === undefined) return undefined;
      return { contentType: resolveContentType(body), payload: encodeFormBody(body, fields) };
    }
    case "multipart": {
      const fields = collectFields(body, args);
      if (fields === undefined) return undefined;
      return { contentType: "", payload: encodeMultipartBody(body, fields) };
    }
    case "text": {
      const value = collectValue(body, args);
      if (value === undefined) return undefined;
      const contentType = resolveContentType(body);
      return {
        contentType: /;\s*charset=/i.test(contentType) ? contentType : `${contentType}; charset=utf-8`,
        payload: typeof value === "string" ? value : JSON.stringify(value),
      };
    }
    case "binary": {
      const value = collectValue(body, args);
      if (value === undefined) return undefined;
      const file = decodeBase64Argument(readValueArgument(body, args), value);
      const wildcard = readEssence(body.mediaType).includes("*");
      const contentType =
        wildcard && file.contentType !== undefined ? file.contentType : resolveContentType(body);
      return { contentType, payload: file.bytes };
    }
    default: {
      const value = collectValue(body, args);
      if (value === undefined) return undefined;
      return { contentType: resolveContentType(body), payload: JSON.stringify(value) };
    }
  }
}
