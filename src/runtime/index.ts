/** The runtime alone: serve a saved model without the generator or its dependencies. */

export {
  type BuildCatalogInput,
  type BuiltCatalog,
  buildCatalog,
  type CatalogDocument,
  type CatalogToolEntry,
  listCatalogContracts,
} from "../contracts/catalog.js";
export { checkCatalog, readCatalogFile } from "../contracts/catalog-file.js";
export { CHANGE_RULES, type ChangeCode, type ChangeSeverity } from "../contracts/change-rules.js";
export { diffContracts, diffTools, type ToolChange } from "../contracts/diff-tools.js";
export { formatChangesText, summarizeChanges } from "../contracts/format-changes.js";
export { checkModel, parseModel } from "../model/serialize.js";
export type * from "../model/types.js";
// Several APIs in one bridge, and hot reload.
export {
  type ApiRouter,
  type ApiRuntime,
  createApiRouter,
  createApiRuntime,
} from "../serve/apis/api-router.js";
export { deriveNamespace, namespaceTools } from "../serve/apis/namespace.js";
export { CATALOG_META_KEY, CONTRACT_META_KEY } from "../serve/reload/catalog-tracker.js";
export { createLiveRuntime, type LiveRuntime } from "../serve/reload/live-runtime.js";
export { type SpecWatch, type SpecWatchOptions, watchSpec } from "../serve/reload/spec-watch.js";
export { OPTION_TABLE, type OptionKey, type Settings } from "./config/option-table.js";
export { readSettings } from "./config/read-settings.js";
export { toBridgeOptions, toHttpServerOptions } from "./config/to-options.js";
export type { ModeChoice, RequestedMode, ServedMode } from "./discovery/mode.js";
export type { BridgeOptions } from "./engine/bridge-options.js";
export { type BridgeRuntime, createBridgeRuntime } from "./engine/bridge-runtime.js";
export { type RunServerOptions, runServer } from "./main.js";
export { describeContract, type ToolContract } from "./server/contract.js";
export { createBridgeServer } from "./server/mcp-server.js";
export { toListedTool } from "./server/tool-list.js";
export { type RunningBridge, type StartOptions, startBridge, startServer } from "./start-server.js";
export {
  type HttpServerOptions,
  type RunningHttpServer,
  startHttpServer,
} from "./transport/streamable-http.js";
