/**
 * Header parameters mirrored for gateways (MCP 2026-07-28, Streamable HTTP "Custom Headers from
 * Tool Parameters"): an argument whose input-schema property carries `x-mcp-header: <Name>` is
 * sent by conforming HTTP clients as `Mcp-Param-<Name>` too, so a load balancer can route on a
 * tenant, region or API version without reading the body (the bridge checks that the header
 * matches the body: runtime/server/param-headers.ts).
 *
 * Asked for by the spec (`x-mcp-header` on a header Parameter Object) or by an override
 * (`mcpHeaders`, which wins and may say `false`). Refused, with a warning, for anything a
 * conforming client would reject (not a token, not one primitive type, a name used twice) and
 * for secrets, whose value every intermediary would see: a security scheme's header, a header
 * or argument name the runtime treats as a credential, `format: password`.
 */
import { createDiagnostic } from "../../model/diagnostics.js";
import { isRecord } from "../../model/records.js";
import type { Diagnostic, JsonSchema, JsonValue, ParameterBindingNode } from "../../model/types.js";
import { isSensitiveName } from "../../runtime/audit/audit-log.js";
import { isCredentialHeader } from "../../runtime/auth/secret-forms.js";
import type { DeclaredMcpHeader } from "./arguments.js";
import { listApiKeyPlaces } from "./credential-parameters.js";

/** The schema keyword (SEP-2243). */
export const MCP_HEADER_KEYWORD = "x-mcp-header";

/** RFC 9110 §5.1 token: what may follow `Mcp-Param-`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The types a mirrored argument may have (`number` is excluded by the spec). */
const MIRRORED_TYPES = new Set(["string", "integer", "boolean"]);

export interface McpHeaderInput {
  inputSchema: JsonSchema;
  parameters: ParameterBindingNode[];
  /** The spec's `x-mcp-header` on header parameters. */
  declared: DeclaredMcpHeader[];
  /** The override's `mcpHeaders` (header name as the spec writes it → name, true or false). */
  override: Record<string, string | boolean> | undefined;
  /** Lower-cased header names of the document's apiKey security schemes. */
  secretHeaders: ReadonlySet<string>;
  diagnostics: Diagnostic[];
  source: string;
  /** The operation's JSON pointer. */
  pointer: string;
}

/**
 * The input schema with `x-mcp-header` on each header argument to mirror; the same object when
 * none is (so tools/list is unchanged for specs that ask for nothing).
 */
export function markMcpHeaders(input: McpHeaderInput): JsonSchema {
  const wanted = collectWanted(input);
  if (wanted.length === 0) return input.inputSchema;
  const properties = isRecord(input.inputSchema.properties) ? { ...input.inputSchema.properties } : {};
  const used = new Map<string, string>();
  let marked = false;
  for (const { binding, name, pointer } of wanted) {
    const property = properties[binding.argument];
    const schema = isRecord(property) ? inlinePrimitiveRef(property, input.inputSchema) : undefined;
    const refusal = findRefusal({ binding, name, schema, used, secretHeaders: input.secretHeaders });
    if (refusal !== undefined || schema === undefined) {
      input.diagnostics.push(
        createDiagnostic(
          "OMB_MCP_HEADER_REFUSED",
          `header parameter "${binding.name}" is not mirrored as Mcp-Param-${name}: ${refusal ?? "it has no schema"}`,
          { file: input.source, pointer: pointer ?? input.pointer },
        ),
      );
      continue;
    }
    used.set(name.toLowerCase(), binding.name);
    properties[binding.argument] = { ...schema, [MCP_HEADER_KEYWORD]: name };
    marked = true;
  }
  return marked ? { ...input.inputSchema, properties } : input.inputSchema;
}

interface Wanted {
  binding: ParameterBindingNode;
  name: string;
  /** Where it was asked for, when that is in the spec. */
  pointer?: string;
}

