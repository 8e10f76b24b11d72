/**
 * A circuit breaker per upstream origin: after `failureThreshold` consecutive failed attempts
 * (no answer, or a 5xx) calls fail fast for `cooldownMs`; then one trial call goes through
 * (half-open) and its outcome closes or reopens the circuit.
 */
import { OPTION_TABLE } from "../settings/option-table.js";

export interface CircuitOptions {
  /** Consecutive failures that open the circuit (default 5; 0 disables the breaker). */
  failureThreshold?: number;
  /** How long an open circuit fails fast before a trial call (default 30,000 ms). */
  cooldownMs?: number;
}

type CircuitState =
  | { kind: "closed"; failures: number }
  | { kind: "open"; openedAt: number; lastFailure: string }
  | { kind: "half-open" };

export type CircuitDecision = { allowed: true } | { allowed: false; message: string; retryAfterMs: number };

export interface CircuitBreaker {
  /** Before an attempt: may it go out? A half-open circuit lets exactly one through. */
  check(origin: string): CircuitDecision;
  /** Like `check`, without moving an open circuit to half-open: false only while it fails fast. */
  peek(origin: string): CircuitDecision;
  recordSuccess(origin: string): void;
  recordFailure(origin: string, description: string): void;
  /** For messages and tests. */
  stateOf(origin: string): "closed" | "open" | "half-open";
}

export function createCircuitBreaker(
  options: CircuitOptions = {},
  now: () => number = Date.now,
): CircuitBreaker {
  const threshold = Math.max(0, Math.floor(options.failureThreshold ?? OPTION_TABLE.circuitBreaker.default));
  const cooldownMs = Math.max(0, options.cooldownMs ?? OPTION_TABLE.circuitCooldown.default);
  const circuits = new Map<string, CircuitState>();
  const stateOf = (origin: string) => circuits.get(origin) ?? { kind: "closed" as const, failures: 0 };

  const openDecision = (origin: string, state: Extract<CircuitState, { kind: "open" }>) => {
    const retryAfterMs = cooldownMs - (now() - state.openedAt);
    return {
      allowed: false as const,
      retryAfterMs,
      message:
        `the bridge stopped calling ${origin} after ${threshold} failures in a row (last: ${state.lastFailure}); ` +
        `calls fail fast for another ${Math.ceil(retryAfterMs / 1000)} s, then one trial call is let through`,
    };
  };

  return {
    peek(origin) {
      const state = stateOf(origin);
      if (threshold > 0 && state.kind === "open" && now() - state.openedAt < cooldownMs) {
        return openDecision(origin, state);
      }
      return { allowed: true };
    },
    check(origin) {
      if (threshold === 0) return { allowed: true };
      const state = stateOf(origin);
      if (state.kind === "closed") return { allowed: true };
      if (state.kind === "open") {
        if (now() - state.openedAt >= cooldownMs) {
          circuits.set(origin, { kind: "half-open" });
          return { allowed: true };
        }
        return openDecision(origin, state);
      }
      return {
        allowed: false,
        retryAfterMs: 0,
        message: `the bridge is testing whether ${origin} has recovered with one trial call; try again in a moment`,
      };
    },
    recordSuccess(origin) {
      if (threshold === 0) return;
      circuits.delete(origin);
    },
    recordFailure(origin, description) {
      if (threshold === 0) return;
      const state = stateOf(origin);
      if (state.kind === "closed" && state.failures + 1 < threshold) {
        circuits.set(origin, { kind: "closed", failures: state.failures + 1 });
        return;
      }
      circuits.set(origin, { kind: "open", openedAt: now(), lastFailure: description });
    },
    stateOf(origin) {
      return stateOf(origin).kind;
    },
  };
}
