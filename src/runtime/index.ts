/** The runtime alone: serve a saved model without the generator or its dependencies. */
export { checkModel, parseModel } from "../model/serialize.js";
export type * from "../model/types.js";
// Several APIs in one bridge, and hot reload.
export { type ApiRouter, type ApiRuntime, createApiRouter, createApiRuntime } from "./apis/api-router.js";
export { deriveNamespace, namespaceTools } from "./apis/namespace.js";
export type { BridgeOptions } from "./bridge-options.js";
export { type BridgeRuntime, createBridgeRuntime } from "./bridge-runtime.js";
export type { ModeChoice, RequestedMode, ServedMode } from "./discovery/mode.js";
export {
  type BuildCatalogInput,
  type BuiltCatalog,
  buildCatalog,
  type CatalogDocument,
  type CatalogToolEntry,
  listCatalogContracts,
} from "./lifecycle/catalog.js";
export { checkCatalog, readCatalogFile } from "./lifecycle/catalog-file.js";
export { CHANGE_RULES, type ChangeCode, type ChangeSeverity } from "./lifecycle/change-rules.js";
export { describeContract, type ToolContract } from "./lifecycle/contract.js";
export { diffContracts, diffTools, type ToolChange } from "./lifecycle/diff-tools.js";
export { formatChangesText, summarizeChanges } from "./lifecycle/format-changes.js";
export { createBridgeServer } from "./mcp-server.js";
export { CATALOG_META_KEY, CONTRACT_META_KEY } from "./reload/catalog-tracker.js";
export { createLiveRuntime, type LiveRuntime } from "./reload/live-runtime.js";
export { type SpecWatch, type SpecWatchOptions, watchSpec } from "./reload/spec-watch.js";
export { OPTION_TABLE, type OptionKey, type Settings } from "./settings/option-table.js";
export { readSettings } from "./settings/read-settings.js";
export { type RunServerOptions, runServer } from "./settings/run-server.js";
export { type RunningBridge, type StartOptions, startBridge, startServer } from "./settings/start-server.js";
export { toBridgeOptions, toHttpServerOptions } from "./settings/to-options.js";
export { toListedTool } from "./tool-list.js";
export {
  type HttpServerOptions,
  type RunningHttpServer,
  startHttpServer,
} from "./transport/streamable-http.js";
