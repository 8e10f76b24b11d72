/**
 * Where programs run: worker threads, so that a program that computes (or loops) never holds up
 * the bridge's event loop, and other sessions keep being served while it runs or is stopped.
 *
 * - Warm: the first worker starts (and loads QuickJS) when code mode is first listed; a worker
 *   runs one program at a time and is reused. Up to `maxWorkers` run at once; more programs wait
 *   for one. Idle workers beyond the first are ended after a minute.
 * - Each worker's WebAssembly memory is capped at the memory limit (engine.ts); one whose memory
 *   grew far past its start is ended after its program, to give the memory back.
 * - Backstop: a worker still busy `GRACE_MS` after the program's wall time (stuck in one
 *   long native operation the interrupt handler cannot see into) is terminated and replaced; so
 *   is one that dies (its native stack, a WebAssembly trap).
 *
 * Running from source (tests, `tsx`), the worker's compiled entry does not exist: programs then
 * run in the calling thread, with the same limits but the stack capped to what the main thread
 * can take (IN_THREAD_MAX_STACK), and a long computation holds up the bridge until its deadline.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { discardQuickJs, loadQuickJs, type ProgramHost, type ProgramOutcome, runProgram } from "./engine.js";
import type { SandboxLimits } from "./limits.js";
import type { FromWorker, ToWorker } from "./messages.js";

/** How long after its wall time a program's worker is terminated if it has not answered. */
const GRACE_MS = 2000;
/** Idle workers beyond the first are ended after this long. */
const IDLE_MS = 60_000;
/** A worker whose WebAssembly memory grew past this is replaced after its program (it starts at 16 MiB). */
const RECYCLE_BYTES = 48 * 1024 * 1024;
/** The stack a program may use when it runs in the main thread (whose native stack is ~1 MB). */
export const IN_THREAD_MAX_STACK = 48 * 1024;

export interface SandboxPool {
  /**
   * Runs one program to its end (or its limit) and answers how it ended. When `signal` aborts
   * (the client cancelled), a waiting program never starts and a running one's worker is ended
   * at once, so it stops using CPU; its pending API calls are aborted by the same signal.
   */
  run(source: string, host: ProgramHost, signal?: AbortSignal): Promise<ProgramOutcome>;
  /** Starts the first worker in the background, unless it is up. */
  warm(): void;
  /** Ends every worker. */
  close(): Promise<void>;
  /** `worker`, or `thread` when programs run in the calling thread. */
  readonly where: "worker" | "thread";
}

export interface PoolOptions {
  limits: SandboxLimits;
  /** Programs that may run at once (default: the cores, from 2 to 4). */
  maxWorkers?: number;
  /** The worker's entry (default: worker.js beside this file). */
  entry?: URL;
}

interface Slot {
  worker: Worker;
  /** The run in progress, if any. */
  current?: {
    id: number;
    host: ProgramHost;
    resolve(outcome: ProgramOutcome): void;
    calls: number;
    timer: NodeJS.Timeout;
  };
  idleTimer?: NodeJS.Timeout;
}

/** The native stack a worker needs for `maxStackBytes` of QuickJS stack (measured: ~24x, at least 8 MB). */
function workerStackMb(maxStackBytes: number): number {
  return Math.max(8, Math.ceil(maxStackBytes / 1024 / 24));
}

