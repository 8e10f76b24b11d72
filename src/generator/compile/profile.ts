/**
 * Client profiles: what one MCP client needs beyond the protocol, applied to a planned model.
 *
 * - `mcp` (default): the model as planned.
 * - `claude`: Claude Code calls a tool `mcp__<server>__<tool>` and that must fit 64 characters,
 *   so tool names get at most `57 - server.length` characters.
 * - `cursor`: Cursor filters out tools whose server name plus tool name exceed 60 characters
 *   (its warning "Combined server and tool name length ... exceeds 60 characters"); tool names
 *   get at most `59 - server.length` (one character kept for a separator). Cursor also offers
 *   its agent only about 40 tools, so more is a warning.
 * - `openai`: OpenAI function names are 64 characters at most (already true), one request takes
 *   at most 128 tools (a warning beyond), and input schemas follow strict mode (structured
 *   outputs, "Supported schemas"): every object `additionalProperties: false` with every property
 *   in `required`, optional ones made nullable and listed under OPTIONAL_PROPERTIES_KEYWORD, and
 *   only the keywords strict mode supports.
 *
 * Shortened names stay deterministic and unique: `fitNames` keeps the first and last words and
 * those that tell long names apart, with a hash of the full name, and collisions get a hash of
 * the route, as in planning.
 */
import { createDiagnostic } from "../../model/diagnostics.js";
import { followLocalRef } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import {
  type BridgeModel,
  type Diagnostic,
  type JsonSchema,
  type JsonValue,
  OPTIONAL_PROPERTIES_KEYWORD,
  type ToolNode,
} from "../../model/types.js";
import { fitNames, MAX_TOOL_NAME_LENGTH, resolveNameCollisions, sanitizeName } from "./naming.js";

/**
 * The tool without its body's extra-properties argument (request-body.ts): a free-form object,
 * which strict mode can only send empty, so it would be noise (and a warning per tool).
 */
function withoutExtraProperties(tool: ToolNode): ToolNode {
  const argument = tool.http.body?.extraArgument;
  if (argument === undefined || tool.http.body === undefined) return tool;
  const inputSchema: JsonSchema = { ...tool.inputSchema };
  if (isRecord(inputSchema.properties)) {
    const { [argument]: _gone, ...rest } = inputSchema.properties;
    inputSchema.properties = rest;
  }
  const dependent = inputSchema.dependentRequired;
  if (isRecord(dependent)) {
    const kept: Record<string, JsonValue> = {};
    for (const [name, needs] of Object.entries(dependent)) {
      if (name === argument || !Array.isArray(needs)) continue;
      kept[name] = needs.filter((need) => need !== argument);
    }
    if (Object.keys(kept).length > 0) inputSchema.dependentRequired = kept;
    else delete inputSchema.dependentRequired;
  }
  const { extraArgument: _dropped, ...body } = tool.http.body;
  return { ...tool, inputSchema, http: { ...tool.http, body } };
}

/** The client profiles, in the order help text lists them: the one list (the type is made from it). */
export const CLIENT_PROFILES = ["mcp", "claude", "openai", "cursor"] as const;
export type ClientProfile = (typeof CLIENT_PROFILES)[number];
/** The profile when none is given: the model as planned. */
export const DEFAULT_CLIENT_PROFILE: ClientProfile = "mcp";

export interface ProfileOptions {
  /** Default `mcp`: the model as planned. */
  profile?: ClientProfile;
  /**
   * The name the client knows the server by (the key in its configuration), counted against
   * the `claude` and `cursor` name limits. Default: from the spec's title (deriveServerName).
   */
  serverName?: string;
}

/** Tools a client handles well, beyond which a warning is given. */
const TOOL_COUNT_LIMITS: Partial<Record<ClientProfile, { limit: number; why: string }>> = {
  openai: { limit: 128, why: "OpenAI's API accepts at most 128 tools in one request" },
  cursor: { limit: 40, why: "Cursor offers its agent about 40 tools at most" },
};
/** The most tools `profile`'s client handles well, or undefined when it names no limit. */
export function toolCountLimit(profile: ClientProfile): { limit: number; why: string } | undefined {
  return TOOL_COUNT_LIMITS[profile];
}
/** Shortest tool-name budget a profile leaves: room for some text and the 8-character hash. */
const MIN_NAME_LENGTH = 20;
const SERVER_NAME_LENGTH = 16;

