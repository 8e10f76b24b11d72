/**
 * Code mode's signatures of the operations, as the model reads them: `api.<name>(args)` is a
 * method of an `Api` interface whose argument type is the generated project's `Args` interface
 * (the same conversion: schema-types.ts) and whose result is what the promise gives: the tool's
 * planned result outline (`resultSchemas`, which `serve --mode code` plans), else its output
 * schema, else what its documented answers say (no body: null; text: string).
 *
 * - `signatureOf`: one line for search results, `listPets(args?: { limit?: number }): Promise<Pet[]>`,
 *   at most about 300 characters (optional arguments and result fields beyond that are counted,
 *   not shown);
 * - `declarationOf`: the full declaration for describe, TSDoc included, with the `$defs` types.
 *
 * Computed on first use per operation, never at start-up: a search shows a handful.
 */
import { isRecord } from "../../model/records.js";
import type { JsonSchema, ToolNode } from "../../model/types.js";
import { isDestructive } from "../access/select.js";
import {
  planArgumentTypes,
  schemaToType,
  type TypeAlias,
  type TypeNode,
  type TypeProperty,
} from "./schema-types.js";
import { docLines, objectText, propertyKey, typeText } from "./type-text.js";

/** The interface the declarations put the operations in; `$defs` types never take its name. */
export const API_INTERFACE = "Api";

/** Characters of a one-line signature before optional arguments and result fields are cut. */
const SIGNATURE_CHARS = 300;

export interface Signatures {
  /** One line: the method as it stands in the `Api` interface, without docs. */
  signatureOf(tool: ToolNode): string;
  /** `interface Api { ... }` with these operations and their docs, then the types they use. */
  declarationOf(
    tools: readonly ToolNode[],
    options?: { confirmDestructive?: boolean | ((tool: ToolNode) => boolean) },
  ): string;
}

/** Whether `tool` asks the user first, under one policy or a policy per API (several APIs). */
function confirmsOf(policy: boolean | ((tool: ToolNode) => boolean) | undefined, tool: ToolNode): boolean {
  return typeof policy === "function" ? policy(tool) : policy === true;
}

/** What the promise of `api.<name>(args)` gives on success. */
export function resultTypeOf(tool: ToolNode): TypeNode {
  if (tool.resultSchema !== undefined) return schemaToType(tool.resultSchema, { defNames: new Map() });
  const output = tool.outputSchema;
  if (output !== undefined) {
    const properties = isRecord(output.properties) ? output.properties : {};
    const schema = tool.outputWrapped ? properties.result : output;
    return schemaToType(schema as JsonSchema | undefined, { defNames: new Map() });
  }
  const success = tool.http.responses.filter((r) => /^2/.test(r.status));
  if (success.length > 0 && success.every((r) => r.mediaTypes.length === 0))
    return { kind: "keyword", name: "null" };
  if (success.length > 0 && success.every((r) => r.mediaTypes.every((m) => /^text\//i.test(m)))) {
    return { kind: "keyword", name: "string" };
  }
  return { kind: "keyword", name: "unknown" };
}

/** Whether the operation needs any argument: then `args` is required. */
function needsArguments(properties: TypeProperty[]): boolean {
  return properties.some((p) => !p.optional);
}

/** The documentation of one method: the tool's description, its HTTP line and what to know. */
function methodDocs(tool: ToolNode, confirmDestructive: boolean): string {
  const lines = [tool.description.trim() === "" ? tool.title : tool.description.trim()];
  const notes = [`${tool.http.method.toUpperCase()} ${tool.http.path}`];
  if (confirmDestructive && isDestructive(tool)) notes.push("the user is asked to confirm each call");
  if (tool.deprecated) notes.push("deprecated");
  lines.push(notes.join("; "));
  return lines.join("\n");
}

/** `{ a: string; b?: number }` within `max` characters: required properties first, then what fits. */
function clippedObject(properties: TypeProperty[], index: TypeNode | undefined, max: number): string {
  if (properties.length === 0 && index === undefined) return "{}";
  const full = objectText(properties, index, {});
  if (full.length <= max || properties.length === 0) return full;
  const kept: TypeProperty[] = properties.filter((p) => !p.optional);
  let text = objectText(kept, undefined, {});
  for (const property of properties) {
    if (!property.optional) continue;
    const next = objectText([...kept, property], undefined, {});
    if (next.length > max) break;
    kept.push(property);
    text = next;
  }
  const cut = properties.length - kept.length;
  if (cut === 0) return text;
  const note = `/* +${cut} more */`;
  return kept.length === 0 ? `{ ${note} }` : `${text.slice(0, -2)}; ${note} }`;
}

/** A result type on one line within `max` characters: long objects keep their first fields. */
function clippedResult(type: TypeNode, max: number): string {
  const full = typeText(type);
  if (full.length <= max) return full;
  if (type.kind === "object") return clippedObject(type.properties, type.index, max);
  if (type.kind === "array" && type.items.kind === "object") {
    return `${clippedObject(type.items.properties, type.items.index, max - 2)}[]`;
  }
  return full;
}

export function createSignatures(): Signatures {
  const compact = new Map<string, string>();
  return {
    signatureOf(tool) {
      let text = compact.get(tool.name);
      if (text === undefined) {
        const { properties, index } = planArgumentTypes(tool, new Set([API_INTERFACE]));
        const optional = needsArguments(properties) ? "" : "?";
        const head = `${propertyKey(tool.name)}(args${optional}: `;
        const result = clippedResult(resultTypeOf(tool), SIGNATURE_CHARS / 2);
        const room = Math.max(80, SIGNATURE_CHARS - head.length - result.length);
        text = `${head}${clippedObject(properties, index, room)}): Promise<${result}>`;
        compact.set(tool.name, text);
      }
      return text;
    },
    declarationOf(tools, options = {}) {
      const taken = new Set([API_INTERFACE]);
      const indent = "  ";
      const methods: string[] = [];
      const aliases: TypeAlias[] = [];
      for (const tool of tools) {
        const types = planArgumentTypes(tool, taken);
        aliases.push(...types.aliases);
        const optional = needsArguments(types.properties) ? "" : "?";
        const args = objectText(types.properties, types.index, { indent }, 1);
        const result = typeText(resultTypeOf(tool), { indent }, 1);
        methods.push(
          ...docLines(methodDocs(tool, confirmsOf(options.confirmDestructive, tool)), indent),
          `${indent}${propertyKey(tool.name)}(args${optional}: ${args}): Promise<${result}>;`,
        );
      }
      const lines = [`interface ${API_INTERFACE} {`, ...methods, "}"];
      for (const alias of aliases) {
        lines.push(...docLines(alias.docs, ""), `type ${alias.name} = ${typeText(alias.type, { indent })};`);
      }
      return lines.join("\n");
    },
  };
}
