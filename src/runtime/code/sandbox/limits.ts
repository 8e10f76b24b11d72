/**
 * What one program may use: its wall time, memory, API calls, the bytes its calls carry in and
 * out, console output and stack, each with its default and the option that sets it. The option table cites both; the engine and
 * the messages of a program stopped at a limit read them here.
 */
export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  maxCalls: number;
  /**
   * Bytes of one call's arguments (JSON) and of one answer handed to the program: measured on
   * the text the worker sends, before the main thread parses or encodes any of it.
   */
  maxCallBytes: number;
  /** Bytes of all the answers one program is handed, together. */
  maxAnswerBytes: number;
  maxLogChars: number;
  maxStackBytes: number;
}

const MIB = 1024 * 1024;

/** Each limit's default (the option table's `--code-*` options cite them). */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeoutMs: 30_000,
  memoryBytes: 64 * MIB,
  maxCalls: 50,
  // One answer a fraction of the program's memory (parsed JSON takes a few times its text);
  // all of them a quarter of what 50 calls of a 4 MiB answer would be.
  maxCallBytes: 4 * MIB,
  maxAnswerBytes: 32 * MIB,
  maxLogChars: 10_000,
  maxStackBytes: 256 * 1024,
};

/**
 * The option that sets each limit, as `serve` and generated servers spell it: a program stopped
 * at a limit is told which option raises it. The option table takes these flags from here.
 */
export const SANDBOX_LIMIT_FLAGS: Readonly<Record<keyof SandboxLimits, string>> = {
  timeoutMs: "code-timeout",
  memoryBytes: "code-memory",
  maxCalls: "code-max-calls",
  maxCallBytes: "code-max-call-bytes",
  maxAnswerBytes: "code-max-answer-bytes",
  maxLogChars: "code-max-log-chars",
  maxStackBytes: "code-max-stack",
};

/** The one place the sandbox's defaults are applied. */
export function resolveSandboxLimits(given: Partial<SandboxLimits> = {}): SandboxLimits {
  return {
    timeoutMs: given.timeoutMs ?? DEFAULT_SANDBOX_LIMITS.timeoutMs,
    memoryBytes: given.memoryBytes ?? DEFAULT_SANDBOX_LIMITS.memoryBytes,
    maxCalls: given.maxCalls ?? DEFAULT_SANDBOX_LIMITS.maxCalls,
    maxCallBytes: given.maxCallBytes ?? DEFAULT_SANDBOX_LIMITS.maxCallBytes,
    maxAnswerBytes: given.maxAnswerBytes ?? DEFAULT_SANDBOX_LIMITS.maxAnswerBytes,
    maxLogChars: given.maxLogChars ?? DEFAULT_SANDBOX_LIMITS.maxLogChars,
    maxStackBytes: given.maxStackBytes ?? DEFAULT_SANDBOX_LIMITS.maxStackBytes,
  };
}

export type LimitName = "time" | "memory" | "calls" | "logs" | "stack";

/**
 * How the programs of all sessions share the sandbox pool (pool.ts, program-queue.ts): how many
 * may wait for a worker, and how many one MCP session may have running and waiting, so that
 * one session flooding execute cannot keep the others from code mode.
 */
export interface PoolShare {
  /** Programs waiting for a worker, all sessions together; one more is refused at once. */
  maxWaiting: number;
  /** Programs of one session running at once (at least 1; the pool keeps the rest for others). */
  maxRunningPerSession: number;
  /** Programs of one session waiting for a worker; one more is refused at once. */
  maxWaitingPerSession: number;
}

/** The share's defaults; a session may run all workers but one (`maxRunningPerSession` is derived). */
export const DEFAULT_POOL_SHARE: Omit<PoolShare, "maxRunningPerSession"> = {
  maxWaiting: 64,
  maxWaitingPerSession: 4,
};
