/**
 * The request body of an operation: the media type sent (JSON, form, multipart, text, binary),
 * and either its object properties as top-level arguments or the whole body as `body`.
 */
import { isJsonMediaType, isXmlMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type {
  BodyBindingNode,
  BodyEncodingNode,
  BodyKind,
  BodyPropertyNode,
  JsonSchema,
  ParameterStyle,
} from "../../model/types.js";
import type { Candidate } from "./argument-names.js";
import { type OperationContext, PARAMETER_STYLES, resolveRefObject } from "./context.js";
import { listApiKeyNames, toLooseName } from "./credential-parameters.js";
import { findDiscriminatorFill } from "./discriminator-fill.js";
import { findFillValue } from "./fixed-parameters.js";
import type { SchemaConverter } from "./json-schema.js";
import { isReadOnlyProperty } from "./read-only.js";
import { compactDescription } from "./text.js";
import { determineShape } from "./value-shape.js";

/** A file given as base64 (multipart parts and binary bodies). */
export const FILE_ARGUMENT_SCHEMA: JsonSchema = {
  description: "A file: {base64, filename?, contentType?}, or just its bytes as a base64 string.",
  anyOf: [
    {
      type: "object",
      properties: {
        base64: {
          type: "string",
          contentEncoding: "base64",
          description: "The file's bytes, base64-encoded.",
        },
        filename: { type: "string" },
        contentType: { type: "string" },
      },
      required: ["base64"],
      additionalProperties: false,
    },
    { type: "string", contentEncoding: "base64" },
  ],
};

/** Media types we can send, best first (JSON, form, multipart, text, binary). */
function rankBodyMediaType(mediaType: string): { rank: number; kind: BodyKind } {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  if (base === "application/json") return { rank: 0, kind: "json" };
  if (isJsonMediaType(base)) return { rank: 1, kind: "json" };
  if (base === "application/x-www-form-urlencoded") return { rank: 2, kind: "form" };
  if (base === "multipart/form-data" || base === "multipart/mixed") return { rank: 3, kind: "multipart" };
  if (base.startsWith("text/") || isXmlMediaType(base)) {
    return { rank: 4, kind: "text" };
  }
  if (base === "*/*" || base === "application/*") return { rank: 5, kind: "json" };
  return { rank: 6, kind: "binary" };
}

export function planBody(
  context: OperationContext,
  refs: Set<string>,
  candidates: Candidate[],
): BodyBindingNode | undefined {
  const requestBody = resolveRefObject(context.document, context.operation.requestBody);
  if (!isRecord(requestBody) || !isRecord(requestBody.content)) return undefined;
  const mediaTypes = Object.keys(requestBody.content);
  if (mediaTypes.length === 0) return undefined;
  const ranked = mediaTypes
    .map((mediaType, index) => ({ mediaType, index, ...rankBodyMediaType(mediaType) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index);
  const chosen = ranked[0]!;
  const media = requestBody.content[chosen.mediaType];
  const mediaObject = isRecord(media) ? media : {};
  const rawSchema = mediaObject.schema;
  const required = requestBody.required === true;
  const presence = readBodyPresence(requestBody);
  const { converter } = context;
  const body: BodyBindingNode = { mediaType: chosen.mediaType, required, mode: "value", kind: chosen.kind };
  if (mediaTypes.length > 1) body.alternatives = mediaTypes.filter((m) => m !== chosen.mediaType);
  const description = compactDescription(requestBody.description, converter.descriptionBudget);

  const objectShape =
    chosen.kind === "json" || chosen.kind === "form" || chosen.kind === "multipart"
      ? readBodyShape(converter, rawSchema)
      : undefined;

  // A closed object with no properties (Stripe's GETs declare such a form body, 213 of them):
  // the model has nothing to give, and an argument `body?: Record<string, never>` is only noise.
  // So is an optional object body that names no property on a GET or HEAD, where a body has no
  // meaning (RFC 9110 §9.3.1): Notion's converted GETs declare `{type: object, properties: {}}`.
  const readsOnly = context.method === "get" || context.method === "head";
  if (
    objectShape &&
    (objectShape.closed || readsOnly) &&
    !required &&
    Object.keys(objectShape.properties).length === 0
  )
    return undefined;
  if (objectShape && Object.keys(objectShape.properties).length > 0) {
    const discriminator = findDiscriminatorFill(converter, rawSchema);
    const apiKeyNames = listApiKeyNames(context.document);
    body.mode = "properties";
    body.properties = [];
    const encoding = planEncoding(mediaObject.encoding);
    if (encoding) body.encoding = encoding;
    for (const [name, propertySchema] of Object.entries(objectShape.properties)) {
      const resolved = converter.dereference(propertySchema);
      const property: BodyPropertyNode = {
        argument: name,
        name,
        shape: determineShape(converter, propertySchema),
      };
      const file = chosen.kind === "multipart" && isFileSchema(converter, resolved);
      let schema: JsonSchema;
      if (file) {
        property.file = true;
        schema = { ...FILE_ARGUMENT_SCHEMA };
        const description = isRecord(resolved)
          ? compactDescription(resolved.description, converter.descriptionBudget)
          : "";
        if (description !== "") schema.description = description;
      } else {
        schema = converter.convert(propertySchema, refs);
      }
      const readOnly = isReadOnlyProperty(propertySchema, (schema) => converter.dereference(schema));
      if (readOnly) continue; // readOnly properties are never sent in a request
      // An optional property named as an apiKey scheme is that credential offered in the body
      // too: the scheme sends it, and a secret never passes through the model.
      if (!objectShape.required.includes(name) && apiKeyNames.has(toLooseName(name))) continue;
      body.properties.push(property);
      // A required property with a default or one allowed value is the bridge's to send, and
      // so is the discriminator of a body that is one named subtype (discriminator-fill.ts).
      const fill =
        objectShape.required.includes(name) && !file && isRecord(resolved)
          ? (findFillValue(resolved as JsonSchema) ??
            (discriminator?.property === name && admitsString(resolved, discriminator.value)
              ? discriminator.value
              : undefined))
          : undefined;
      if (fill !== undefined) property.fill = fill;
      const requiredField = objectShape.required.includes(name) && fill === undefined;
      if (fill !== undefined && presence === "unsaid") body.required = true;
      candidates.push({
        location: "body",
        name,
        schema,
        required: requiredField && presence !== "optional",
        bodyField: requiredField && presence === "optional" ? "required-with-body" : "optional",
        assign: (argument) => {
          property.argument = argument;
        },
      });
    }
    if (!objectShape.closed && (objectShape.extra !== undefined || isSharedSchema(rawSchema)))
      planExtraArgument(body, objectShape.extra, converter, refs, candidates);
    return body;
  }

  body.argument = "body";
  let schema: JsonSchema;
  if (chosen.kind === "binary") {
    schema = {
      type: "string",
      contentEncoding: "base64",
      description: `The request body (${chosen.mediaType}) as base64.`,
    };
  } else if (chosen.kind === "text") {
    schema = rawSchema === undefined ? { type: "string" } : converter.convert(rawSchema, refs);
    if (schema.type === undefined && schema.$ref === undefined) schema.type = "string";
  } else {
    schema = rawSchema === undefined ? {} : converter.convert(rawSchema, refs);
  }
  if (description !== "" && typeof schema.description !== "string") schema.description = description;
  candidates.push({
    location: "body",
    name: "body",
    schema,
    required,
    assign: (argument) => {
      body.argument = argument;
    },
  });
  return body;
}

/** The argument of an object body's properties beyond those it lists. */
export const EXTRA_PROPERTIES_ARGUMENT = "extraProperties";

/**
 * The body allows properties it does not list (`additionalProperties` true, a schema, or left
 * unsaid on a shared schema, as Graph's schema extensions and open types need): they are one object argument whose entries are sent in the body beside the listed ones, checked
 * against the schema's `additionalProperties` when it gives one. A reserved argument rather
 * than unknown top-level arguments, so a misspelt argument is still refused with its closest
 * name.
 */
function planExtraArgument(
  body: BodyBindingNode,
  extra: unknown,
  converter: SchemaConverter,
  refs: Set<string>,
  candidates: Candidate[],
): void {
  body.extraArgument = EXTRA_PROPERTIES_ARGUMENT;
  // Left unsaid, the argument costs a few tokens only: its name says what it is.
  const schema: JsonSchema = { type: "object" };
  if (extra !== undefined) schema.description = "Other body properties, sent as given.";
  if (isRecord(extra)) schema.additionalProperties = converter.convert(extra, refs);
  candidates.push({
    location: "body",
    name: EXTRA_PROPERTIES_ARGUMENT,
    schema,
    required: false,
    bodyField: "optional",
    assign: (argument) => {
      body.extraArgument = argument;
    },
  });
}

/**
 * A body schema that is a shared component (`$ref`), the resource's own schema as OData and
 * CRUD APIs use it: its instances may carry properties it does not list (derived types, Graph's
 * schema extensions), so a body that leaves `additionalProperties` unsaid takes them. A schema
 * written inline for one operation lists what that operation reads (GitHub's 267 open inline
 * bodies, OData's action parameters): unsaid there is not an invitation, and the argument would
 * cost every such tool's listing tokens for nothing.
 */
function isSharedSchema(schema: unknown): boolean {
  return isRecord(schema) && typeof schema.$ref === "string";
}

/**
 * Whether the spec says the body may be left out: `required: true`, `required: false`, or
 * nothing. Nothing is read as "the body is needed when its schema requires fields": it is the
 * OpenAPI default, and specs leave it unsaid where the API rejects a call without the body
 * (Vercel's 39 bodies and Twilio's 456 all leave it unsaid; `createProject` needs `name`).
 * Only an explicit `required: false` makes the body truly optional.
 */
export function readBodyPresence(requestBody: Record<string, unknown>): "required" | "optional" | "unsaid" {
  if (requestBody.required === true) return "required";
  return requestBody.required === false ? "optional" : "unsaid";
}

function planEncoding(raw: unknown): Record<string, BodyEncodingNode> | undefined {
  if (!isRecord(raw)) return undefined;
  const result: Record<string, BodyEncodingNode> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!isRecord(value)) continue;
    const node: BodyEncodingNode = {};
    if (typeof value.contentType === "string") node.contentType = value.contentType;
    if (typeof value.style === "string" && PARAMETER_STYLES.has(value.style))
      node.style = value.style as ParameterStyle;
    if (typeof value.explode === "boolean") node.explode = value.explode;
    if (typeof value.allowReserved === "boolean") node.allowReserved = value.allowReserved;
    result[name] = node;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

type ObjectShape = NonNullable<ReturnType<typeof readObjectProperties>>;

/**
 * Each body schema's shape, kept per converter (one document) and per schema object: Microsoft
 * Graph beta's create and update operations send a few hundred entities, each by many
 * operations, and an entity's allOf chain merges hundreds of properties. The shape is a
 * function of the object in its document, and planBody only reads it.
 */
const shapesOf = new WeakMap<SchemaConverter, WeakMap<object, ObjectShape | null>>();

/** readObjectProperties of a body's schema, once per schema object. */
function readBodyShape(converter: SchemaConverter, schema: unknown): ObjectShape | undefined {
  const node = converter.dereference(schema);
  if (!isRecord(node)) return undefined;
  let shapes = shapesOf.get(converter);
  if (shapes === undefined) {
    shapes = new WeakMap();
    shapesOf.set(converter, shapes);
  }
  let shape = shapes.get(node);
  if (shape === undefined) {
    shape = readObjectProperties(converter, schema) ?? null;
    shapes.set(node, shape);
  }
  return shape ?? undefined;
}

/**
 * The properties of an object body: its own, plus those of `allOf` members. Undefined for
 * bodies that are not plainly one object (oneOf/anyOf at the top, arrays, primitives, maps).
 */
export function readObjectProperties(
  converter: SchemaConverter,
  schema: unknown,
  depth = 0,
): { properties: Record<string, unknown>; required: string[]; extra?: unknown; closed: boolean } | undefined {
  const node = converter.dereference(schema);
  if (!isRecord(node) || depth > 16) return undefined;
  if (node.oneOf !== undefined || node.anyOf !== undefined || node.not !== undefined) return undefined;
  const type = node.type;
  if (type !== undefined && type !== "object" && !(Array.isArray(type) && type.includes("object")))
    return undefined;
  // No prototype: a property named `__proto__` is an own key here like any other.
  const properties: Record<string, unknown> = Object.create(null);
  const required: string[] = [];
  // Properties beyond those listed: a schema (or `true`) the object or one of its allOf members
  // gives, else allowed as OpenAPI reads a schema that leaves it unsaid (Graph's, whose schema
  // extensions a body carries), unless one of them says `false`.
  let extra: unknown = explicitExtra(node.additionalProperties);
  let closed = node.additionalProperties === false;
  if (Array.isArray(node.allOf)) {
    for (const member of node.allOf) {
      const part = readObjectProperties(converter, member, depth + 1);
      if (!part) return undefined;
      Object.assign(properties, part.properties);
      required.push(...part.required);
      extra ??= part.extra;
      closed ||= part.closed;
    }
  }
  if (closed) extra = undefined;
  if (isRecord(node.properties)) Object.assign(properties, node.properties);
  if (Array.isArray(node.required))
    required.push(...node.required.filter((r): r is string => typeof r === "string"));
  if (type === undefined && !isRecord(node.properties) && !Array.isArray(node.allOf)) return undefined;
  if (depth === 0 && node.additionalProperties !== false) {
    // A required property the schema does not describe must still be sendable: any value.
    for (const name of required) if (!(name in properties)) properties[name] = {};
  }
  const shape = { properties, required: [...new Set(required)], closed };
  return extra === undefined ? shape : { ...shape, extra };
}

/** `additionalProperties` that says yes: true, or a schema other than `{}`-like nothing. */
function explicitExtra(value: unknown): unknown {
  if (value === true) return true;
  return isRecord(value) ? value : undefined;
}

function isFileSchema(converter: SchemaConverter, schema: unknown): boolean {
  const node = converter.dereference(schema);
  if (!isRecord(node)) return false;
  if (node.type === "file") return true;
  const isString = node.type === "string" || node.type === undefined;
  return (
    isString &&
    (node.format === "binary" ||
      typeof node.contentMediaType === "string" ||
      (node.contentEncoding !== undefined && node.format !== "byte" && node.type === undefined))
  );
}

/** Whether a property's schema admits the string `value` (a discriminator's), by type and enum. */
function admitsString(schema: Record<string, unknown>, value: string): boolean {
  const type = schema.type;
  if (type !== undefined && type !== "string" && !(Array.isArray(type) && type.includes("string")))
    return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  return schema.const === undefined || schema.const === value;
}
