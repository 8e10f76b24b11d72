/**
 * What the bridge exports about itself, and where: OTLP/HTTP (traces and metrics) and a
 * Prometheus text endpoint. Off unless an endpoint or a metrics port is given; then, and only
 * then, the OpenTelemetry packages are loaded (telemetry.ts).
 */

export type OtlpProtocol = "http/protobuf" | "http/json";

/** The OTLP encoding when nothing names one (the OpenTelemetry specification's default). */
export const DEFAULT_OTLP_PROTOCOL: OtlpProtocol = "http/protobuf";

/** Where the metrics listener binds unless told: this machine only. */
export const DEFAULT_METRICS_HOST = "127.0.0.1";

/** The path of the Prometheus text endpoint. */
export const METRICS_PATH = "/metrics";

/** How often metrics are pushed over OTLP (the specification's default for OTEL_METRIC_EXPORT_INTERVAL). */
export const DEFAULT_METRIC_EXPORT_INTERVAL_MS = 60_000;

/** The service name spans and metrics carry unless OTEL_SERVICE_NAME names another. */
export const DEFAULT_SERVICE_NAME = "openapi-mcp-bridge";

export interface TelemetryOptions {
  /** OTLP/HTTP base URL: `/v1/traces` and `/v1/metrics` are added. */
  otlpEndpoint?: string;
  otlpProtocol?: OtlpProtocol;
  /** Export traces over OTLP (default true with an endpoint; OTEL_TRACES_EXPORTER=none: false). */
  traces?: boolean;
  /** Export metrics over OTLP (default true with an endpoint; OTEL_METRICS_EXPORTER=none: false). */
  otlpMetrics?: boolean;
  metricExportIntervalMs?: number;
  /** The Prometheus listener's port; absent: no listener. */
  metricsPort?: number;
  metricsHost?: string;
  serviceName?: string;
}

export interface ResolvedTelemetryOptions {
  /** Traces over OTLP, to `${endpoint}/v1/traces`. */
  traces?: { url: string; protocol: OtlpProtocol };
  /** Metrics over OTLP, to `${endpoint}/v1/metrics`. */
  otlpMetrics?: { url: string; protocol: OtlpProtocol; intervalMs: number };
  prometheus?: { host: string; port: number; path: string };
  serviceName: string;
}

/** The one place telemetry's defaults are applied; undefined when nothing is to be exported. */
export function resolveTelemetryOptions(options: TelemetryOptions): ResolvedTelemetryOptions | undefined {
  const resolved: ResolvedTelemetryOptions = { serviceName: options.serviceName || DEFAULT_SERVICE_NAME };
  const endpoint = options.otlpEndpoint?.replace(/\/+$/, "");
  const protocol = options.otlpProtocol ?? DEFAULT_OTLP_PROTOCOL;
  if (endpoint !== undefined && endpoint !== "") {
    if (options.traces !== false) resolved.traces = { url: `${endpoint}/v1/traces`, protocol };
    if (options.otlpMetrics !== false) {
      resolved.otlpMetrics = {
        url: `${endpoint}/v1/metrics`,
        protocol,
        intervalMs: Math.max(1, options.metricExportIntervalMs ?? DEFAULT_METRIC_EXPORT_INTERVAL_MS),
      };
    }
  }
  if (options.metricsPort !== undefined) {
    resolved.prometheus = {
      host: options.metricsHost ?? DEFAULT_METRICS_HOST,
      port: options.metricsPort,
      path: METRICS_PATH,
    };
  }
  const enabled = resolved.traces ?? resolved.otlpMetrics ?? resolved.prometheus;
  return enabled === undefined ? undefined : resolved;
}
