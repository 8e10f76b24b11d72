/**
 * The argument contract: every parameter is a top-level argument; an object body (JSON or
 * form) has its properties merged at the top level, any other body is one argument `body`.
 * On a name clash the precedence is path > query > header > cookie > body; the first keeps
 * the plain name and the others get `__query`, `__header`, `__cookie`, `__body`. A name that
 * plain JavaScript objects treat specially (`__proto__`, `constructor`, `toString`...: see
 * SPECIAL_NAMES) always gets its location suffix (`__proto____body`), and is still sent under
 * its own name.
 */
import { createDiagnostic } from "../model/diagnostics.js";
import { isRecord } from "../model/records.js";
import type {
  BodyBindingNode,
  BodyEncodingNode,
  BodyKind,
  BodyPropertyNode,
  JsonSchema,
  JsonValue,
  ParameterBindingNode,
  ParameterLocation,
  ParameterStyle,
  ValueShape,
} from "../model/types.js";
import type { OperationContext } from "./plan.js";
import { resolveRefObject } from "./plan.js";
import { pickExamples, type SchemaConverter } from "./schema.js";
import { compactDescription, restatesName } from "./text.js";

export interface PlannedArguments {
  inputSchema: JsonSchema;
  parameters: ParameterBindingNode[];
  body?: BodyBindingNode;
  /**
   * An `Authorization` header parameter, which OpenAPI says to ignore as an argument (the
   * planner may make it a credential instead); the operation's own wins over the path item's.
   */
  authorizationHeader?: { required: boolean };
}

type Location = ParameterLocation | "body";
const PRECEDENCE: Location[] = ["path", "query", "header", "cookie", "body"];
const LOCATIONS = new Set<string>(["path", "query", "header", "cookie"]);
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
/**
 * Names an argument cannot have: `__proto__` (assigning it sets a prototype instead of a
 * property, so the argument was lost), `prototype`, and every member of `Object.prototype`,
 * which a plain arguments object seems to hold already (a validator reading `args.constructor`
 * finds a function, so the tool refused every call). Such a parameter or body property is
 * the argument `<name>__<location>`; its binding keeps the wire name.
 */
