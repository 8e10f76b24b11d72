/**
 * What the runtime tells telemetry (telemetry.ts turns it on; otel-telemetry.ts implements it):
 * the hooks' types, and the session stores and circuit breakers its gauges read. Loads nothing.
 */
import type { OutgoingRequest } from "../request/build-request.js";
import type { TraceContext } from "../request/trace-context.js";
import type { CircuitBreaker } from "../upstream/circuit.js";

/** An MCP request the bridge answers itself (tools/list, tools/call). */
export interface McpRequestFacts {
  method: string;
  /** The tool a tools/call names. */
  tool?: string;
  transport: "http" | "stdio";
  protocolVersion?: string;
}

/** One call of an operation (a tool in tools mode; call_operation's, or a program's `api.<name>()`). */
export interface ToolCallFacts {
  tool: string;
  /** tools, discovery or code. */
  mode: string;
}

/** What an upstream call tells the spans of its attempts. */
export interface UpstreamCallFacts {
  /** The trace context the call runs in (its tool call's span). */
  parent?: TraceContext;
  /** The operation's path template (`/pets/{petId}`): the span's name and `url.template`. */
  template?: string;
  /** This call's secrets in every form (auth/secret-forms.ts): never in a span. */
  secrets?: () => readonly string[];
}

/** How one attempt ended: an HTTP status, or a failure (upstream/send.ts: UpstreamFailure). */
export type AttemptOutcome =
  | { status: number }
  | { failure: { kind: string; code: string; message: string } };

/** One HTTP attempt in flight: the request to send (its traceparent names the attempt's span). */
export interface UpstreamAttempt {
  request: OutgoingRequest;
  end(outcome: AttemptOutcome): void;
}

export interface Telemetry {
  /** Runs an MCP request's work under its span; `run` gets the trace context to pass on. */
  traceRequest<T>(
    facts: McpRequestFacts,
    parent: TraceContext | undefined,
    run: (trace: TraceContext | undefined) => Promise<T>,
  ): Promise<T>;
  /** Runs one operation call under its span, counted by tool, mode and outcome. */
  traceToolCall<T>(
    facts: ToolCallFacts,
    parent: TraceContext | undefined,
    run: (trace: TraceContext | undefined) => Promise<T>,
  ): Promise<T>;
  /** An attempt of an upstream request (retries are attempts too); undefined: send as it is. */
  startAttempt(
    request: OutgoingRequest,
    attempt: number,
    facts: UpstreamCallFacts,
  ): UpstreamAttempt | undefined;
  /** A code-mode program ended: returned, threw, syntax, stopped, crashed, busy or cancelled. */
  countSandboxRun(outcome: string): void;
}

/** HTTP session stores (each reports its size) and circuit breakers, read when metrics are collected. */
const sessionCounts = new Set<() => number>();
const breakers = new Set<CircuitBreaker>();

/** Counts a session store's sessions in the active-sessions gauge until the returned function is called. */
export function watchSessions(count: () => number): () => void {
  sessionCounts.add(count);
  return () => sessionCounts.delete(count);
}

/** Reports a circuit breaker's open circuits in the breaker gauge until the returned function is called. */
export function watchBreaker(breaker: CircuitBreaker): () => void {
  breakers.add(breaker);
  return () => breakers.delete(breaker);
}

/** What the gauges read. */
export function readWatched(): { sessions: number; breakers: readonly CircuitBreaker[] } {
  let sessions = 0;
  for (const count of sessionCounts) sessions += count();
  return { sessions, breakers: [...breakers] };
}

/** The loaded implementation (otel-telemetry.ts). */
export interface TelemetryBackend {
  telemetry: Telemetry;
  describe: string;
  shutdown(): Promise<void>;
}