/** Strict mode's documented keywords (OpenAI structured outputs, "Supported schemas"). */
const STRICT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "enum",
  "const",
  "description",
  "title",
  "$ref",
  "$defs",
  "pattern",
  "format",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "maxItems",
]);
/** The string formats strict mode accepts; any other is refused ("'uri' is not a valid format"). */
const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

/** `Swagger Petstore - OpenAPI 3.0` → `swagger-petstore`: lower-case, at most 16 characters. */
export function deriveServerName(title: string): string {
  const base = sanitizeName(title.toLowerCase()).replace(/_/g, "-").replace(/-{2,}/g, "-");
  const cut = base.slice(0, SERVER_NAME_LENGTH).replace(/[-_]+$/, "");
  return cut === "" ? "api" : cut;
}

/** The longest tool name a profile allows for a server name, or undefined for no extra limit. */
export function toolNameLimit(profile: ClientProfile, serverName: string): number | undefined {
  if (profile === "claude") return MAX_TOOL_NAME_LENGTH - "mcp__".length - "__".length - serverName.length;
  if (profile === "cursor") return 60 - 1 - serverName.length;
  return undefined;
}

/**
 * The model as the profile's client needs it (a new object; the input is not changed). The
 * `mcp` profile returns the model itself.
 */
export function applyProfile(model: BridgeModel, options: ProfileOptions = {}): BridgeModel {
  const profile = options.profile ?? DEFAULT_CLIENT_PROFILE;
  if (profile === DEFAULT_CLIENT_PROFILE) return model;
  const diagnostics = [...model.diagnostics];
  const source = model.info.source;
  let tools = model.tools;
  const serverName = options.serverName ?? deriveServerName(model.info.title);
  let limit = toolNameLimit(profile, serverName);
  if (limit !== undefined && limit < MIN_NAME_LENGTH) {
    diagnostics.push(
      createDiagnostic(
        "OMB_PROFILE_SERVER_NAME",
        `server name "${serverName}" leaves ${limit} characters for tool names under the ${profile} profile; names are cut to ${MIN_NAME_LENGTH} and may not fit`,
        { hint: "give a shorter --server-name" },
      ),
    );
    limit = MIN_NAME_LENGTH;
  }
  if (limit !== undefined && limit < MAX_TOOL_NAME_LENGTH) {
    tools = shortenNames(tools, limit, { profile, serverName, source, diagnostics });
  }
  if (profile === "openai") {
    tools = tools.map((original) => {
      const tool = withoutExtraProperties(original);
      const { schema, freeForm } = toStrictSchema(tool.inputSchema);
      for (const where of freeForm) {
        diagnostics.push(
          createDiagnostic(
            "OMB_PROFILE_FREE_FORM",
            `${tool.name}: ${where} is a free-form object, which OpenAI strict mode cannot describe; it can only be sent empty`,
            {
              ...(source !== undefined ? { file: source } : {}),
              pointer: tool.source.pointer,
            },
          ),
        );
      }
      return { ...tool, inputSchema: schema };
    });
  }
  const count = TOOL_COUNT_LIMITS[profile];
  if (count && tools.length > count.limit) {
    diagnostics.push(
      createDiagnostic(
        "OMB_PROFILE_TOOL_COUNT",
        `${tools.length} tools: more than ${count.limit}, and ${count.why}`,
        {
          hint: "auto serves discovery past it; or serve fewer tools (--include-tags, --include-tools, --methods, --read-only) or hide some with x-mcp",
        },
      ),
    );
  }
  return {
    ...model,
    tools,
    diagnostics,
    ...(count ? { clientToolLimit: { profile, count: count.limit, why: count.why } } : {}),
  };
}