const SPECIAL_NAMES = new Set([
  "__proto__",
  "prototype",
  "constructor",
  "toString",
  "toLocaleString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);
/**
 * Headers that frame or route the message (RFC 9110 §7.2, §7.6.1; RFC 9112 §6): the HTTP
 * client sets them from the request it sends, so an argument must not (a spec's Content-Length
 * parameter sent as given made the request unsendable).
 */
const TRANSPORT_HEADERS = new Set([
  "content-length",
  "transfer-encoding",
  "host",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-connection",
]);
const STYLES = new Set<string>([
  "simple",
  "label",
  "matrix",
  "form",
  "spaceDelimited",
  "pipeDelimited",
  "tabDelimited",
  "deepObject",
]);

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

interface Candidate {
  location: Location;
  name: string;
  schema: JsonSchema;
  required: boolean;
  /** Writes the final argument name into the binding this candidate came from. */
  assign: (argument: string) => void;
  /** The final argument name, once assigned. */
  argument?: string;
}

export function planArguments(context: OperationContext): PlannedArguments {
  const { converter } = context;
  const refs = new Set<string>();
  const candidates: Candidate[] = [];
  const parameters: ParameterBindingNode[] = [];

  const collected = collectParameters(context);
  for (const { parameter, pointer } of collected.parameters) {
    const location = parameter.in as ParameterLocation;
    const name = parameter.name as string;
    const contentEntry = isRecord(parameter.content) ? Object.entries(parameter.content)[0] : undefined;
    const rawSchema = contentEntry
      ? isRecord(contentEntry[1])
        ? contentEntry[1].schema
        : undefined
      : parameter.schema;
    const schema = converter.convert(rawSchema ?? { type: "string" }, refs);
    annotateParameterSchema(schema, parameter, converter.descriptionBudget);
    const style = chooseStyle(parameter, location, context, pointer);
    const binding: ParameterBindingNode = {
      argument: name,
      name,
      in: location,
      required: location === "path" ? true : parameter.required === true,
      style,
      explode: typeof parameter.explode === "boolean" ? parameter.explode : style === "form",
      allowReserved: parameter.allowReserved === true,
      shape: determineShape(converter, rawSchema),
    };
    if (contentEntry) binding.contentType = contentEntry[0];
    parameters.push(binding);
    candidates.push({
      location,
      name,
      schema,
      required: binding.required,
      assign: (argument) => {
        binding.argument = argument;
      },
    });
  }

  addUndeclaredPathParameters(context, parameters, candidates);
  const body = planBody(context, refs, candidates);
  assignArgumentNames(candidates);

  const properties: Record<string, JsonValue> = {};
  const required: string[] = [];
  for (const candidate of orderCandidates(candidates)) {
    const argument = candidate.argument ?? candidate.name;
    properties[argument] = candidate.schema;
    if (candidate.required) required.push(argument);
  }
  const inputSchema: JsonSchema = { type: "object", properties };
  if (required.length > 0) inputSchema.required = required;
  inputSchema.additionalProperties = false;
  const defs = converter.collectDefs(refs);
  if (Object.keys(defs).length > 0) inputSchema.$defs = defs;
  const planned: PlannedArguments = { inputSchema, parameters };
  if (body) planned.body = body;
  if (collected.authorizationHeader) planned.authorizationHeader = collected.authorizationHeader;
  return planned;
}

/** Path-level parameters, overridden by operation-level ones with the same name and location. */
function collectParameters(context: OperationContext): {
  parameters: { parameter: Record<string, unknown>; pointer: string }[];
  authorizationHeader?: { required: boolean };
} {
  const byKey = new Map<string, { parameter: Record<string, unknown>; pointer: string }>();
  let authorizationHeader: { required: boolean } | undefined;
  const lists: [unknown, string][] = [
    [context.pathItem.parameters, context.pointer.replace(/\/[^/]+$/, "/parameters")],
    [context.operation.parameters, `${context.pointer}/parameters`],
  ];
  for (const [list, base] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, index) => {
      const pointer = `${base}/${index}`;
      const parameter = resolveRefObject(context.document, raw);
      if (!isRecord(parameter) || typeof parameter.name !== "string" || typeof parameter.in !== "string") {
        warn(context, "OMB_PARAMETER_INVALID", "parameter has no name or location and is ignored", pointer);
        return;
      }
      if (!LOCATIONS.has(parameter.in)) {
        warn(
          context,
          "OMB_PARAMETER_LOCATION",
          `parameter "${parameter.name}" is in "${parameter.in}", which OpenAPI 3 does not define; it is ignored`,
          pointer,
        );
        return;
      }
      if (parameter.in === "header" && IGNORED_HEADERS.has(parameter.name.toLowerCase())) {
        if (parameter.name.toLowerCase() === "authorization")
          authorizationHeader = { required: parameter.required === true };
        warn(
          context,
          "OMB_PARAMETER_IGNORED",
          `header parameter "${parameter.name}" is ignored as OpenAPI requires; the bridge sets it itself`,
          pointer,
          "info",
        );
        return;
      }
      if (parameter.in === "header" && TRANSPORT_HEADERS.has(parameter.name.toLowerCase())) {
        warn(
          context,
          "OMB_PARAMETER_IGNORED",
          `header parameter "${parameter.name}" is ignored: the HTTP client sets it from the request it sends`,
          pointer,
          "info",
        );
        return;
      }
      byKey.set(`${parameter.in}:${parameter.name}`, { parameter, pointer });
    });
  }
  const parameters = [...byKey.values()];
  return authorizationHeader ? { parameters, authorizationHeader } : { parameters };
}

function chooseStyle(
  parameter: Record<string, unknown>,
  location: ParameterLocation,
  context: OperationContext,
  pointer: string,
): ParameterStyle {
  const fallback: ParameterStyle = location === "query" || location === "cookie" ? "form" : "simple";
  if (parameter.style === undefined) return fallback;
  if (typeof parameter.style === "string" && STYLES.has(parameter.style))
    return parameter.style as ParameterStyle;
  warn(
    context,
    "OMB_PARAMETER_STYLE",
    `parameter "${String(parameter.name)}" has unknown style "${String(parameter.style)}"; using "${fallback}"`,
    pointer,
  );
  return fallback;
}

