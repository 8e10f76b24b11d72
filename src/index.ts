/** openapi-mcp-bridge as a library: everything the CLI does, with typed options. */
export { type BuildOptions, buildModel } from "./generator/build.js";
export {
  type EmitOptions,
  emitProject,
  type GeneratedFile,
  type GenerateOptions,
  type GenerateResult,
  generateProject,
} from "./generator/generate.js";
export { type LoadedSpec, type LoadOptions, loadSpec } from "./generator/load.js";
export { applyOverlay, type OverlayAction, type OverlayDocument, parseOverlay } from "./generator/overlay.js";
export {
  type LoadedOverrides,
  loadOverrides,
  type McpOverride,
  type OverrideMap,
  type OverridesInput,
  parseOverridesDocument,
} from "./generator/overrides.js";
export { type PlanOptions, planModel } from "./generator/plan.js";
export {
  applyProfile,
  CLIENT_PROFILES,
  type ClientProfile,
  deriveServerName,
  type ProfileOptions,
  toolNameLimit,
  toStrictSchema,
} from "./generator/profile.js";
export { BridgeError, formatDiagnostics } from "./model/diagnostics.js";
export { chooseToolName, TOOL_NAME_PATTERN } from "./model/naming.js";
export { checkModel, parseModel, serializeModel } from "./model/serialize.js";
export * from "./model/types.js";
export { toCredentialEnvName } from "./runtime/credentials.js";
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from "./runtime/http-transport.js";
export {
  type BridgeOptions,
  type BridgeRuntime,
  createBridgeRuntime,
  createBridgeServer,
  type ToolHooks,
  toListedTool,
} from "./runtime/server.js";