function shortenNames(
  tools: ToolNode[],
  limit: number,
  context: {
    profile: ClientProfile;
    serverName: string;
    source?: string | undefined;
    diagnostics: Diagnostic[];
  },
): ToolNode[] {
  const fitted = fitNames(
    tools.map((tool) => tool.name),
    limit,
  );
  const entries = tools.map((tool, index) => {
    const name = fitted[index]!;
    return {
      name,
      route: `${tool.http.method.toUpperCase()} ${tool.http.path}`,
      origin: name === tool.name ? ("operationId" as const) : ("cleaned" as const),
    };
  });
  const names = resolveNameCollisions(entries, limit);
  return tools.map((tool, index) => {
    const name = names[index]!;
    if (name === tool.name) return tool;
    context.diagnostics.push(
      createDiagnostic(
        "OMB_PROFILE_NAME",
        `tool "${tool.name}" is named "${name}": the ${context.profile} profile allows ${limit} characters with server name "${context.serverName}"`,
        {
          ...(context.source !== undefined ? { file: context.source } : {}),
          pointer: tool.source.pointer,
        },
      ),
    );
    return { ...tool, name };
  });
}

// ---------------------------------------------------------------------------------------------
// OpenAI strict mode

interface StrictContext {
  root: Record<string, unknown>;
  freeForm: string[];
}

/**
 * An input schema in OpenAI's strict-mode subset: `oneOf` becomes `anyOf`, `allOf` is merged,
 * every object closed with all properties required (optional ones nullable and listed under
 * OPTIONAL_PROPERTIES_KEYWORD), a `$ref` with siblings is wrapped in `anyOf`, and keywords and
 * formats strict mode does not support are left out. `freeForm` lists the places of objects
 * without properties (strict mode cannot describe maps).
 */
export function toStrictSchema(schema: JsonSchema): { schema: JsonSchema; freeForm: string[] } {
  const context: StrictContext = { root: schema, freeForm: [] };
  const result = strictNode(schema, context, "(arguments)", 0) as JsonSchema;
  return { schema: result, freeForm: context.freeForm };
}

function strictNode(value: unknown, context: StrictContext, where: string, depth: number): JsonValue {
  if (!isRecord(value) || depth > 64) return (value ?? {}) as JsonValue;
  let node: Record<string, unknown> = { ...value };
  if (Array.isArray(node.oneOf)) {
    if (!Array.isArray(node.anyOf)) node.anyOf = node.oneOf;
    delete node.oneOf;
  }
  if (Array.isArray(node.allOf)) node = mergeAllOf(node, context.root, 0);

  const out: Record<string, JsonValue> = {};
  for (const [key, field] of Object.entries(node)) {
    if (!STRICT_KEYWORDS.has(key)) continue;
    switch (key) {
      case "format":
        if (typeof field === "string" && STRICT_FORMATS.has(field)) out.format = field;
        break;
      case "properties":
        if (isRecord(field)) {
          const properties: Record<string, JsonValue> = {};
          for (const [name, sub] of Object.entries(field)) {
            properties[name] = strictNode(sub, context, joinWhere(where, name), depth + 1);
          }
          out.properties = properties;
        }
        break;
      case "$defs":
        if (isRecord(field)) {
          const defs: Record<string, JsonValue> = {};
          for (const [name, sub] of Object.entries(field)) {
            defs[name] = strictNode(sub, context, `$defs/${name}`, depth + 1);
          }
          out.$defs = defs;
        }
        break;
      case "items":
        if (isRecord(field)) out.items = strictNode(field, context, `${where}[]`, depth + 1);
        break;
      case "anyOf":
        if (Array.isArray(field)) out.anyOf = field.map((sub) => strictNode(sub, context, where, depth + 1));
        break;
      case "additionalProperties":
        break; // decided below
      default:
        out[key] = field as JsonValue;
    }
  }

  const type = out.type;
  const isObject =
    type === "object" || (Array.isArray(type) && type.includes("object")) || out.properties !== undefined;
  if (isObject) {
    const properties = (isRecord(out.properties) ? out.properties : {}) as Record<string, JsonValue>;
    const names = Object.keys(properties);
    if (names.length === 0 && node.additionalProperties !== false) context.freeForm.push(where);
    const required = new Set(
      Array.isArray(out.required) ? out.required.filter((r) => typeof r === "string") : [],
    );
    const optional = names.filter((name) => !required.has(name));
    for (const name of optional) properties[name] = makeNullable(properties[name]!);
    // A schema made strict before (a saved model served with the profile again) keeps its list.
    const earlier = node[OPTIONAL_PROPERTIES_KEYWORD];
    const listed = names.filter(
      (name) => optional.includes(name) || (Array.isArray(earlier) && earlier.includes(name)),
    );
    out.properties = properties;
    out.required = names;
    out.additionalProperties = false;
    if (listed.length > 0) out[OPTIONAL_PROPERTIES_KEYWORD] = listed;
  }
  if (typeof out.$ref === "string" && Object.keys(out).length > 1) {
    // Strict mode takes no keyword next to $ref: keep the reference alone in an anyOf branch.
    const { $ref, ...rest } = out;
    return { ...rest, anyOf: [{ $ref }, ...(Array.isArray(rest.anyOf) ? rest.anyOf : [])] };
  }
  return out;
}

