/**
 * The circuit breaker: calls fail fast while the API is not answering, and only then. It counts
 * whole calls (never retry attempts), and only outcomes that say the API is not answering;
 * an HTTP answer, a 500 or any 4xx included, is the API answering, and a request that never
 * left the bridge says nothing about it.
 *
 * Two kinds of circuit, so that no caller can open one for everyone by what it sends:
 * - one per origin, opened by calls that could not connect at all (refused, DNS, connect
 *   timeout): the API is down for every tool and every user;
 * - one per operation and caller (the MCP session, or the pass-through credential), opened by
 *   calls that connected but got no answer: a timeout, a reset, a gateway's 502 or 504. One slow
 *   endpoint, or one user's expensive arguments, fail fast for that operation and caller only.
 *
 * After `failureThreshold` such calls in a row a circuit opens; after `cooldownMs` one trial
 * call goes through (half-open) and its outcome closes or reopens it.
 */
export interface CircuitOptions {
  /** Consecutive unavailable calls that open a circuit (default 5; 0 disables the breaker). */
  failureThreshold?: number;
  /** How long an open circuit fails fast before a trial call (default 5,000 ms). */
  cooldownMs?: number;
}

/** The breaker's defaults (`--circuit-breaker` and `--circuit-cooldown` cite them). */
export const DEFAULT_CIRCUIT: Required<CircuitOptions> = { failureThreshold: 5, cooldownMs: 5_000 };

/** A breaker's options with the defaults applied: what createCircuitBreaker works with. */
export function resolveCircuitOptions(options: CircuitOptions | false = {}): Required<CircuitOptions> {
  if (options === false) return { ...DEFAULT_CIRCUIT, failureThreshold: 0 };
  return {
    failureThreshold: Math.max(0, Math.floor(options.failureThreshold ?? DEFAULT_CIRCUIT.failureThreshold)),
    cooldownMs: Math.max(0, options.cooldownMs ?? DEFAULT_CIRCUIT.cooldownMs),
  };
}

/** What one finished call says about whether the API answers. */
export type Availability =
  /** An HTTP answer other than a gateway's 502/504 (a 500 or a 4xx included). */
  | "answered"
  /** No connection could be made: the origin is down. */
  | "unreachable"
  /** Connected, but no answer: a timeout, a reset, a gateway's 502 or 504. */
  | "unresponsive"
  /** Nothing left the bridge (a request the HTTP client refused to build). */
  | "local";

/** Where a call goes, as the breaker tells calls apart. */
export interface CircuitKey {
  origin: string;
  /** The operation as messages name it: `GET /items/{id}`. */
  operation: string;
  /** Who calls: an MCP session or a credential; "" when callers cannot be told apart. */
  caller: string;
}

/** What `admit` hands a call that may go out: give it back to `record` with the outcome. */
export interface CircuitTicket {
  readonly key: CircuitKey;
  /** The circuits this call is the half-open trial of. */
  readonly trials: readonly string[];
}

export type CircuitDecision = { allowed: true } | { allowed: false; message: string; retryAfterMs: number };
export type Admission =
  | { allowed: true; ticket: CircuitTicket }
  | { allowed: false; message: string; retryAfterMs: number };

export type CircuitStateName = "closed" | "open" | "half-open";

export interface CircuitBreaker {
  /** Before a call: may it go out? A half-open circuit lets exactly one call through, its trial. */
  admit(key: CircuitKey): Admission;
  /** Like `admit`, changing nothing: refused only while a circuit fails fast. */
  peek(key: CircuitKey): CircuitDecision;
  /** After the call, once, with what its outcome says (`description`: the last failure, for messages). */
  record(ticket: CircuitTicket, availability: Availability, description: string): void;
  /** For messages and tests: the origin's circuit, or the operation's for this caller. */
  stateOf(key: CircuitKey, circuit: "origin" | "operation"): CircuitStateName;
  /** For the breaker gauge (telemetry/): how many circuits are open or half-open, by kind. */
  countStates(): Array<{ circuit: "origin" | "operation"; state: "open" | "half-open"; count: number }>;
}

type CircuitState =
  | { kind: "closed"; failures: number }
  | { kind: "open"; openedAt: number; lastFailure: string }
  | { kind: "half-open"; lastFailure: string };

const ALLOWED: CircuitDecision = Object.freeze({ allowed: true });

/** Operation circuits kept at most (sessions × operations can grow); the oldest go first. */
const MAX_CIRCUITS = 10_000;

