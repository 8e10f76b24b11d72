/**
 * `src/tools/index.ts` (every tool module, in the spec's order, and the type of their hooks) and
 * `src/api.ts` (the BridgeModel the server runs: info, servers, security schemes, tools and
 * their search index).
 */
import { OBJECT_MEMBER_NAMES } from "../../../model/records.js";
import type { BridgeModel } from "../../../model/types.js";
import { toIdentifier } from "../../../runtime/code/identifiers.js";
import { Expression, type ModuleSpec, type TypeNode, type ValueNode } from "../print/module-spec.js";

export interface ToolModuleRef {
  toolName: string;
  /** File base name in `src/tools/`, without `.ts`. */
  module: string;
}

export function emitToolsIndex(model: Pick<BridgeModel, "info">, modules: ToolModuleRef[]): ModuleSpec {
  const taken = new Set(["tools", "hooks", "ToolNode", "ToolHooksByName"]);
  const identifiers = modules.map((m) => toIdentifier(m.module, taken));
  return {
    docs: `Every tool of ${model.info.title}, in the spec's order, and the type of their hooks by tool name.`,
    imports: [
      { module: "../model/types.js", named: ["ToolNode"], typeOnly: true },
      ...modules.map((m, i) => ({ module: `./${m.module}.js`, namespace: identifiers[i]! })),
    ],
    declarations: [
      {
        kind: "const",
        name: "tools",
        docs: "Every tool, in the spec's order.",
        type: "ToolNode[]",
        value: identifiers.map((id) => new Expression(`${id}.tool`)),
      },
      {
        kind: "type",
        name: "ToolHooksByName",
        docs: "What `src/hooks.ts` holds: each tool's hooks (all optional), by tool name.",
        type: {
          kind: "object",
          properties: modules.map((m, i) => ({
            name: m.toolName,
            optional: true,
            type: hooksType(`${identifiers[i]}.Hooks`, m.toolName),
          })),
        },
      },
    ],
  };
}

/**
 * Names every object inherits (`{}` has a `constructor`, a `toString`...): a hooks map with no
 * hook for such a tool must still type-check, so its entry also admits the inherited member.
 * The runtime looks hooks up as own properties only (Object.hasOwn), so that member never runs.
 */
const INHERITED_NAMES = new Set(OBJECT_MEMBER_NAMES);

function hooksType(hooks: string, toolName: string): TypeNode {
  if (!INHERITED_NAMES.has(toolName)) return { kind: "ref", name: hooks };
  return {
    kind: "union",
    members: [
      { kind: "ref", name: hooks },
      { kind: "ref", name: `Object[${JSON.stringify(toolName)}]` },
    ],
  };
}

/**
 * `src/hooks.ts` as the runtime takes it. Per-tool types do not fit one index signature (and an
 * entry for a tool named like an inherited member admits that member), so it is cast; the
 * runtime reads only own properties, by tool name.
 */
const HOOKS_EXPORT_CODE = `/** The hooks of \`./hooks.ts\`, by tool name, as the runtime takes them (own properties only). */
export const hooks = userHooks as Record<string, ToolHooks<object>>;`;

export function emitApiModule(model: Pick<BridgeModel, "info" | "servers" | "securitySchemes">): ModuleSpec {
  const info: { [key: string]: ValueNode | undefined } = {
    title: model.info.title,
    version: model.info.version,
    description: model.info.description,
    specVersion: model.info.specVersion,
  };
  return {
    docs: [
      `${model.info.title} ${model.info.version}: the model this MCP server runs.`,
      "",
      "The tools live in `./tools/`, one module each; their hooks in `./hooks.ts`. The runtime in",
      "`./runtime/` is the openapi-mcp-bridge runtime, copied unchanged but for `version.ts`",
      "(this server's name and version).",
    ].join("\n"),
    imports: [
      { module: "./model/types.js", named: ["type BridgeModel", "IR_VERSION"] },
      { module: "./hooks.js", named: ["hooks as userHooks"] },
      { module: "./runtime/engine/bridge-options.js", named: ["ToolHooks"], typeOnly: true },
      { module: "./search-index.js", named: ["searchIndex"] },
      { module: "./tools/index.js", named: ["tools"] },
    ],
    declarations: [
      {
        kind: "const",
        name: "model",
        docs: "The API: where it is, how it authenticates, and its tools.",
        type: "BridgeModel",
        value: {
          irVersion: new Expression("IR_VERSION"),
          info,
          servers: model.servers as unknown as ValueNode,
          securitySchemes: model.securitySchemes as unknown as ValueNode,
          tools: new Expression("tools"),
          diagnostics: [],
          searchIndex: new Expression("searchIndex"),
        },
      },
      { kind: "code", text: HOOKS_EXPORT_CODE },
    ],
  };
}
