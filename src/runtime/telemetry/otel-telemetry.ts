/**
 * Telemetry with OpenTelemetry: spans (an MCP request → a tool call → each upstream attempt,
 * HTTP client conventions) and metrics, exported over OTLP/HTTP and as a Prometheus text
 * endpoint. Loaded only by telemetry.ts's startTelemetry, once an export is asked for: nothing
 * else imports this module, so a bridge without telemetry never loads an OpenTelemetry package.
 *
 * Spans join the caller's trace through the W3C traceparent the request's `_meta` carried
 * (request/trace-context.ts checked it); the parent of each span is handed down as a
 * TraceContext, so no context manager (and no async hook) is needed. Labels of metrics are the
 * tool's name (the model's: bounded), the mode, outcome categories and status classes: never a
 * URL, an id or anything a user typed.
 */
import { createServer, type Server } from "node:http";
import {
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { failWith } from "../../model/diagnostics.js";
import type { TraceContext } from "../request/trace-context.js";
import { createScrubber } from "../results/redact-secrets.js";
import { BRIDGE_VERSION } from "../version.js";
import {
  toOutcome,
  toParentIds,
  toSafeUrl,
  toServerFacts,
  toStatusClass,
  toTraceparent,
} from "./span-values.js";
import { readWatched, type Telemetry, type TelemetryBackend } from "./telemetry-hooks.js";
import type { ResolvedTelemetryOptions } from "./telemetry-options.js";

/** The instrumentation scope: the bridge itself. */
const SCOPE = "openapi-mcp-bridge";

/** The longest a stop waits for pending spans and metrics to go out. */
const SHUTDOWN_FLUSH_MS = 5_000;

/** Latency buckets in seconds: a fast API answers in milliseconds, a program may run for a minute. */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export async function createOtelTelemetry(options: ResolvedTelemetryOptions): Promise<TelemetryBackend> {
  // Ours first; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override.
  const resource = resourceFromAttributes({
    "service.name": options.serviceName,
    "service.version": BRIDGE_VERSION,
  }).merge(detectResources({ detectors: [envDetector] }));

  let tracerProvider: BasicTracerProvider | undefined;
  if (options.traces !== undefined) {
    const { url, protocol } = options.traces;
    const { OTLPTraceExporter } =
      protocol === "http/json"
        ? await import("@opentelemetry/exporter-trace-otlp-http")
        : await import("@opentelemetry/exporter-trace-otlp-proto");
    tracerProvider = new BasicTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
    });
  }

  const readers: MetricReader[] = [];
  if (options.otlpMetrics !== undefined) {
    const { url, protocol, intervalMs } = options.otlpMetrics;
    const { OTLPMetricExporter } =
      protocol === "http/json"
        ? await import("@opentelemetry/exporter-metrics-otlp-http")
        : await import("@opentelemetry/exporter-metrics-otlp-proto");
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url }),
        exportIntervalMillis: intervalMs,
        exportTimeoutMillis: Math.min(30_000, intervalMs),
      }),
    );
  }
  let metricsServer: Server | undefined;
  let metricsUrl: string | undefined;
  if (options.prometheus !== undefined) {
    const { PrometheusExporter } = await import("@opentelemetry/exporter-prometheus");
    const exporter = new PrometheusExporter({ preventServerStart: true });
    readers.push(exporter);
    const listening = await listenForScrapes(exporter, options.prometheus);
    metricsServer = listening.server;
    metricsUrl = listening.url;
  }
  const meterProvider = readers.length > 0 ? new MeterProvider({ resource, readers }) : undefined;

  const tracer = tracerProvider?.getTracer(SCOPE, BRIDGE_VERSION);
  const instruments = meterProvider !== undefined ? createInstruments(meterProvider) : undefined;
  const telemetry = createTelemetry(tracer, instruments);
  return {
    telemetry,
    describe: describeExports(options, metricsUrl),
    shutdown: async () => {
      // What is pending is flushed, but a collector that does not answer never holds a stop
      // longer than SHUTDOWN_FLUSH_MS (the exporters' own timeout is 10 to 30 s).
      let timer: NodeJS.Timeout | undefined;
      const flushed = Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]);
      await Promise.race([
        flushed,
        new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_FLUSH_MS))),
      ]);
      clearTimeout(timer);
      await new Promise<void>((resolve) =>
        metricsServer ? metricsServer.close(() => resolve()) : resolve(),
      );
    },
  };
}

interface Instruments {
  toolCalls: Counter;
  toolDuration: Histogram;
  requestDuration: Histogram;
  upstreamRequests: Counter;
  upstreamDuration: Histogram;
  sandboxRuns: Counter;
}