export function createCircuitBreaker(
  options: Required<CircuitOptions>,
  now: () => number = Date.now,
): CircuitBreaker {
  const { failureThreshold: threshold, cooldownMs } = options;
  const circuits = new Map<string, CircuitState>();
  const stateOf = (id: string): CircuitState => circuits.get(id) ?? { kind: "closed", failures: 0 };
  const originId = (key: CircuitKey) => `origin ${key.origin}`;
  const operationId = (key: CircuitKey) => `operation ${key.origin} ${key.operation} ${key.caller}`;

  /** Why a circuit refuses a call now, or undefined; `reserve`: an elapsed cool-down admits (a trial). */
  const refusal = (id: string, key: CircuitKey, reserve: boolean) => {
    const state = stateOf(id);
    const isOrigin = id === originId(key);
    if (state.kind === "open") {
      const retryAfterMs = cooldownMs - (now() - state.openedAt);
      if (retryAfterMs <= 0) return undefined;
      const seconds = Math.ceil(retryAfterMs / 1000);
      const message = isOrigin
        ? `the bridge stopped calling ${key.origin} after ${threshold} calls in a row could not connect ` +
          `(last: ${state.lastFailure}); calls fail fast for another ${seconds} s, then one trial call is let through`
        : `${key.operation} did not answer ${threshold} calls in a row (last: ${state.lastFailure}); calls to it ` +
          `fail fast for another ${seconds} s, then one trial call is let through; other tools are not affected`;
      return { message, retryAfterMs };
    }
    if (state.kind === "half-open" && reserve) {
      const what = isOrigin ? key.origin : key.operation;
      return {
        message: `the bridge is testing whether ${what} answers again with one trial call; try again in a moment`,
        retryAfterMs: 0,
      };
    }
    return undefined;
  };

  const fail = (id: string, description: string, trial: boolean) => {
    const state = stateOf(id);
    if (!trial && state.kind === "closed" && state.failures + 1 < threshold) {
      circuits.delete(id); // re-inserted last: the map stays in order of use
      circuits.set(id, { kind: "closed", failures: state.failures + 1 });
    } else if (trial || state.kind === "closed") {
      circuits.delete(id);
      circuits.set(id, { kind: "open", openedAt: now(), lastFailure: description });
    }
    // Calls admitted before the circuit opened that fail later change nothing: it is open already.
    if (circuits.size > MAX_CIRCUITS) {
      const oldest = circuits.keys().next().value;
      if (oldest !== undefined) circuits.delete(oldest);
    }
  };

  /** A trial that says nothing about its circuit gives the trial back: the next call is one. */
  const release = (id: string) => {
    const state = circuits.get(id);
    if (state?.kind === "half-open") {
      circuits.set(id, { kind: "open", openedAt: now() - cooldownMs, lastFailure: state.lastFailure });
    }
  };

  return {
    admit(key) {
      // No circuit has a failure on record (the common case): nothing can refuse nor be a trial.
      if (threshold === 0 || circuits.size === 0) return { allowed: true, ticket: { key, trials: [] } };
      const ids = [originId(key), operationId(key)];
      for (const id of ids) {
        const refused = refusal(id, key, true);
        if (refused) return { allowed: false, ...refused };
      }
      const trials: string[] = [];
      for (const id of ids) {
        const state = stateOf(id);
        if (state.kind === "open") {
          circuits.set(id, { kind: "half-open", lastFailure: state.lastFailure });
          trials.push(id);
        }
      }
      return { allowed: true, ticket: { key, trials } };
    },
    peek(key) {
      if (threshold === 0 || circuits.size === 0) return ALLOWED;
      for (const id of [originId(key), operationId(key)]) {
        const refused = refusal(id, key, false);
        if (refused) return { allowed: false, ...refused };
      }
      return { allowed: true };
    },
    record(ticket, availability, description) {
      if (threshold === 0) return;
      // An answer clears the call's circuits: none to clear when none is kept.
      if (availability === "answered" && circuits.size === 0) return;
      const origin = originId(ticket.key);
      const operation = operationId(ticket.key);
      const isTrial = (id: string) => ticket.trials.includes(id);
      switch (availability) {
        case "answered":
          circuits.delete(origin);
          circuits.delete(operation);
          return;
        case "unreachable":
          fail(origin, description, isTrial(origin));
          if (isTrial(operation)) release(operation);
          return;
        case "unresponsive":
          circuits.delete(origin); // it connected: the origin is up
          fail(operation, description, isTrial(operation));
          return;
        case "local":
          for (const id of ticket.trials) release(id);
          return;
      }
    },
    stateOf(key, circuit) {
      return stateOf(circuit === "origin" ? originId(key) : operationId(key)).kind;
    },
    countStates() {
      const counts = new Map<string, number>();
      for (const [id, state] of circuits) {
        if (state.kind === "closed") continue;
        const key = `${id.startsWith("origin ") ? "origin" : "operation"} ${state.kind}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return [...counts].map(([key, count]) => {
        const [circuit, state] = key.split(" ") as ["origin" | "operation", "open" | "half-open"];
        return { circuit, state, count };
      });
    },
  };
}
