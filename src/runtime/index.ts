/** The runtime alone: serve a saved model without the generator or its dependencies. */
export { checkModel, parseModel } from "../model/serialize.js";
export type * from "../model/types.js";
export type { BridgeOptions } from "./bridge-options.js";
export { type BridgeRuntime, createBridgeRuntime } from "./bridge-runtime.js";
export { createBridgeServer } from "./mcp-server.js";
export { toListedTool } from "./tool-list.js";
export {
  type HttpServerOptions,
  type RunningHttpServer,
  startHttpServer,
} from "./transport/streamable-http.js";
