/** The runtime alone: serve a saved model without the generator or its dependencies. */
export { checkModel, parseModel } from "../model/serialize.js";
export type * from "../model/types.js";
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from "./http-transport.js";
export {
  type BridgeOptions,
  type BridgeRuntime,
  createBridgeRuntime,
  createBridgeServer,
  toListedTool,
} from "./server.js";
