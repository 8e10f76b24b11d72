/**
 * The worker thread that runs programs (pool.ts starts it): one QuickJS module loaded at start,
 * one program at a time, each in a fresh runtime (engine.ts). API calls go to the main thread
 * as messages and their answers come back the same way, so the bridge's call pipeline (and its
 * credentials) stays in the main thread: nothing secret is ever in this one.
 */
import { parentPort, workerData } from "node:worker_threads";
import { discardQuickJs, loadQuickJs, measureModuleMemory, runProgram } from "./engine.js";
import type { SandboxLimits } from "./limits.js";
import type { ToWorker } from "./messages.js";

const port = parentPort;
const { memoryBytes } = workerData as { memoryBytes: number };

if (port !== null) {
  const ready = loadQuickJs(memoryBytes);
  const answers = new Map<number, (answer: string) => void>();
  let nextCall = 0;
  port.on("message", (message: ToWorker) => {
    if (message.type === "answer") {
      answers.get(message.call)?.(message.answer);
      answers.delete(message.call);
      return;
    }
    void run(message.run, message.source, message.limits);
  });

  const run = async (id: number, source: string, limits: SandboxLimits) => {
    try {
      const module = await ready;
      const outcome = await runProgram(
        module,
        {
          source,
          limits,
          stripTypes: async (wrapped) => (await import("../strip-types.js")).stripTypes(wrapped),
        },
        {
          call(name, args) {
            const call = nextCall++;
            return new Promise((resolve) => {
              answers.set(call, resolve);
              port.postMessage({ type: "call", run: id, call, name, args });
            });
          },
        },
      );
      port.postMessage({ type: "done", run: id, outcome, memoryBytes: measureModuleMemory(module) });
    } catch (error) {
      // The module itself failed (a WebAssembly trap): this thread is done; the pool starts another.
      discardQuickJs(memoryBytes);
      port.postMessage({
        type: "failed",
        run: id,
        message: error instanceof Error ? error.message : String(error),
      });
      process.exit(1);
    }
  };
}
