/**
 * Printing a project's modules in worker threads. Started at the beginning of `generate`, the
 * workers load the printer while this thread loads, validates and plans the spec, then share out
 * the printing: once its printer is loaded a worker says so, and from then on is sent chunks of
 * jobs (with the model's head), two at a time, and answers with their text.
 *
 * Whether that pays depends on idle cores (see choosePrintWorkers): each worker starts a
 * Node environment, loads the printer again and compiles the printing code again, and V8's own
 * compiler and collector threads already keep a second core half busy.
 *
 * Only the compiled worker (dist/) can run; from source (the tests), and with no worker
 * asked for, the modules are printed in this thread, by the same code. A worker that fails to
 * start or dies (out of memory...) has its share printed here instead; an error it reports (a
 * module that would not be well-formed) is thrown here as it was thrown there.
 */
import { availableParallelism, loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import { BridgeError } from "../../../model/diagnostics.js";
import type { Diagnostic } from "../../../model/types.js";
import { hasWorkerEntry } from "../../shared/worker-entry.js";
import type { ModelHead, ModuleJob } from "../emit/modules.js";
import type { Printer } from "./printer.js";

/** What a worker is sent. */
export interface PrintRequest {
  head: ModelHead;
  jobs: ModuleJob[];
}

/** What a worker answers: each job's text, in order, or the error that stopped it. */
export type PrintReply = { texts: string[] } | { error: { message: string; diagnostics?: Diagnostic[] } };

/**
 * Prints a project's module jobs, once, then stops its workers; `close` stops them without
 * printing (idempotent).
 */
export interface ModulePrinter {
  /** The jobs' text, in the jobs' order. */
  print(head: ModelHead, jobs: ModuleJob[]): Promise<string[]>;
  close(): void;
}

const WORKER_URL = new URL("./print-worker.js", import.meta.url);

/** What choosePrintWorkers looks at; the machine's own by default. */
export interface MachineLoad {
  /** Cores this process may use. */
  cores: number;
  /** Runnable threads, averaged over the last minute (0 where the system does not say). */
  load: number;
}

/**
 * Workers to print with by default: none on two cores, where a worker costs about what it
 * gives (bench/results/design-choices.md); two with four cores or more, two idle ones among
 * them (load average at most the cores less two). OMB_PRINT_WORKERS=N sets it (0: print in
 * this thread).
 */
export function choosePrintWorkers(
  env: Record<string, string | undefined> = process.env,
  machine: MachineLoad = { cores: availableParallelism(), load: loadavg()[0] ?? 0 },
): number {
  const setting = env["OMB_PRINT_WORKERS"];
  if (setting !== undefined && /^\d+$/.test(setting)) return Number(setting);
  return machine.cores >= 4 && machine.load <= machine.cores - 2 ? 2 : 0;
}

export interface ModulePrinterOptions {
  /** Worker threads to start now (default: choosePrintWorkers()); 0 prints in this thread. */
  workers?: number;
  /** The worker's entry (tests); by default the compiled print-worker.js next to this file. */
  workerUrl?: URL;
}

/** Jobs sent at a time: small enough to share out evenly, large enough to keep messages few. */
function chooseChunkSize(jobs: number, threads: number): number {
  return Math.max(1, Math.min(64, Math.ceil(jobs / (Math.max(1, threads) * 8))));
}

/**
 * Starts the printing workers now (none when the worker's compiled entry is not there), so
 * that they are ready by the time the model is. The jobs are then handed out in chunks, two
 * in flight per worker, so a worker that got less of the machine prints less.
 */
export function startModulePrinter(options: ModulePrinterOptions = {}): ModulePrinter {
  const workers = options.workers ?? choosePrintWorkers();
  const url = options.workerUrl ?? WORKER_URL;
  const threads: PrintThread[] = [];
  for (let i = 0; i < workers && hasWorkerEntry(url); i++) {
    const thread = startPrintThread(url);
    if (thread !== undefined) threads.push(thread);
  }
  let used = false;
  return {
    async print(head, jobs) {
      if (used) throw new Error("a module printer prints once");
      used = true;
      const texts: string[] = new Array<string>(jobs.length);
      const size = chooseChunkSize(jobs.length, threads.length);
      let next = 0;
      let failed = false;
      /** Prints chunk after chunk in `thread`, or here once the thread is gone. */
      const run = async (thread: PrintThread | undefined): Promise<void> => {
        try {
          // A worker takes chunks once its printer is loaded, so one still loading holds none.
          if (thread !== undefined && !(await thread.ready)) thread = undefined;
          while (!failed && next < jobs.length) {
            const start = next;
            next = Math.min(jobs.length, next + size);
            const chunk = jobs.slice(start, next);
            const reply = thread === undefined ? undefined : await thread.print({ head, jobs: chunk });
            if (failed) return;
            if (reply !== undefined && "error" in reply) throw toError(reply.error);
            if (reply === undefined) thread = undefined;
            const printed = reply?.texts ?? (await printHere(head, chunk));
            printed.forEach((text, i) => {
              texts[start + i] = text;
            });
          }
        } catch (error) {
          failed = true;
          throw error;
        }
      };
      try {
        await Promise.all(threads.length === 0 ? [run(undefined)] : threads.flatMap((t) => [run(t), run(t)]));
      } finally {
        // Printed once: the workers are done (and never keep the process alive).
        for (const thread of threads) thread.stop();
      }
      return texts;
    },
    close() {
      for (const thread of threads) thread.stop();
    },
  };
}

function toError(error: { message: string; diagnostics?: Diagnostic[] }): Error {
  return error.diagnostics !== undefined ? new BridgeError(error.diagnostics) : new Error(error.message);
}

let localPrinter: Printer | undefined;

/** Prints in this thread (loading the printer on first use). */
async function printHere(head: ModelHead, jobs: ModuleJob[]): Promise<string[]> {
  const [{ createPrinter }, { printModules }] = await Promise.all([
    import("./printer.js"),
    import("../emit/modules.js"),
  ]);
  localPrinter ??= createPrinter();
  return printModules(localPrinter, head, jobs);
}

interface PrintThread {
  /** Whether the worker loaded its printer (false: it died first). */
  ready: Promise<boolean>;
  /** The worker's reply, or undefined once the worker is gone (it failed to start or died). */
  print(request: PrintRequest): Promise<PrintReply | undefined>;
  stop(): void;
}

function startPrintThread(url: URL): PrintThread | undefined {
  let worker: Worker;
  try {
    worker = new Worker(url);
  } catch {
    return undefined;
  }
  // Until asked to print, a worker keeps no one waiting: never the reason to stay alive.
  worker.unref();
  let gone = false;
  let becomeReady: (ready: boolean) => void = () => undefined;
  const ready = new Promise<boolean>((resolve) => {
    becomeReady = resolve;
  });
  /** Replies come in the order of the requests. */
  const waiting: ((reply: PrintReply | undefined) => void)[] = [];
  const lose = (): void => {
    gone = true;
    becomeReady(false);
    for (const resolve of waiting.splice(0)) resolve(undefined);
  };
  worker.on("message", (message: PrintReply | { ready: true }) => {
    if ("ready" in message) becomeReady(true);
    else waiting.shift()?.(message);
  });
  worker.on("error", lose);
  worker.on("exit", lose);
  return {
    ready,
    print(request) {
      if (gone) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        waiting.push(resolve);
        worker.ref();
        try {
          worker.postMessage(request);
        } catch {
          // not cloneable: this worker prints no more, the jobs are printed here
          void worker.terminate();
          lose();
        }
      });
    },
    stop() {
      void worker.terminate();
      lose();
    },
  };
}
