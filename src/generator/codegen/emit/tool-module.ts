/**
 * One module per tool (`src/tools/<name>.ts`): the spec's documentation as TSDoc, an `Args`
 * interface for the validated arguments (plus one type per `$defs` entry of the input schema),
 * the ToolNode the runtime serves, and the type of its hooks. Generation rewrites these modules;
 * the hooks a user writes go in `src/hooks.ts`, which it never rewrites (emit/hooks-module.ts).
 */
import type { ToolNode } from "../../../model/types.js";
import { planArgumentTypes } from "../../../runtime/code/schema-types.js";
import type { DeclarationSpec, ModuleSpec, ValueNode } from "../print/module-spec.js";

/** Names a tool module declares or imports; `$defs` types never take them. */
const MODULE_NAMES = ["Args", "tool", "Hooks", "hooks", "ToolNode", "ToolHooks", "CallToolResult"];

/** The hooks type of this tool; the hooks themselves live in `src/hooks.ts`, the user's file. */
const HOOKS_TYPE_CODE = `/** Hooks of this tool, as \`src/hooks.ts\` takes them (see there). */
export type Hooks = ToolHooks<Args>;`;

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
    resultSchema: tool.resultSchema,
    resultFields: tool.resultFields as ValueNode | undefined,
    annotations: { ...tool.annotations },
    http: tool.http as unknown as ValueNode,
    source: tool.source as unknown as ValueNode,
    tags: tool.tags,
    deprecated: tool.deprecated,
  };
  return value;
}

export function emitToolModule(tool: ToolNode): ModuleSpec {
  const { properties, index, aliases } = planArgumentTypes(tool, new Set(MODULE_NAMES));
  const declarations: DeclarationSpec[] = [
    {
      kind: "interface",
      name: "Args",
      docs: `Arguments of \`${tool.name}\` after validation: what its \`beforeCall\` hook receives.`,
      properties,
      ...(index !== undefined ? { index } : {}),
    },
    ...aliases.map((alias): DeclarationSpec => ({ kind: "type", ...alias })),
  ];
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
      { module: "../runtime/engine/bridge-options.js", named: ["ToolHooks"], typeOnly: true },
    ],
    declarations,
  };
}