function annotateParameterSchema(
  schema: JsonSchema,
  parameter: Record<string, unknown>,
  budget: number,
): void {
  const description = compactDescription(parameter.description, budget);
  if (description !== "" && !restatesName(String(parameter.name), description))
    schema.description = description;
  if (parameter.deprecated === true) schema.deprecated = true;
  const candidates: unknown[] = [];
  if (parameter.example !== undefined) candidates.push(parameter.example);
  if (isRecord(parameter.examples)) {
    for (const example of Object.values(parameter.examples)) {
      if (isRecord(example) && example.value !== undefined) candidates.push(example.value);
    }
  }
  const examples = pickExamples(candidates);
  if (examples.length > 0) schema.examples = examples;
}

/** A `{name}` in the path with no parameter is still a required string argument. */
function addUndeclaredPathParameters(
  context: OperationContext,
  parameters: ParameterBindingNode[],
  candidates: Candidate[],
): void {
  for (const match of context.path.matchAll(/\{([^}]+)\}/g)) {
    const name = match[1]!;
    if (parameters.some((p) => p.in === "path" && p.name === name)) continue;
    warn(
      context,
      "OMB_PATH_PARAMETER_UNDECLARED",
      `path template variable "{${name}}" has no parameter; it becomes a required string argument`,
      context.pointer,
    );
    const binding: ParameterBindingNode = {
      argument: name,
      name,
      in: "path",
      required: true,
      style: "simple",
      explode: false,
      allowReserved: false,
      shape: "primitive",
    };
    parameters.push(binding);
    candidates.push({
      location: "path",
      name,
      schema: { type: "string" },
      required: true,
      assign: (argument) => {
        binding.argument = argument;
      },
    });
  }
}

/** Media types we can send, best first (JSON, form, multipart, text, binary). */
function rankBodyMediaType(mediaType: string): { rank: number; kind: BodyKind } {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  if (base === "application/json") return { rank: 0, kind: "json" };
  if (base.endsWith("+json") || base === "text/json") return { rank: 1, kind: "json" };
  if (base === "application/x-www-form-urlencoded") return { rank: 2, kind: "form" };
  if (base === "multipart/form-data" || base === "multipart/mixed") return { rank: 3, kind: "multipart" };
  if (base.startsWith("text/") || base === "application/xml" || base.endsWith("+xml")) {
    return { rank: 4, kind: "text" };
  }
  if (base === "*/*" || base === "application/*") return { rank: 5, kind: "json" };
  return { rank: 6, kind: "binary" };
}