/** Allows `null` as well (an optional property in strict mode, where all are required). */
export function makeNullable(schema: JsonValue): JsonValue {
  if (!isRecord(schema)) return schema;
  const out = { ...schema } as Record<string, JsonValue>;
  if (Array.isArray(out.anyOf)) {
    if (!out.anyOf.some((branch) => isRecord(branch) && branch.type === "null")) {
      out.anyOf = [...out.anyOf, { type: "null" }];
    }
    return out;
  }
  if (out.const !== undefined || (out.type === undefined && out.enum === undefined)) {
    const { description, ...rest } = out;
    return {
      ...(description !== undefined ? { description } : {}),
      anyOf: [rest, { type: "null" }],
    };
  }
  if (typeof out.type === "string" && out.type !== "null") out.type = [out.type, "null"];
  else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** `allOf` of object schemas (local `$ref`s resolved) → one schema: properties and required merged. */
function mergeAllOf(
  node: Record<string, unknown>,
  root: Record<string, unknown>,
  depth: number,
): Record<string, unknown> {
  const { allOf, ...rest } = node;
  const merged: Record<string, unknown> = { ...rest };
  const properties: Record<string, unknown> = isRecord(rest.properties) ? { ...rest.properties } : {};
  const required = new Set<unknown>(Array.isArray(rest.required) ? rest.required : []);
  for (const raw of allOf as unknown[]) {
    const resolved = resolveDef(raw, root);
    if (!isRecord(resolved)) continue;
    const part =
      Array.isArray(resolved.allOf) && depth < 16 ? mergeAllOf(resolved, root, depth + 1) : resolved;
    if (isRecord(part.properties)) {
      for (const [name, sub] of Object.entries(part.properties))
        if (!(name in properties)) properties[name] = sub;
    }
    if (Array.isArray(part.required)) for (const name of part.required) required.add(name);
    for (const [key, field] of Object.entries(part)) {
      if (key === "properties" || key === "required" || key === "$defs") continue;
      if (!(key in merged)) merged[key] = field;
    }
  }
  if (Object.keys(properties).length > 0) {
    merged.properties = properties;
    merged.type ??= "object";
  }
  if (required.size > 0) merged.required = [...required];
  return merged;
}

/** The `$defs` schema a `$ref` names, with the siblings of each `$ref` on the way (outer ones win). */
function resolveDef(value: unknown, root: Record<string, unknown>): unknown {
  const siblings: Record<string, unknown>[] = [];
  const target = followLocalRef(root, value, {
    onRef: ({ $ref: _ref, ...rest }) => {
      siblings.unshift(rest);
    },
  });
  if (!isRecord(target)) return siblings.length === 0 ? target : value;
  return siblings.length === 0 ? target : Object.assign({}, target, ...siblings);
}

function joinWhere(where: string, name: string): string {
  return where === "(arguments)" ? name : `${where}.${name}`;
}
