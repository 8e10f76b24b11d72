/**
 * The runtime alone (`openapi-mcp-bridge/runtime`): serve a saved model without the generator
 * or its dependencies. The package's root entry re-exports all of this.
 */
export { checkModel, parseModel } from "../model/serialize.js";
export type * from "../model/types.js";
export { toCredentialEnvName } from "./auth/credentials.js";
export { OPTION_TABLE, type OptionKey, type Settings } from "./config/option-table.js";
export { readSettings } from "./config/read-settings.js";
export { toBridgeOptions, toHttpServerOptions } from "./config/to-options.js";
export type { ModeChoice, RequestedMode, ServedMode } from "./discovery/mode.js";
export {
  type BridgeOptions,
  type CallContext,
  type ResolvedBridgeOptions,
  resolveBridgeOptions,
  type ToolHooks,
} from "./engine/bridge-options.js";
export { type BridgeRuntime, createBridgeRuntime, type ToolRuntime } from "./engine/bridge-runtime.js";
export { type RunServerOptions, runServer } from "./main.js";
export { createBridgeServer } from "./server/mcp-server.js";
export { type ServedRuntime, serveRuntime } from "./server/served-runtime.js";
export { CATALOG_META_KEY, CONTRACT_META_KEY } from "./server/tool-contracts.js";
export { toListedTool } from "./server/tool-list.js";
export { type RunningServer, type StartOptions, startServer } from "./start-server.js";
export { type RunningTelemetry, startTelemetry } from "./telemetry/telemetry.js";
export type { TelemetryOptions } from "./telemetry/telemetry-options.js";
export type { OAuthResourceOptions, ScopeRule } from "./transport/oauth/resource-options.js";
export { type RunningHttpServer, startHttpServer } from "./transport/streamable-http.js";
export type { HttpServerOptions } from "./transport/transport-options.js";