function createInstruments(provider: MeterProvider): Instruments {
  const meter = provider.getMeter(SCOPE, BRIDGE_VERSION);
  const seconds = { unit: "s", advice: { explicitBucketBoundaries: SECONDS_BUCKETS } };
  meter
    .createObservableGauge("omb.sessions.active", {
      description: "MCP sessions open (sessionful Streamable HTTP)",
    })
    .addCallback((result) => result.observe(readWatched().sessions));
  meter
    .createObservableGauge("omb.circuit.breakers", {
      description: "circuits that fail fast (open) or let one trial call through (half-open), by kind",
    })
    .addCallback((result) => {
      const counts = new Map<string, number>();
      for (const breaker of readWatched().breakers) {
        for (const { circuit, state, count } of breaker.countStates()) {
          const key = `${circuit} ${state}`;
          counts.set(key, (counts.get(key) ?? 0) + count);
        }
      }
      for (const circuit of ["origin", "operation"]) {
        for (const state of ["open", "half-open"]) {
          result.observe(counts.get(`${circuit} ${state}`) ?? 0, { circuit, state });
        }
      }
    });
  return {
    toolCalls: meter.createCounter("omb.tool.calls", {
      description: "operation calls by tool, mode and outcome (ok or the error category)",
    }),
    toolDuration: meter.createHistogram("omb.tool.duration", {
      ...seconds,
      description: "operation call latency, arguments to result",
    }),
    requestDuration: meter.createHistogram("mcp.server.operation.duration", {
      ...seconds,
      description: "MCP requests the bridge answered (tools/list, tools/call)",
    }),
    upstreamRequests: meter.createCounter("omb.upstream.requests", {
      description: "upstream HTTP attempts (retries included) by method and status class",
    }),
    upstreamDuration: meter.createHistogram("omb.upstream.duration", {
      ...seconds,
      description: "upstream HTTP attempt latency by method and status class",
    }),
    sandboxRuns: meter.createCounter("omb.sandbox.runs", {
      description: "code-mode programs by outcome",
    }),
  };
}