/** Each header parameter to mirror, and under which name: the override's word over the spec's. */
function collectWanted(input: McpHeaderInput): Wanted[] {
  const override = new Map(
    Object.entries(input.override ?? {}).map(([key, value]) => [key.toLowerCase(), value]),
  );
  const declared = new Map(input.declared.map((entry) => [entry.header.toLowerCase(), entry]));
  const wanted: Wanted[] = [];
  const matched = new Set<string>();
  for (const binding of input.parameters) {
    if (binding.in !== "header") continue;
    const key = binding.name.toLowerCase();
    const fromSpec = declared.get(key);
    const ask = override.has(key) ? override.get(key) : fromSpec?.value;
    if (override.has(key)) matched.add(key);
    if (ask === undefined || ask === false) continue;
    const name = ask === true ? binding.name : ask;
    if (typeof name !== "string") {
      input.diagnostics.push(
        createDiagnostic(
          "OMB_MCP_HEADER_REFUSED",
          `header parameter "${binding.name}": x-mcp-header must be a header name (or true), got ${JSON.stringify(name)}`,
          { file: input.source, pointer: fromSpec?.pointer ?? input.pointer },
        ),
      );
      continue;
    }
    wanted.push({
      binding,
      name,
      ...(!override.has(key) && fromSpec !== undefined ? { pointer: fromSpec.pointer } : {}),
    });
  }
  for (const key of override.keys()) {
    if (matched.has(key)) continue;
    input.diagnostics.push(
      createDiagnostic(
        "OMB_MCP_HEADER_REFUSED",
        `mcpHeaders names "${key}", which is not a header parameter of this operation (or not an argument: Accept, Content-Type and Authorization never are)`,
        { file: input.source, pointer: input.pointer },
      ),
    );
  }
  return wanted;
}

/** Why an argument may not be mirrored under `name`, or undefined when it may. */
function findRefusal(input: {
  binding: ParameterBindingNode;
  name: string;
  schema: Record<string, unknown> | undefined;
  used: Map<string, string>;
  secretHeaders: ReadonlySet<string>;
}): string | undefined {
  const { binding, name, schema } = input;
  if (
    input.secretHeaders.has(binding.name.toLowerCase()) ||
    isCredentialHeader(binding.name) ||
    isSensitiveName(binding.argument) ||
    schema?.format === "password"
  ) {
    return "it carries a credential, which every intermediary would see";
  }
  if (!TOKEN.test(name)) return `"${name}" is not an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~)`;
  const earlier = input.used.get(name.toLowerCase());
  if (earlier !== undefined)
    return `the name is already used for "${earlier}" (names are compared without case)`;
  if (binding.contentType !== undefined || binding.shape !== "primitive") {
    return "only a single string, integer or boolean can be mirrored";
  }
  if (schema !== undefined && !(typeof schema.type === "string" && MIRRORED_TYPES.has(schema.type))) {
    return `its schema's type must be one of string, integer or boolean, not ${JSON.stringify(schema.type ?? "unspecified")}`;
  }
  return undefined;
}

/**
 * An argument whose schema is only a `$ref` to a primitive `$defs` entry, with the entry
 * inlined: the spec forbids the keyword behind a `$ref`, and such entries are small (an enum
 * of regions). Anything else as it is.
 */
function inlinePrimitiveRef(schema: Record<string, unknown>, root: JsonSchema): Record<string, unknown> {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/") || !isRecord(root.$defs)) return schema;
  const target = root.$defs[ref.slice("#/$defs/".length)];
  if (!isRecord(target) || typeof target.type !== "string" || !MIRRORED_TYPES.has(target.type)) return schema;
  if (Object.values(target).some((value) => isRecord(value) && "$ref" in value)) return schema;
  const { $ref: _ref, ...rest } = schema;
  return { ...(target as Record<string, JsonValue>), ...rest };
}

/** Lower-cased header names of a document's apiKey security schemes, and Authorization. */
export function listSecretHeaders(document: Record<string, unknown>): ReadonlySet<string> {
  const names = new Set<string>(["authorization"]);
  for (const place of listApiKeyPlaces(document))
    if (place.startsWith("header:")) names.add(place.slice("header:".length));
  return names;
}
