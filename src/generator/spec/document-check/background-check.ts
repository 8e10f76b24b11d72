/**
 * Validation in a worker thread, so that a large document is validated while the main thread
 * goes on (parsing, converting, planning). Starting a worker costs time: worth it only for
 * large documents (bench/results/design-choices.md). Only the compiled worker (dist/) can run; from source, callers validate
 * in-thread.
 *
 * The worker starts as soon as the spec's text is read and parses it alongside the main thread
 * (cheaper than cloning the parsed tree into it later); it validates once told the version, or
 * validates the document it is then sent instead (a bundled one).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Diagnostic, SpecVersion } from "../../../model/types.js";
import { hasWorkerEntry } from "../../shared/worker-entry.js";

/** What the worker is started with. */
export interface WorkerStart {
  /** JSON text to parse straight away, if it looks like JSON. */
  text?: string;
}

/** What the worker is then asked to validate. */
export interface ValidationJob {
  version: SpecVersion;
  /** For the diagnostics. */
  file: string;
  /** Validate this instead of the parsed text. */
  document?: unknown;
}

export type ValidationReply = { diagnostics: Diagnostic[] } | { error: string };

export interface ValidationWorker {
  /**
   * Validates (in the worker), then stops the worker. Should the worker have failed to start
   * or to answer (out of memory...), `fallback` validates in this thread instead.
   */
  validate(job: ValidationJob, fallback: () => Diagnostic[]): Promise<Diagnostic[]>;
  /** Stops the worker unless it was asked to validate. */
  cancel(): void;
}

const WORKER_URL = new URL("./check-worker.js", import.meta.url);

/**
 * Whether a worker can help: the compiled worker is there (it is not when running from source)
 * and there are cores to spare. With two, the main thread's own garbage collector wants the
 * second one and a worker made planning slower (bench/results/design-choices.md), so the
 * default asks for three. OMB_VALIDATION_WORKER=1 uses a worker whatever the cores
 * (for tests and measurements), OMB_VALIDATION_WORKER=0 never does.
 */
export function canValidateInWorker(): boolean {
  const setting = process.env["OMB_VALIDATION_WORKER"];
  if (setting === "0") return false;
  return hasWorkerEntry(WORKER_URL) && (setting === "1" || availableParallelism() > 2);
}

export function startValidationWorker(start: WorkerStart): ValidationWorker {
  let worker: Worker | undefined;
  try {
    worker = new Worker(WORKER_URL, { workerData: start });
    // Until asked to validate, the worker keeps no one waiting: never the reason to stay alive.
    worker.unref();
  } catch {
    worker = undefined;
  }
  const answer = new Promise<ValidationReply | undefined>((resolve) => {
    if (!worker) return resolve(undefined);
    worker.once("message", resolve);
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => resolve(undefined));
  });
  let used = false;
  return {
    validate(job, fallback) {
      if (used) throw new Error("a validation worker validates once");
      used = true;
      worker?.ref();
      worker?.postMessage(job);
      return answer.then((reply) => {
        void worker?.terminate();
        return reply && "diagnostics" in reply ? reply.diagnostics : fallback();
      });
    },
    cancel() {
      if (used) return;
      used = true;
      void worker?.terminate();
    },
  };
}
