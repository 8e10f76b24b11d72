/**
 * `src/tools/index.ts` (every tool module, in the spec's order, and their hooks) and
 * `src/api.ts` (the BridgeModel the server runs: info, servers, security schemes, tools and
 * their search index).
 */
import type { BridgeModel } from "../../../model/types.js";
import { Expression, type ModuleSpec, type ValueNode } from "../print/module-spec.js";
import { toIdentifier } from "./names.js";

export interface ToolModuleRef {
  toolName: string;
  /** File base name in `src/tools/`, without `.ts`. */
  module: string;
}

export function emitToolsIndex(model: Pick<BridgeModel, "info">, modules: ToolModuleRef[]): ModuleSpec {
  const taken = new Set(["tools", "hooks", "ToolNode", "ToolHooks"]);
  const identifiers = modules.map((m) => toIdentifier(m.module, taken));
  return {
    docs: `Every tool of ${model.info.title}, in the spec's order, and their hooks by tool name.`,
    imports: [
      { module: "../model/types.js", named: ["ToolNode"], typeOnly: true },
      { module: "../runtime/bridge-options.js", named: ["ToolHooks"], typeOnly: true },
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
        kind: "const",
        name: "hooks",
        docs: "Each tool's hooks, by tool name.",
        type: "Record<string, ToolHooks<object>>",
        value: Object.fromEntries(
          modules.map((m, i) => [m.toolName, new Expression(`${identifiers[i]}.hooks`)]),
        ),
      },
    ],
  };
}

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
      "The tools live in `./tools/`, one module each, with their hooks. The runtime in",
      "`./runtime/` is the openapi-mcp-bridge runtime, copied unchanged but for `version.ts`",
      "(this server's name and version).",
    ].join("\n"),
    imports: [
      { module: "./model/types.js", named: ["type BridgeModel", "IR_VERSION"] },
      { module: "./search-index.js", named: ["searchIndex"] },
      { module: "./tools/index.js", named: ["hooks", "tools"] },
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
      { kind: "code", text: "export { hooks };" },
    ],
  };
}
