/**
 * What an OpenTelemetry collector would receive, for tests: an HTTP server on 127.0.0.1 that
 * records every OTLP/HTTP export (`/v1/traces`, `/v1/metrics`) as it arrived, answers it the
 * way OTLP asks (200, an empty success), and decodes the JSON encoding (`http/json`) into spans
 * and metric data points to assert on.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedExport {
  path: string;
  contentType: string;
  body: Buffer;
}

/** One span as OTLP/JSON carries it (ids as hex, attributes flattened). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
}

/** One data point of a metric (sums and gauges: its value; histograms: its count). */
export interface ReceivedPoint {
  metric: string;
  attributes: Record<string, string | number | boolean>;
  value: number;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:PORT`: the OTLP endpoint to give the bridge. */
  url: string;
  exports: ReceivedExport[];
  spans(): ReceivedSpan[];
  points(): ReceivedPoint[];
  /** Waits (polling, bounded) until `check` holds of the spans received; throws with what came. */
  waitForSpans(check: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

function flatten(
  attributes: { key: string; value: AnyValue }[] | undefined,
): Record<string, string | number | boolean> {
  const result: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? []) {
    if (value.stringValue !== undefined) result[key] = value.stringValue;
    else if (value.intValue !== undefined) result[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) result[key] = value.doubleValue;
    else if (value.boolValue !== undefined) result[key] = value.boolValue;
  }
  return result;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      exports.push({
        path: req.url ?? "",
        contentType: String(req.headers["content-type"] ?? ""),
        body: Buffer.concat(chunks),
      });
      const json = String(req.headers["content-type"] ?? "").includes("json");
      res.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      res.end(json ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const jsonBodies = (path: string) =>
    exports
      .filter((e) => e.path === path && e.contentType.includes("json"))
      .map((e) => JSON.parse(e.body.toString("utf8")) as Record<string, unknown>);
  const spans = (): ReceivedSpan[] =>
    jsonBodies("/v1/traces").flatMap((body) =>
      ((body.resourceSpans ?? []) as { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[]).flatMap(
        (resource) =>
          (resource.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({
              traceId: String(span.traceId ?? ""),
              spanId: String(span.spanId ?? ""),
              parentSpanId: String(span.parentSpanId ?? ""),
              name: String(span.name ?? ""),
              kind: Number(span.kind ?? 0),
              attributes: flatten(span.attributes as { key: string; value: AnyValue }[]),
              status: (span.status ?? {}) as ReceivedSpan["status"],
            })),
          ),
      ),
    );
  const points = (): ReceivedPoint[] =>
    jsonBodies("/v1/metrics").flatMap((body) =>
      (
        (body.resourceMetrics ?? []) as { scopeMetrics?: { metrics?: Record<string, unknown>[] }[] }[]
      ).flatMap((resource) =>
        (resource.scopeMetrics ?? []).flatMap((scope) =>
          (scope.metrics ?? []).flatMap((metric) => {
            const data = (metric.sum ?? metric.gauge ?? metric.histogram) as
              | { dataPoints?: Record<string, unknown>[] }
              | undefined;
            return (data?.dataPoints ?? []).map((point) => ({
              metric: String(metric.name),
              attributes: flatten(point.attributes as { key: string; value: AnyValue }[]),
              value: Number(point.asInt ?? point.asDouble ?? point.count ?? 0),
            }));
          }),
        ),
      ),
    );
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    spans,
    points,
    async waitForSpans(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const received = spans();
        if (check(received)) return received;
        if (Date.now() > deadline) {
          throw new Error(
            `the spans expected never arrived; received: ${JSON.stringify(received.map((s) => s.name))}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
