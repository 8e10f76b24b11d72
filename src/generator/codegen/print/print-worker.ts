/**
 * Worker thread entry (see print-worker-pool.ts): loads the printer as soon as it starts, while
 * the main thread is still loading and planning the spec, and says when it is ready; then prints
 * each chunk of module jobs it is sent and posts their text, or the error that stopped it (a
 * coded diagnostic stays one).
 */
import { parentPort } from "node:worker_threads";
import { BridgeError } from "../../../model/diagnostics.js";
import { printModules } from "../emit/modules.js";
import type { PrintReply, PrintRequest } from "./print-worker-pool.js";
import { createPrinter } from "./printer.js";

const printer = createPrinter();
parentPort?.postMessage({ ready: true });

parentPort?.on("message", (request: PrintRequest) => {
  let reply: PrintReply;
  try {
    reply = { texts: printModules(printer, request.head, request.jobs) };
  } catch (error) {
    reply = {
      error: {
        message: error instanceof Error ? error.message : String(error),
        ...(error instanceof BridgeError ? { diagnostics: error.diagnostics } : {}),
      },
    };
  }
  parentPort?.postMessage(reply);
});