function planBody(
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
  const { converter } = context;
  const body: BodyBindingNode = { mediaType: chosen.mediaType, required, mode: "value", kind: chosen.kind };
  if (mediaTypes.length > 1) body.alternatives = mediaTypes.filter((m) => m !== chosen.mediaType);
  const description = compactDescription(requestBody.description, converter.descriptionBudget);

  const objectShape =
    chosen.kind === "json" || chosen.kind === "form" || chosen.kind === "multipart"
      ? readObjectProperties(converter, rawSchema)
      : undefined;

  if (objectShape && Object.keys(objectShape.properties).length > 0) {
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
      const readOnly = isRecord(resolved) && resolved.readOnly === true;
      if (readOnly) continue; // readOnly properties are never sent in a request
      body.properties.push(property);
      candidates.push({
        location: "body",
        name,
        schema,
        required: required && objectShape.required.includes(name),
        assign: (argument) => {
          property.argument = argument;
        },
      });
    }
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

function planEncoding(raw: unknown): Record<string, BodyEncodingNode> | undefined {
  if (!isRecord(raw)) return undefined;
  const result: Record<string, BodyEncodingNode> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!isRecord(value)) continue;
    const node: BodyEncodingNode = {};
    if (typeof value.contentType === "string") node.contentType = value.contentType;
    if (typeof value.style === "string" && STYLES.has(value.style))
      node.style = value.style as ParameterStyle;
    if (typeof value.explode === "boolean") node.explode = value.explode;
    if (typeof value.allowReserved === "boolean") node.allowReserved = value.allowReserved;
    result[name] = node;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * The properties of an object body: its own, plus those of `allOf` members. Undefined for
 * bodies that are not plainly one object (oneOf/anyOf at the top, arrays, primitives, maps).
 */
export function readObjectProperties(
  converter: SchemaConverter,
  schema: unknown,
  depth = 0,
): { properties: Record<string, unknown>; required: string[] } | undefined {
  const node = converter.dereference(schema);
  if (!isRecord(node) || depth > 16) return undefined;
  if (node.oneOf !== undefined || node.anyOf !== undefined || node.not !== undefined) return undefined;
  const type = node.type;
  if (type !== undefined && type !== "object" && !(Array.isArray(type) && type.includes("object")))
    return undefined;
  // No prototype: a property named `__proto__` is an own key here like any other.
  const properties: Record<string, unknown> = Object.create(null);
  const required: string[] = [];
  if (Array.isArray(node.allOf)) {
    for (const member of node.allOf) {
      const part = readObjectProperties(converter, member, depth + 1);
      if (!part) return undefined;
      Object.assign(properties, part.properties);
      required.push(...part.required);
    }
  }
  if (isRecord(node.properties)) Object.assign(properties, node.properties);
  if (Array.isArray(node.required))
    required.push(...node.required.filter((r): r is string => typeof r === "string"));
  if (type === undefined && !isRecord(node.properties) && !Array.isArray(node.allOf)) return undefined;
  if (depth === 0 && node.additionalProperties !== false) {
    // A required property the schema does not describe must still be sendable: any value.
    for (const name of required) if (!(name in properties)) properties[name] = {};
  }
  return { properties, required: [...new Set(required)] };
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

/** primitive, array or object, read through refs, allOf and type lists. */
export function determineShape(converter: SchemaConverter, schema: unknown, depth = 0): ValueShape {
  const node = converter.dereference(schema);
  if (!isRecord(node) || depth > 8) return "primitive";
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("array")) return "array";
  if (types.includes("object")) return "object";
  if (node.type === undefined) {
    if (node.items !== undefined) return "array";
    if (node.properties !== undefined || node.additionalProperties !== undefined) return "object";
    for (const key of ["allOf", "oneOf", "anyOf"]) {
      const list = node[key];
      if (Array.isArray(list) && list.length > 0) return determineShape(converter, list[0], depth + 1);
    }
  }
  return "primitive";
}

function assignArgumentNames(candidates: Candidate[]): void {
  const byName = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const list = byName.get(candidate.name) ?? [];
    list.push(candidate);
    byName.set(candidate.name, list);
  }
  const taken = new Set<string>();
  const setArgument = (candidate: Candidate, argument: string) => {
    candidate.argument = argument;
    candidate.assign(argument);
    taken.add(argument);
  };
  // The winner of each clash (by location precedence) keeps the plain name, unless it is special.
  for (const [name, list] of byName) {
    if (!SPECIAL_NAMES.has(name)) setArgument(orderCandidates(list)[0]!, name);
  }
  for (const candidate of orderCandidates(candidates)) {
    if (candidate.argument !== undefined) continue;
    let argument = `${candidate.name}__${candidate.location}`;
    for (let i = 2; taken.has(argument); i++) argument = `${candidate.name}__${candidate.location}${i}`;
    setArgument(candidate, argument);
  }
}

function orderCandidates(candidates: Candidate[]): Candidate[] {
  return [...candidates].sort((a, b) => PRECEDENCE.indexOf(a.location) - PRECEDENCE.indexOf(b.location));
}

function warn(
  context: OperationContext,
  code: string,
  message: string,
  pointer: string,
  severity: "warning" | "info" = "warning",
): void {
  context.diagnostics.push(createDiagnostic(code, message, { severity, file: context.source, pointer }));
}
