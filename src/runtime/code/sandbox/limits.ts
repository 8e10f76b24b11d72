/**
 * What one program may use: its wall time, memory, API calls, console output and stack, each
 * with its default and the option that sets it. The option table cites both; the engine and
 * the messages of a program stopped at a limit read them here.
 */
export interface SandboxLimits {
  timeoutMs: number;
  memoryBytes: number;
  maxCalls: number;
  maxLogChars: number;
  maxStackBytes: number;
}

const MIB = 1024 * 1024;

/** Each limit's default (the option table's `--code-*` options cite them). */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeoutMs: 30_000,
  memoryBytes: 64 * MIB,
  maxCalls: 50,
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
  maxLogChars: "code-max-log-chars",
  maxStackBytes: "code-max-stack",
};

/** The one place the sandbox's defaults are applied. */
export function resolveSandboxLimits(given: Partial<SandboxLimits> = {}): SandboxLimits {
  return {
    timeoutMs: given.timeoutMs ?? DEFAULT_SANDBOX_LIMITS.timeoutMs,
    memoryBytes: given.memoryBytes ?? DEFAULT_SANDBOX_LIMITS.memoryBytes,
    maxCalls: given.maxCalls ?? DEFAULT_SANDBOX_LIMITS.maxCalls,
    maxLogChars: given.maxLogChars ?? DEFAULT_SANDBOX_LIMITS.maxLogChars,
    maxStackBytes: given.maxStackBytes ?? DEFAULT_SANDBOX_LIMITS.maxStackBytes,
  };
}

export type LimitName = "time" | "memory" | "calls" | "logs" | "stack";
