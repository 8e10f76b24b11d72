/**
 * What spans and metrics carry, and when telemetry is on: URLs with no query value and no
 * secret, outcomes and status classes from short lists, traceparents in and out, and the
 * options (flags, then OpenTelemetry's standard variables) resolved once.
 */
import { describe, expect, it } from "vitest";
import { formsOf } from "../../../../src/runtime/auth/secret-forms.js";
import { toTelemetryOptions } from "../../../../src/runtime/config/to-options.js";
import { toErrorResult } from "../../../../src/runtime/results/error-result.js";
import {
  toOutcome,
  toParentIds,
  toSafeUrl,
  toServerFacts,
  toStatusClass,
  toTraceparent,
} from "../../../../src/runtime/telemetry/span-values.js";
import { resolveTelemetryOptions } from "../../../../src/runtime/telemetry/telemetry-options.js";

describe("toSafeUrl", () => {
  const secret = "s3cr3t/key+=";
  const cases: { given: [string, string, string[]]; want: string }[] = [
    { given: ["http://api.test", "/items/1", []], want: "http://api.test/items/1" },
    {
      given: ["http://api.test", "/items?api_key=abc&q=hello%20you&flag", []],
      want: "http://api.test/items?api_key=[REDACTED]&q=[REDACTED]&flag=[REDACTED]",
    },
    { given: ["http://api.test", "/items?", []], want: "http://api.test/items" },
    // A secret in the path (an odd API) is scrubbed in any of its forms.
    {
      given: ["http://api.test", `/keys/${encodeURIComponent(secret)}/items`, formsOf(secret)],
      want: "http://api.test/keys/[REDACTED]/items",
    },
    { given: ["http://user:pw@api.test", "/x", []], want: "http://api.test/x" },
  ];
  it.each(cases)("$given.1 → $want", ({ given, want }) => {
    expect(toSafeUrl(...given)).toBe(want);
  });
});

describe("span values", () => {
  it("reads a traceparent's ids and writes one back", () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const ids = toParentIds(traceparent);
    expect(ids).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      flags: 1,
    });
    expect(toTraceparent(ids)).toBe(traceparent);
    expect(toTraceparent({ ...ids, flags: 0 })).toBe(traceparent.replace(/01$/, "00"));
  });

  it.each([
    [{ status: 200 }, "2xx"],
    [{ status: 404 }, "4xx"],
    [{ status: 503 }, "5xx"],
    [{ failure: { kind: "connect" } }, "network"],
    [{ failure: { kind: "network" } }, "network"],
    [{ failure: { kind: "timeout" } }, "timeout"],
    [{ failure: { kind: "cancelled" } }, "cancelled"],
  ] as const)("status class of %j is %s", (outcome, want) => {
    expect(toStatusClass(outcome)).toBe(want);
  });

  it("names an outcome by its error category, never by its text", () => {
    expect(toOutcome({ content: [] })).toBe("ok");
    expect(toOutcome(toErrorResult("the API said no to 'user input'", "not_found"))).toBe("not_found");
    expect(toOutcome({ isError: true, content: [] })).toBe("error");
    expect(
      toOutcome({
        isError: true,
        _meta: { "io.github.openapi-mcp-bridge/error": { category: "Bad Value!" } },
      }),
    ).toBe("error");
  });

  it("takes the server's address and port from an origin", () => {
    expect(toServerFacts("https://api.test")).toEqual({ address: "api.test", port: 443 });
    expect(toServerFacts("http://[::1]:8080")).toEqual({ address: "::1", port: 8080 });
  });
});

describe("telemetry options", () => {
  it("is off unless an endpoint or a metrics port is given", () => {
    expect(resolveTelemetryOptions(toTelemetryOptions({}, {}))).toBeUndefined();
    expect(
      resolveTelemetryOptions(toTelemetryOptions({}, { OTEL_EXPORTER_OTLP_ENDPOINT: " " })),
    ).toBeUndefined();
    expect(resolveTelemetryOptions(toTelemetryOptions({ metricsHost: "0.0.0.0" }, {}))).toBeUndefined();
  });

  it("turns OTLP on from OTEL_EXPORTER_OTLP_ENDPOINT; the flag wins; OTEL_*_EXPORTER=none turns a signal off", () => {
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "5000",
    };
    expect(resolveTelemetryOptions(toTelemetryOptions({}, env))).toEqual({
      serviceName: "openapi-mcp-bridge",
      traces: { url: "http://collector:4318/v1/traces", protocol: "http/json" },
      otlpMetrics: { url: "http://collector:4318/v1/metrics", protocol: "http/json", intervalMs: 5000 },
    });
    const flagged = resolveTelemetryOptions(
      toTelemetryOptions(
        { otlpEndpoint: "http://other:4318", otlpProtocol: "http/protobuf" },
        { ...env, OTEL_METRICS_EXPORTER: "none" },
      ),
    );
    expect(flagged).toEqual({
      serviceName: "openapi-mcp-bridge",
      traces: { url: "http://other:4318/v1/traces", protocol: "http/protobuf" },
    });
  });

  it("binds the metrics listener to 127.0.0.1 unless told otherwise", () => {
    expect(resolveTelemetryOptions(toTelemetryOptions({ metricsPort: 9464 }, {}))?.prometheus).toEqual({
      host: "127.0.0.1",
      port: 9464,
      path: "/metrics",
    });
  });
});