function createTelemetry(tracer: Tracer | undefined, instruments: Instruments | undefined): Telemetry {
  return {
    async traceRequest(facts, parent, run) {
      const started = performance.now();
      const attributes: Attributes = {
        "mcp.method.name": facts.method,
        "network.transport": facts.transport === "http" ? "tcp" : "pipe",
        ...(facts.protocolVersion !== undefined ? { "mcp.protocol.version": facts.protocolVersion } : {}),
        ...(facts.tool !== undefined
          ? { "gen_ai.tool.name": facts.tool, "gen_ai.operation.name": "execute_tool" }
          : {}),
      };
      const name = facts.tool !== undefined ? `${facts.method} ${facts.tool}` : facts.method;
      const span = tracer?.startSpan(name, { kind: SpanKind.SERVER, attributes }, contextOf(parent));
      const finish = (errorType: string | undefined) => {
        if (span !== undefined) endSpan(span, errorType);
        instruments?.requestDuration.record((performance.now() - started) / 1000, {
          "mcp.method.name": facts.method,
          ...(errorType !== undefined ? { "error.type": errorType } : {}),
        });
      };
      try {
        const value = await run(span ? childOf(span, parent) : parent);
        const outcome = toOutcome(value);
        finish(outcome === "ok" ? undefined : outcome);
        return value;
      } catch (error) {
        finish(errorTypeOf(error));
        throw error;
      }
    },

    async traceToolCall(facts, parent, run) {
      const started = performance.now();
      const span = tracer?.startSpan(
        `execute_tool ${facts.tool}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": facts.tool,
            "omb.mode": facts.mode,
          },
        },
        contextOf(parent),
      );
      const finish = (outcome: string) => {
        if (span !== undefined) {
          span.setAttribute("omb.outcome", outcome);
          endSpan(span, outcome === "ok" ? undefined : outcome);
        }
        const labels = { tool: facts.tool, mode: facts.mode, outcome };
        instruments?.toolCalls.add(1, labels);
        instruments?.toolDuration.record((performance.now() - started) / 1000, labels);
      };
      try {
        const value = await run(span ? childOf(span, parent) : parent);
        finish(toOutcome(value));
        return value;
      } catch (error) {
        finish(errorTypeOf(error));
        throw error;
      }
    },

    startAttempt(request, attempt, facts) {
      const started = performance.now();
      const method = request.method.toUpperCase();
      const server = toServerFacts(request.origin);
      const span = tracer?.startSpan(
        facts.template !== undefined ? `${method} ${facts.template}` : method,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "http.request.method": method,
            "url.full": toSafeUrl(request.origin, request.path, facts.secrets?.() ?? []),
            "server.address": server.address,
            ...(server.port !== undefined ? { "server.port": server.port } : {}),
            ...(facts.template !== undefined ? { "url.template": facts.template } : {}),
            ...(attempt > 0 ? { "http.request.resend_count": attempt } : {}),
          },
        },
        contextOf(facts.parent),
      );
      let sent = request;
      if (span !== undefined) {
        // The attempt's own span is the API's parent, unless the operator (--header) or the
        // operation's own parameter set another traceparent: theirs is sent as it is.
        const current = request.headers.traceparent;
        if (current === undefined || current === facts.parent?.traceparent) {
          const traceparent = childOf(span, facts.parent)?.traceparent;
          if (traceparent !== undefined) sent = { ...request, headers: { ...request.headers, traceparent } };
        }
      }
      return {
        request: sent,
        end(outcome) {
          const statusClass = toStatusClass(outcome);
          if (span !== undefined) {
            if ("status" in outcome) {
              span.setAttribute("http.response.status_code", outcome.status);
              endSpan(span, outcome.status >= 400 ? String(outcome.status) : undefined);
            } else {
              const secrets = facts.secrets?.() ?? [];
              endSpan(span, outcome.failure.code, createScrubber(secrets)(outcome.failure.message));
            }
          }
          const labels = { "http.request.method": method, status_class: statusClass };
          instruments?.upstreamRequests.add(1, labels);
          instruments?.upstreamDuration.record((performance.now() - started) / 1000, labels);
        },
      };
    },

    countSandboxRun(outcome) {
      instruments?.sandboxRuns.add(1, { outcome });
    },
  };
}

/** The context a span starts in: its parent's ids (a trace of our own when there is none). */
function contextOf(parent: TraceContext | undefined): Context {
  if (parent === undefined) return ROOT_CONTEXT;
  const ids = toParentIds(parent.traceparent);
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: ids.traceId,
    spanId: ids.spanId,
    traceFlags: ids.flags & 1,
    isRemote: true,
  });
}

/** The trace context that names `span` as the parent of what it calls (the caller's tracestate kept). */
function childOf(span: Span, parent: TraceContext | undefined): TraceContext {
  const context = span.spanContext();
  const traceparent = toTraceparent({
    traceId: context.traceId,
    spanId: context.spanId,
    flags: context.traceFlags,
  });
  return {
    traceparent,
    traceId: context.traceId,
    ...(parent?.tracestate !== undefined ? { tracestate: parent.tracestate } : {}),
  };
}

/** Ends a span; with `errorType`, as failed (`error.type`, status ERROR). */
function endSpan(span: Span, errorType: string | undefined, message?: string): void {
  if (errorType !== undefined) {
    span.setAttribute("error.type", errorType);
    span.setStatus({ code: SpanStatusCode.ERROR, ...(message !== undefined ? { message } : {}) });
  }
  span.end();
}

/** A thrown error's type, from a short list (its message may hold what a user sent). */
function errorTypeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number") return `jsonrpc_${code}`;
  return "internal";
}

/** The Prometheus endpoint on a listener of its own; its port is refused as a coded diagnostic. */
async function listenForScrapes(
  exporter: { getMetricsRequestHandler(request: unknown, response: unknown): void },
  where: { host: string; port: number; path: string },
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (path === where.path && (request.method === "GET" || request.method === "HEAD")) {
      exporter.getMetricsRequestHandler(request, response);
      return;
    }
    response.statusCode = 404;
    response.end();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(where.port, where.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    return failWith(
      "OMB_METRICS_LISTEN_FAILED",
      `cannot listen for metrics on ${where.host}:${where.port}: ${(error as Error).message}`,
      { hint: "choose another --metrics-port or --metrics-host; --metrics-port 0 picks a free one" },
    );
  }
  // The listener must not keep a stopping bridge alive.
  server.unref();
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : where.port;
  const host = where.host.includes(":") ? `[${where.host}]` : where.host;
  return { server, url: `http://${host}:${port}${where.path}` };
}

/** The start-up line: what goes where (an endpoint's user info and query never shown). */
function describeExports(options: ResolvedTelemetryOptions, metricsUrl: string | undefined): string {
  const parts: string[] = [];
  const otlp = options.traces ?? options.otlpMetrics;
  if (otlp !== undefined) {
    const what = [options.traces ? "traces" : "", options.otlpMetrics ? "metrics" : ""]
      .filter((w) => w !== "")
      .join(" and ");
    parts.push(`${what} over OTLP (${otlp.protocol}) to ${toSafeUrl("", endpointOf(otlp.url))}`);
  }
  if (metricsUrl !== undefined) parts.push(`Prometheus metrics at ${metricsUrl}`);
  return `telemetry: ${parts.join("; ")}`;
}

/** The base endpoint of a signal's URL (`…/v1/traces` → `…`), without user info. */
function endpointOf(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    parsed.search = "";
    return parsed.toString().replace(/\/v1\/(traces|metrics)$/, "");
  } catch {
    return "(invalid URL)";
  }
}
