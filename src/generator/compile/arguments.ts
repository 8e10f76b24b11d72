/**
 * The argument contract of one operation: every path, query, header and cookie parameter is a
 * top-level argument under its own name (style and explode resolved here, once); the body's
 * arguments come from request-body.ts, and clashing names are settled by argument-names.ts.
 * The input schema is the object of all of them, with the `$defs` they reach.
 */

import { isRecord } from "../../model/records.js";
import type {
  BodyBindingNode,
  JsonSchema,
  JsonValue,
  ParameterBindingNode,
  ParameterLocation,
  ParameterStyle,
  ValueShape,
} from "../../model/types.js";
import { keyApiWideParameter } from "./api-wide-parameters.js";
import { assignArgumentNames, type Candidate, orderCandidates } from "./argument-names.js";
import { type OperationContext, PARAMETER_STYLES, resolveRefObject, warn } from "./context.js";
import { classifyCredentialParameter, readCredentialFacts } from "./credential-parameters.js";
import { findConstantValue } from "./fixed-parameters.js";
import { pickExamples, type SchemaConverter } from "./json-schema.js";
import { listApiWideParameters } from "./parameter-survey.js";
import { planBody } from "./request-body.js";
import { compactDescription, restatesName } from "./text.js";
import { determineShape } from "./value-shape.js";

export interface PlannedArguments {
  /**
   * The arguments' object with the `$defs` they reach, before shareRepeatedSchemas (the caller
   * shares it: now, or on first use in discovery and code mode; see lazy-fields.ts).
   */
  inputSchema: JsonSchema;
  parameters: ParameterBindingNode[];
  body?: BodyBindingNode;
  /**
   * An `Authorization` header parameter, which OpenAPI says to ignore as an argument (the
   * planner may make it a credential instead); the operation's own wins over the path item's.
   */
  authorizationHeader?: { required: boolean };
  /** Header parameters whose spec says `x-mcp-header` (mcp-headers.ts decides whether to mirror them). */
  declaredMcpHeaders: DeclaredMcpHeader[];
}

/** A header parameter's own `x-mcp-header` (its value as written, and where). */
export interface DeclaredMcpHeader {
  header: string;
  value: unknown;
  pointer: string;
}

const LOCATIONS = new Set<string>(["path", "query", "header", "cookie"]);
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
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

