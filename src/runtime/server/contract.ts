/**
 * A tool's contract: what a client holds once it has listed the tool, and what the bridge
 * does with a call. The name, the input schema, the output outline, the behaviour hints and
 * the HTTP binding (method, path, where and how each argument travels, the body's media type,
 * the auth it needs), in canonical form, with a digest of it. Prose (title, descriptions,
 * examples) is not part of the contract: it has its own digest, so a reworded description is
 * a docs change and never a new contract.
 *
 * Here: the contract's shape and its digest, which every tools/list carries; the contract with
 * its prose, as catalogs and the diff read it, is contracts/contract.ts's.
 */
import type {
  BodyKind,
  HttpMethod,
  JsonSchema,
  JsonValue,
  ParameterLocation,
  ParameterStyle,
  SecurityRequirementNode,
  ToolNode,
} from "../../model/types.js";
import { canonicalJson, canonicalSchemaJson, digestText, sortKeys } from "./canonical.js";

/** The behaviour hints of a tool, without the annotation title (prose). */
export interface ContractAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Where and how one argument travels as a parameter. */
export interface ContractParameter {
  argument: string;
  in: ParameterLocation;
  name: string;
  required: boolean;
  style: ParameterStyle;
  explode: boolean;
  allowReserved: boolean;
  contentType?: string;
}

export interface ContractBody {
  mediaType: string;
  required: boolean;
  kind: BodyKind;
  mode: "properties" | "value";
  /** `value` mode: the argument that is the body. */
  argument?: string;
  /** `properties` mode: argument → body property (and whether it is a file part). */
  properties?: { argument: string; name: string; file?: boolean }[];
  encoding?: JsonValue;
}

export interface ContractBinding {
  method: HttpMethod;
  path: string;
  /** By argument name. */
  parameters: ContractParameter[];
  body?: ContractBody;
  /** Alternatives (OR) of schemes (AND) with their scopes; empty: no auth. */
  security: SecurityRequirementNode[];
  /** Media types of the success (2xx) answers, sorted. */
  responseTypes: string[];
}

/** What the digest covers: the contract without prose (contracts/contract.ts adds the prose). */
export interface ContractCore {
  name: string;
  /** Canonical input schema (with prose in a catalog's contract that keeps it). */
  inputSchema: JsonSchema;
  /** Canonical output outline, when the tool has one. */
  outputSchema?: JsonSchema;
  /** The result is `{ result: body }` (a body that is not an object). */
  outputWrapped: boolean;
  annotations: ContractAnnotations;
  binding: ContractBinding;
}

/**
 * The digest of contractDigestInput(contract), its members written in sorted order straight as
 * canonical text (no canonical copy of the schemas, no sorted copy of that): the same text to
 * the byte, several times faster. Every tool of every tools/list carries one.
 */
export function digestContract(contract: ContractCore): string {
  const noProse = { prose: false };
  const output =
    contract.outputSchema !== undefined ? canonicalSchemaJson(contract.outputSchema, noProse) : "null";
  return digestText(
    `{"annotations":${canonicalJson({ ...contract.annotations })}` +
      `,"binding":${canonicalJson(contract.binding as unknown as JsonValue)}` +
      `,"inputSchema":${canonicalSchemaJson(contract.inputSchema, noProse)}` +
      `,"name":${JSON.stringify(contract.name)},"outputSchema":${output}` +
      `,"outputWrapped":${contract.outputWrapped}}`,
  );
}

/**
 * `describeContract(tool).digest` alone, several times faster: every tool of every tools/list
 * carries it (tool-contracts.ts), so a large list must not pay for the prose digest
 * and the canonical copy with prose it does not show.
 */
export function digestToolContract(tool: ToolNode): string {
  const { title: _title, ...annotations } = tool.annotations;
  return digestContract({
    name: tool.name,
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    outputWrapped: tool.outputWrapped === true,
    annotations,
    binding: describeBinding(tool),
  });
}

export function describeBinding(tool: ToolNode): ContractBinding {
  const { http } = tool;
  const parameters = http.parameters
    .map(
      (p): ContractParameter => ({
        argument: p.argument,
        in: p.in,
        name: p.name,
        required: p.required,
        style: p.style,
        explode: p.explode,
        allowReserved: p.allowReserved,
        ...(p.contentType !== undefined ? { contentType: p.contentType } : {}),
      }),
    )
    .sort((a, b) => compareText(a.argument, b.argument));
  const body = http.body;
  return {
    method: http.method,
    path: http.path,
    parameters,
    ...(body !== undefined
      ? {
          body: {
            mediaType: body.mediaType,
            required: body.required,
            kind: body.kind,
            mode: body.mode,
            ...(body.argument !== undefined ? { argument: body.argument } : {}),
            ...(body.properties !== undefined
              ? {
                  properties: body.properties
                    .map((p) => ({ argument: p.argument, name: p.name, ...(p.file ? { file: true } : {}) }))
                    .sort((a, b) => compareText(a.argument, b.argument)),
                }
              : {}),
            ...(body.encoding !== undefined
              ? { encoding: sortKeys(body.encoding as unknown as JsonValue) }
              : {}),
          },
        }
      : {}),
    security: canonicalSecurity(http.security),
    responseTypes: [
      ...new Set(http.responses.filter((r) => /^2/.test(r.status)).flatMap((r) => r.mediaTypes)),
    ].sort(compareText),
  };
}

/** Requirements with sorted scheme names and scopes, in one order; duplicates dropped. */
export function canonicalSecurity(requirements: SecurityRequirementNode[]): SecurityRequirementNode[] {
  const byText = new Map<string, SecurityRequirementNode>();
  for (const requirement of requirements) {
    const sorted: SecurityRequirementNode = {};
    for (const scheme of Object.keys(requirement).sort())
      sorted[scheme] = [...new Set(requirement[scheme] ?? [])].sort();
    byText.set(JSON.stringify(sorted), sorted);
  }
  return [...byText.keys()].sort().map((text) => byText.get(text)!);
}

/** Code-point order, the same on every machine and locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
