/**
 * Where programs run: worker threads, so that a program that computes (or loops) never holds up
 * the bridge's event loop, and other sessions keep being served while it runs or is stopped.
 *
 * - Warm: the first worker starts (and loads QuickJS) when code mode is first listed; a worker
 *   runs one program at a time and is reused. Up to `maxWorkers` run at once; more programs wait
 *   for one in a bounded queue where each session has its share (program-queue.ts): one session
 *   runs at most all workers but one, and a program cancelled or out of time while it waits
 *   leaves the queue at once. Idle workers beyond the first are ended after a minute.
 * - A call whose arguments are longer than the per-call byte cap is refused here, before the
 *   host parses any of it (the worker refuses it first; this is the main thread's own check).
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
import type { Worker } from "node:worker_threads";
import { refuseCallBytes } from "./call-bytes.js";
import { discardQuickJs, loadQuickJs, type ProgramHost, type ProgramOutcome, runProgram } from "./engine.js";
import { DEFAULT_POOL_SHARE, type PoolShare, type SandboxLimits } from "./limits.js";
import type { FromWorker, ToWorker } from "./messages.js";
import { createProgramQueue, type DropReason, type QueueClock } from "./program-queue.js";

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
  run(source: string, host: ProgramHost, options?: RunOptions): Promise<ProgramOutcome>;
  /** Starts the first worker in the background, unless it is up. */
  warm(): void;
  /** Ends every worker. */
  close(): Promise<void>;
  /** `worker`, or `thread` when programs run in the calling thread. */
  readonly where: "worker" | "thread";
}

export interface RunOptions {
  /** Aborted when the client cancels. */
  signal?: AbortSignal;
  /** The MCP session the program runs for: its share of the pool is counted by it. */
  session?: string;
}

export interface PoolOptions {
  limits: SandboxLimits;
  /** Programs that may run at once (default: the cores, from 2 to 4). */
  maxWorkers?: number;
  /** How sessions share the pool (default: DEFAULT_POOL_SHARE, all workers but one per session). */
  share?: Partial<PoolShare>;
  /** The queue's timers (tests). */
  clock?: QueueClock;
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
    session: string | undefined;
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
  interface Job {
    source: string;
    host: ProgramHost;
    session: string | undefined;
    signal?: AbortSignal;
    resolve(outcome: ProgramOutcome): void;
  }
  const waiting = createProgramQueue<Job>(
    {
      maxWaiting: options.share?.maxWaiting ?? DEFAULT_POOL_SHARE.maxWaiting,
      maxWaitingPerSession: options.share?.maxWaitingPerSession ?? DEFAULT_POOL_SHARE.maxWaitingPerSession,
      maxRunningPerSession: options.share?.maxRunningPerSession ?? Math.max(1, maxWorkers - 1),
      waitMs: limits.timeoutMs,
      ...(options.clock ? { clock: options.clock } : {}),
    },
    (job, why) => job.resolve(droppedOutcome(why, limits)),
  );
  let nextRun = 0;
  let closed = false;

  const spawn = (): Slot => {
    // worker_threads is loaded with the first program, not with every start.
    const worker = new (process.getBuiltinModule("node:worker_threads").Worker)(entry, {
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
      const refused = refuseCallBytes(message.name, message.args.length, limits);
      const answering =
        refused !== undefined ? Promise.resolve(refused) : current.host.call(message.name, message.args);
      void answering.then((answer) => {
        if (slot.current?.id === message.run) {
          slot.worker.postMessage({ type: "answer", call: message.call, answer } satisfies ToWorker);
        }
      });
      return;
    }
    clearTimeout(current.timer);
    slot.current = undefined;
    if (message.type === "failed") {
      settleRun(current, { kind: "crashed", message: message.message, logs: [], calls: current.calls });
      retire(slot);
    } else {
      settleRun(current, message.outcome);
      if (message.memoryBytes > RECYCLE_BYTES) retire(slot);
      else release(slot);
    }
    next();
  };

  /** The slot's worker died or was terminated: its run ends with `outcome`, and it is gone. */
  /** The slot's run ended: its session's share is free again. */
  const settleRun = (current: NonNullable<Slot["current"]>, outcome: ProgramOutcome) => {
    waiting.finish(current.session);
    current.resolve(outcome);
  };

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
      settleRun(current, { ...outcome, logs: [], calls: current.calls });
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

  const start = (slot: Slot, job: Job) => {
    const { source, host, resolve, signal } = job;
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
    slot.current = { id, host, resolve: settle, calls: 0, timer, session: job.session };
    slot.worker.postMessage({ type: "run", run: id, source, limits } satisfies ToWorker);
  };

  const next = () => {
    while (waiting.waiting > 0 && !closed) {
      if (idle.length === 0 && slots.size >= maxWorkers) return;
      // Only a job whose session is under its share: the others wait for one of theirs to end.
      const job = waiting.take();
      if (job === undefined) return;
      start(idle.pop() ?? spawn(), job);
    }
  };

  return {
    where: "worker",
    run(source, host, options = {}) {
      const { signal, session } = options;
      if (closed)
        return Promise.resolve({ kind: "crashed", message: "the bridge is closing", logs: [], calls: 0 });
      if (signal?.aborted) return Promise.resolve({ ...CANCELLED, logs: [], calls: 0 });
      return new Promise((resolve) => {
        const job: Job = { source, host, resolve, session, ...(signal ? { signal } : {}) };
        const refused = waiting.add(job, session, signal);
        if (refused !== undefined) return resolve({ kind: "busy", message: refused, logs: [], calls: 0 });
        next();
      });
    },
    warm() {
      if (slots.size === 0 && !closed) release(spawn());
    },
    async close() {
      closed = true;
      for (const job of waiting.drain())
        job.resolve({ kind: "crashed", message: "the bridge is closing", logs: [], calls: 0 });
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
      slots.clear();
      idle.length = 0;
    },
  };
}

/** How a program the client cancelled ends (its worker is ended: see SandboxPool.run). */
const CANCELLED = { kind: "crashed", message: "the client cancelled the program" } as const;

/** How a program that left the queue without starting ends. */
function droppedOutcome(why: DropReason, limits: SandboxLimits): ProgramOutcome {
  if (why === "cancelled") return { ...CANCELLED, logs: [], calls: 0 };
  return {
    kind: "busy",
    message: `every sandbox worker was busy for ${limits.timeoutMs} ms, the program's whole wall time, so it did not start`,
    logs: [],
    calls: 0,
  };
}

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