export function planArguments(context: OperationContext): PlannedArguments {
  const { converter } = context;
  const refs = new Set<string>();
  const candidates: Candidate[] = [];
  const parameters: ParameterBindingNode[] = [];
  const declaredMcpHeaders: DeclaredMcpHeader[] = [];

  const collected = collectParameters(context);
  for (const { parameter, pointer } of collected.parameters) {
    const location = parameter.in as ParameterLocation;
    const name = parameter.name as string;
    if (location === "header" && Object.hasOwn(parameter, "x-mcp-header")) {
      declaredMcpHeaders.push({
        header: name,
        value: parameter["x-mcp-header"],
        pointer: `${pointer}/x-mcp-header`,
      });
    }
    const contentEntry = isRecord(parameter.content) ? Object.entries(parameter.content)[0] : undefined;
    const rawSchema = contentEntry
      ? isRecord(contentEntry[1])
        ? contentEntry[1].schema
        : undefined
      : parameter.schema;
    const schema = converter.convert(rawSchema ?? { type: "string" }, refs);
    annotateParameterSchema(schema, parameter, converter);
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
    else if (binding.required) requireDefinedValue(schema, binding.shape);
    parameters.push(binding);
    const constant = contentEntry ? undefined : findConstantValue(schema, binding.required);
    if (constant !== undefined) {
      binding.constant = constant; // sent by the bridge: no argument
      continue;
    }
    // A required parameter with a default is the bridge's to send when the call leaves it out
    // (not a path one: a default id would silently name one resource).
    const fill =
      contentEntry || location === "path" || !binding.required || !Object.hasOwn(schema, "default")
        ? undefined
        : schema.default;
    if (fill !== undefined) binding.fill = fill;
    const credential = classifyCredentialParameter(readCredentialFacts(parameter, location, schema));
    if (credential !== undefined) binding.credential = credential;
    if (!binding.required && listApiWideParameters(context.document).has(keyApiWideParameter(location, name)))
      binding.apiWide = true;
    candidates.push({
      location,
      name,
      schema,
      required: binding.required && fill === undefined,
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
  const dependent = planDependentRequired(candidates);
  if (dependent) inputSchema.dependentRequired = dependent;
  inputSchema.additionalProperties = false;
  const defs = converter.collectDefs(refs);
  if (Object.keys(defs).length > 0) inputSchema.$defs = defs;
  const planned: PlannedArguments = {
    inputSchema,
    parameters,
    declaredMcpHeaders,
  };
  if (body) planned.body = body;
  if (collected.authorizationHeader) planned.authorizationHeader = collected.authorizationHeader;
  return planned;
}

/**
 * An optional body (`required: false`) whose schema requires fields: the call may leave the
 * body out, but once it gives any body property it must give the required ones, which is what
 * `dependentRequired` says; their descriptions say it too, for clients that drop the keyword.
 */
function planDependentRequired(candidates: Candidate[]): Record<string, JsonValue> | undefined {
  const fields = candidates.filter((c) => c.bodyField !== undefined);
  const needed = fields.filter((c) => c.bodyField === "required-with-body");
  if (needed.length === 0) return undefined;
  const dependent: Record<string, JsonValue> = {};
  for (const field of fields) {
    const argument = field.argument ?? field.name;
    const others = needed.map((c) => c.argument ?? c.name).filter((name) => name !== argument);
    if (others.length > 0) dependent[argument] = others;
  }
  if (Object.keys(dependent).length === 0) return undefined;
  for (const field of needed) {
    const own = typeof field.schema.description === "string" ? `${field.schema.description} ` : "";
    field.schema.description = `${own}${REQUIRED_WITH_BODY}`;
  }
  return dependent;
}

/** Said on each required field of an optional body. */
export const REQUIRED_WITH_BODY = "Required when any body field is given.";

/**
 * A required parameter needs a value RFC 6570 calls defined: `null`, `[]` and `{}` are
 * "undefined", which the runtime leaves out of a query, header or cookie and cannot put in a
 * path. The schema says so (at least one item, at least one property, no null), so that a call
 * the schema accepts is one the bridge sends with the parameter in it.
 */
function requireDefinedValue(schema: JsonSchema, shape: ValueShape): void {
  if (shape === "array" && !(typeof schema.minItems === "number" && schema.minItems >= 1))
    schema.minItems = 1;
  if (shape === "object" && !(typeof schema.minProperties === "number" && schema.minProperties >= 1))
    schema.minProperties = 1;
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((type) => type !== "null");
    schema.type = types.length === 1 ? types[0]! : types;
    if (Array.isArray(schema.enum)) schema.enum = schema.enum.filter((value) => value !== null);
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf.filter(
      (branch) => !(isRecord(branch) && branch.type === "null" && Object.keys(branch).length === 1),
    );
    if (branches.length > 0) schema.anyOf = branches;
  }
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
      // An empty name (Notion's converted spec has a header named "") can be sent nowhere.
      if (
        !isRecord(parameter) ||
        typeof parameter.name !== "string" ||
        parameter.name.trim() === "" ||
        typeof parameter.in !== "string"
      ) {
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
        );
        return;
      }
      if (parameter.in === "header" && TRANSPORT_HEADERS.has(parameter.name.toLowerCase())) {
        warn(
          context,
          "OMB_PARAMETER_IGNORED",
          `header parameter "${parameter.name}" is ignored: the HTTP client sets it from the request it sends`,
          pointer,
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
  if (typeof parameter.style === "string" && PARAMETER_STYLES.has(parameter.style))
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
  converter: Pick<SchemaConverter, "descriptionBudget" | "repeatedTexts">,
): void {
  const repeated =
    typeof parameter.description === "string" && converter.repeatedTexts.has(parameter.description);
  const description = compactDescription(parameter.description, converter.descriptionBudget, !repeated);
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
