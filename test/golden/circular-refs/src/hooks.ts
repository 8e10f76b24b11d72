/**
 * Your hooks, by tool name. `generate` wrote this file because it was missing and will never
 * change or delete it (`--force` included): what you write here survives regeneration.
 *
 * `beforeCall(args)` gets a tool's arguments after validation and returns the arguments to
 * send; `afterCall(result, args)` gets the result (a success or an upstream error) and returns
 * the result to give back. Configured secrets are still redacted after it. A hook that throws
 * gives an error result. Each tool's `Args` type is in its module in `src/tools/`.
 */
import type { ToolHooksByName } from "./tools/index.js";

export const hooks: ToolHooksByName = {
  // createNode: {
  //   beforeCall(args) {
  //     return args;
  //   },
  //   afterCall(result) {
  //     return result;
  //   },
  // },
};
