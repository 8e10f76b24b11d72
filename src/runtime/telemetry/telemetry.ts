/**
 * The hooks the rest of the runtime calls to be traced and measured, and the switch that turns
 * them on. Off (the default), every hook is a no-op and no OpenTelemetry package is loaded:
 * this module imports none, and otel-telemetry.ts (which does) is imported only by
 * startTelemetry once an OTLP endpoint or a metrics port is given. One telemetry per process,
 * as OpenTelemetry's own providers are: every API and session of a bridge reports to it.
 */
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { failWith } from "../../model/diagnostics.js";
import type { OutgoingRequest } from "../request/build-request.js";
import type { TraceContext } from "../request/trace-context.js";
import type { CircuitBreaker } from "../upstream/circuit.js";
import { resolveTelemetryOptions, type TelemetryOptions } from "./telemetry-options.js";

/** The code of telemetry asked for without its packages installed. */
export const TELEMETRY_UNAVAILABLE: DiagnosticCode = "OMB_TELEMETRY_UNAVAILABLE";

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

const NOOP: Telemetry = {
  traceRequest: (_facts, parent, run) => run(parent),
  traceToolCall: (_facts, parent, run) => run(parent),
  startAttempt: () => undefined,
  countSandboxRun: () => {},
};

let active: Telemetry = NOOP;

/** The process's telemetry: the no-op one unless startTelemetry turned it on. */
export function getTelemetry(): Telemetry {
  return active;
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

/** Telemetry that runs: what the start-up line says, and its stop (which flushes what is pending). */
export interface RunningTelemetry {
  describe: string;
  close(): Promise<void>;
}

/** The loaded implementation (otel-telemetry.ts). */
export interface TelemetryBackend {
  telemetry: Telemetry;
  describe: string;
  shutdown(): Promise<void>;
}

/**
 * Turns telemetry on when the options ask for any export, loading OpenTelemetry then (and only
 * then); undefined, with nothing loaded, when they ask for none.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<RunningTelemetry | undefined> {
  const resolved = resolveTelemetryOptions(options);
  if (resolved === undefined) return undefined;
  let backend: TelemetryBackend;
  try {
    const { createOtelTelemetry } = await import("./otel-telemetry.js");
    backend = await createOtelTelemetry(resolved);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const missing = /@opentelemetry\/[a-z-]+/.exec((error as Error).message ?? "")?.[0];
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && missing !== undefined) {
      return failWith(TELEMETRY_UNAVAILABLE, `telemetry needs ${missing}, which is not installed`, {
        hint: "install the bridge with its dependencies (npm install without --omit), or turn telemetry off",
      });
    }
    throw error;
  }
  active = backend.telemetry;
  let closing: Promise<void> | undefined;
  return {
    describe: backend.describe,
    close: () => {
      closing ??= (async () => {
        active = NOOP;
        await backend.shutdown();
      })();
      return closing;
    },
  };
}
