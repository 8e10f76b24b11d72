/**
 * openapi-mcp-bridge as a library: everything the CLI does, with typed options. The runtime's
 * own entry (runtime/index.ts, `openapi-mcp-bridge/runtime`) is re-exported whole.
 */

export {
  type BuildCatalogInput,
  type BuiltCatalog,
  buildCatalog,
  type CatalogDocument,
  type CatalogToolEntry,
  listCatalogContracts,
} from "./contracts/catalog.js";
export { checkCatalog, readCatalogFile } from "./contracts/catalog-file.js";
export { CHANGE_RULES, type ChangeCode, type ChangeSeverity } from "./contracts/change-rules.js";
export type { ToolContract } from "./contracts/contract.js";
export { describeContract } from "./contracts/contract.js";
export { diffContracts, diffTools, type ToolChange } from "./contracts/diff-tools.js";
export { formatChangesText, summarizeChanges } from "./contracts/format-changes.js";
export {
  type EmitOptions,
  emitProject,
  type GenerateOptions,
  type GenerateResult,
  generateProject,
} from "./generator/codegen/generate.js";
export type { GeneratedFile } from "./generator/codegen/write-project.js";
export { type BuildOptions, buildModel } from "./generator/compile/build-model.js";
export { chooseToolName, TOOL_NAME_PATTERN } from "./generator/compile/naming.js";
export {
  type LoadedOverrides,
  loadOverrides,
  type McpOverride,
  type OverrideMap,
  type OverridesInput,
  parseOverridesDocument,
} from "./generator/compile/overrides.js";
export { type PlanOptions, planModel } from "./generator/compile/plan-model.js";
export {
  applyProfile,
  CLIENT_PROFILES,
  type ClientProfile,
  deriveServerName,
  type ProfileOptions,
  toolNameLimit,
  toStrictSchema,
} from "./generator/compile/profile.js";
export { type LoadedSpec, type LoadOptions, loadSpec } from "./generator/spec/load-spec.js";
export {
  applyOverlay,
  type OverlayAction,
  type OverlayDocument,
  parseOverlay,
} from "./generator/spec/overlay.js";
export {
  DIAGNOSTIC_CODES,
  type DiagnosticCode,
  type DiagnosticCodeEntry,
  isDiagnosticCode,
} from "./model/diagnostic-codes.js";
export { BridgeError, formatDiagnostics } from "./model/diagnostics.js";
export { serializeModel } from "./model/serialize.js";
export * from "./model/types.js";
export * from "./runtime/index.js";
// Several APIs in one bridge, and hot reload.
export {
  type ApiRouter,
  type ApiRuntime,
  createApiRouter,
  createApiRuntime,
} from "./serve/apis/api-router.js";
export { deriveNamespace, namespaceTools } from "./serve/apis/namespace.js";
export { createLiveRuntime, type LiveRuntime } from "./serve/reload/live-runtime.js";
export { type SpecWatch, type SpecWatchOptions, watchSpec } from "./serve/reload/spec-watch.js";
export { type RunningBridge, startBridge } from "./serve/start-bridge.js";
