/**
 * One module per tool (`src/tools/<name>.ts`): the spec's documentation as TSDoc, an `Args`
 * interface for the validated arguments (plus one type per `$defs` entry of the input schema),
 * the ToolNode the runtime serves, and the type of its hooks. Generation rewrites these modules;
 * the hooks a user writes go in `src/hooks.ts`, which it never rewrites (emit/hooks-module.ts).
 */
import type { ToolNode } from "../../../model/types.js";
import type { DeclarationSpec, ModuleSpec, TypeNode, ValueNode } from "../print/module-spec.js";
import { describeSchema, indexType, objectProperties, schemaToType, type TypeContext } from "./args-types.js";
import { toIdentifier } from "./names.js";

/** Names a tool module declares or imports; `$defs` types never take them. */
const MODULE_NAMES = ["Args", "tool", "Hooks", "hooks", "ToolNode", "ToolHooks", "CallToolResult"];

/** The hooks type of this tool; the hooks themselves live in `src/hooks.ts`, the user's file. */
const HOOKS_TYPE_CODE = `/** Hooks of this tool, as \`src/hooks.ts\` takes them (see there). */
export type Hooks = ToolHooks<Args>;`;

/** Refs a type reaches without passing through an object, array or tuple type. */
function directRefs(type: TypeNode, out: Set<string>): Set<string> {
  if (type.kind === "ref") out.add(type.name);
  else if (type.kind === "union" || type.kind === "intersection") {
    for (const member of type.members) directRefs(member, out);
  }
  return out;
}

/**
 * Type aliases that would reference themselves through unions or plain aliases only
 * (`type A = B; type B = A | null`), which TypeScript rejects: those become `unknown`.
 */
function breakAliasCycles(aliases: Map<string, TypeNode>): void {
  const onCycle = new Set<string>();
  for (const start of aliases.keys()) {
    const stack = [...directRefs(aliases.get(start)!, new Set())];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const name = stack.pop()!;
      if (name === start) {
        onCycle.add(start);
        break;
      }
      if (seen.has(name) || !aliases.has(name)) continue;
      seen.add(name);
      stack.push(...directRefs(aliases.get(name)!, new Set()));
    }
  }
  for (const name of onCycle) aliases.set(name, { kind: "keyword", name: "unknown" });
}

function toolDocs(tool: ToolNode): string {
  const lines = [tool.description.trim() === "" ? tool.title : tool.description.trim(), ""];
  lines.push(`Tool \`${tool.name}\`: \`${tool.http.method.toUpperCase()} ${tool.http.path}\`.`);
  if (tool.tags.length > 0) lines.push(`Tags: ${tool.tags.join(", ")}.`);
  if (tool.deprecated) lines.push("", "@deprecated The operation is deprecated in the spec.");
  return lines.join("\n");
}

/** The ToolNode as a literal value, keys in a fixed order, undefined fields left out. */
function toolValue(tool: ToolNode): ValueNode {
  const value: { [key: string]: ValueNode | undefined } = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    outputWrapped: tool.outputWrapped,
    annotations: { ...tool.annotations },
    http: tool.http as unknown as ValueNode,
    source: tool.source as unknown as ValueNode,
    tags: tool.tags,
    deprecated: tool.deprecated,
  };
  return value;
}

export function emitToolModule(tool: ToolNode): ModuleSpec {
  const taken = new Set(MODULE_NAMES);
  const defs = tool.inputSchema["$defs"];
  const defEntries =
    typeof defs === "object" && defs !== null && !Array.isArray(defs) ? Object.entries(defs) : [];
  const context: TypeContext = { defNames: new Map() };
  for (const [key] of defEntries) context.defNames.set(key, toIdentifier(key, taken, true));

  const aliases = new Map<string, TypeNode>();
  for (const [key, schema] of defEntries)
    aliases.set(context.defNames.get(key)!, schemaToType(schema, context, 1));
  breakAliasCycles(aliases);

  const properties = objectProperties(tool.inputSchema, context, 0);
  const index = indexType(tool.inputSchema, context, 0, properties.length > 0);
  const declarations: DeclarationSpec[] = [
    {
      kind: "interface",
      name: "Args",
      docs: `Arguments of \`${tool.name}\` after validation: what its \`beforeCall\` hook receives.`,
      properties,
      ...(index !== undefined ? { index } : {}),
    },
  ];
  for (const [key, schema] of defEntries) {
    const name = context.defNames.get(key)!;
    const docs =
      typeof schema === "object" && schema !== null && !Array.isArray(schema)
        ? describeSchema(schema)
        : undefined;
    declarations.push({
      kind: "type",
      name,
      ...(docs !== undefined ? { docs } : {}),
      type: aliases.get(name)!,
    });
  }
  declarations.push({
    kind: "const",
    name: "tool",
    docs: "The tool as the runtime serves it: name, schemas, annotations and HTTP binding.",
    type: "ToolNode",
    value: toolValue(tool),
  });
  declarations.push({ kind: "code", text: HOOKS_TYPE_CODE });

  return {
    docs: toolDocs(tool),
    imports: [
      { module: "../model/types.js", named: ["ToolNode"], typeOnly: true },
      { module: "../runtime/bridge-options.js", named: ["ToolHooks"], typeOnly: true },
    ],
    declarations,
  };
}