export function createSandboxPool(options: PoolOptions): SandboxPool {
  const { limits } = options;
  const entry = options.entry ?? new URL("./worker.js", import.meta.url);
  if (!existsSync(fileURLToPath(entry))) return createThreadRunner(limits);
  const maxWorkers = options.maxWorkers ?? Math.max(2, Math.min(4, availableParallelism()));
  const slots = new Set<Slot>();
  const idle: Slot[] = [];
  const waiting: {
    source: string;
    host: ProgramHost;
    signal?: AbortSignal;
    resolve(outcome: ProgramOutcome): void;
  }[] = [];
  let nextRun = 0;
  let closed = false;

  const spawn = (): Slot => {
    const worker = new Worker(entry, {
      workerData: { memoryBytes: limits.memoryBytes },
      resourceLimits: { stackSizeMb: workerStackMb(limits.maxStackBytes) },
      // Nothing of a worker may reach stdout, the stdio transport's channel.
      stdout: true,
      stderr: true,
    });
    worker.stdout.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    worker.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
    worker.unref();
    const slot: Slot = { worker };
    slots.add(slot);
    worker.on("message", (message: FromWorker) => onMessage(slot, message));
    worker.on("error", (error: Error & { code?: string }) => end(slot, deathOutcome(error)));
    worker.on("exit", () => end(slot, { kind: "crashed", message: "the sandbox's thread ended" }));
    return slot;
  };

  const onMessage = (slot: Slot, message: FromWorker) => {
    const current = slot.current;
    if (current === undefined || message.run !== current.id) return;
    if (message.type === "call") {
      current.calls++;
      void current.host.call(message.name, message.args).then((answer) => {
        if (slot.current?.id === message.run) {
          slot.worker.postMessage({ type: "answer", call: message.call, answer } satisfies ToWorker);
        }
      });
      return;
    }
    clearTimeout(current.timer);
    slot.current = undefined;
    if (message.type === "failed") {
      current.resolve({ kind: "crashed", message: message.message, logs: [], calls: current.calls });
      retire(slot);
    } else {
      current.resolve(message.outcome);
      if (message.memoryBytes > RECYCLE_BYTES) retire(slot);
      else release(slot);
    }
    next();
  };

  /** The slot's worker died or was terminated: its run ends with `outcome`, and it is gone. */
  const end = (
    slot: Slot,
    outcome: { kind: "crashed"; message: string } | { kind: "stopped"; limit: "stack" | "memory" | "time" },
  ) => {
    if (!slots.has(slot)) return;
    slots.delete(slot);
    const index = idle.indexOf(slot);
    if (index >= 0) idle.splice(index, 1);
    clearTimeout(slot.idleTimer);
    const current = slot.current;
    slot.current = undefined;
    if (current !== undefined) {
      clearTimeout(current.timer);
      current.resolve({ ...outcome, logs: [], calls: current.calls });
    }
    void slot.worker.terminate();
    next();
  };

  const retire = (slot: Slot) => {
    slots.delete(slot);
    void slot.worker.terminate();
  };

  const release = (slot: Slot) => {
    if (closed) return retire(slot);
    idle.push(slot);
    if (idle.length > 1) {
      slot.idleTimer = setTimeout(() => {
        const index = idle.indexOf(slot);
        if (index >= 0 && idle.length > 1) {
          idle.splice(index, 1);
          retire(slot);
        }
      }, IDLE_MS);
      slot.idleTimer.unref();
    }
  };

  const start = (
    slot: Slot,
    source: string,
    host: ProgramHost,
    resolve: (outcome: ProgramOutcome) => void,
    signal?: AbortSignal,
  ) => {
    clearTimeout(slot.idleTimer);
    const id = nextRun++;
    const timer = setTimeout(
      () => end(slot, { kind: "stopped", limit: "time" }),
      limits.timeoutMs + GRACE_MS,
    );
    timer.unref();
    const onCancel = () => {
      if (slot.current?.id === id) end(slot, CANCELLED);
    };
    signal?.addEventListener("abort", onCancel, { once: true });
    const settle = (outcome: ProgramOutcome) => {
      signal?.removeEventListener("abort", onCancel);
      resolve(outcome);
    };
    slot.current = { id, host, resolve: settle, calls: 0, timer };
    slot.worker.postMessage({ type: "run", run: id, source, limits } satisfies ToWorker);
  };

  const next = () => {
    while (waiting.length > 0 && !closed) {
      const slot = idle.pop() ?? (slots.size < maxWorkers ? spawn() : undefined);
      if (slot === undefined) return;
      const job = waiting.shift()!;
      if (job.signal?.aborted) {
        job.resolve({ ...CANCELLED, logs: [], calls: 0 });
        release(slot);
        continue;
      }
      start(slot, job.source, job.host, job.resolve, job.signal);
    }
  };

  return {
    where: "worker",
    run(source, host, signal) {
      if (closed)
        return Promise.resolve({ kind: "crashed", message: "the bridge is closing", logs: [], calls: 0 });
      if (signal?.aborted) return Promise.resolve({ ...CANCELLED, logs: [], calls: 0 });
      return new Promise((resolve) => {
        waiting.push({ source, host, resolve, ...(signal ? { signal } : {}) });
        next();
      });
    },
    warm() {
      if (slots.size === 0 && !closed) release(spawn());
    },
    async close() {
      closed = true;
      for (const job of waiting.splice(0))
        job.resolve({ kind: "crashed", message: "the bridge is closing", logs: [], calls: 0 });
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
      slots.clear();
      idle.length = 0;
    },
  };
}

/** How a program the client cancelled ends (its worker is ended: see SandboxPool.run). */
const CANCELLED = { kind: "crashed", message: "the client cancelled the program" } as const;

/** What a worker's death means: its native stack or heap ran out, or something else. */
function deathOutcome(
  error: Error & { code?: string },
): { kind: "crashed"; message: string } | { kind: "stopped"; limit: "stack" | "memory" } {
  if (error.code === "ERR_WORKER_OUT_OF_MEMORY") return { kind: "stopped", limit: "memory" };
  if (/Maximum call stack size exceeded/.test(error.message)) return { kind: "stopped", limit: "stack" };
  return { kind: "crashed", message: error.message };
}

/** Programs in the calling thread, one at a time (no worker entry: running from source). */
function createThreadRunner(limits: SandboxLimits): SandboxPool {
  const threadLimits = { ...limits, maxStackBytes: Math.min(limits.maxStackBytes, IN_THREAD_MAX_STACK) };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    where: "thread",
    run(source, host) {
      const result = queue.then(async (): Promise<ProgramOutcome> => {
        const { stripTypes } = await import("../strip-types.js");
        try {
          const module = await loadQuickJs(threadLimits.memoryBytes);
          return await runProgram(module, { source, limits: threadLimits, stripTypes }, host);
        } catch (error) {
          discardQuickJs(threadLimits.memoryBytes);
          return {
            kind: "crashed",
            message: error instanceof Error ? error.message : String(error),
            logs: [],
            calls: 0,
          };
        }
      });
      queue = result.catch(() => undefined);
      return result;
    },
    warm() {
      void loadQuickJs(threadLimits.memoryBytes).catch(() => undefined);
    },
    async close() {},
  };
}
