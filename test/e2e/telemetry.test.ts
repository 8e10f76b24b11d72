/**
 * Observability (issue 27), from the built CLI with a real SDK client, a recording upstream and
 * an OTLP receiver on 127.0.0.1:
 * - the MCP request span, the tool call span and one client span per upstream attempt reach the
 *   receiver, parented in that order, inside the trace the client's `_meta.traceparent` named;
 *   the API receives the attempt span's traceparent (same trace id);
 * - a credential sent in the query and one sent in a header appear in no exported byte (OTLP
 *   traces and metrics, the Prometheus text), in any of their forms;
 * - the Prometheus endpoint's text parses strictly and counts two calls: one ok, one that got
 *   upstream 500 (after a 503 that was retried: two 5xx attempts, each a span);
 * - the default encoding (http/protobuf), turned on by OTEL_EXPORTER_OTLP_ENDPOINT alone;
 * - code mode: sandbox runs counted by outcome, a program's API calls in its execute's trace;
 * - with telemetry off, no OpenTelemetry module is ever resolved (a loader hook watches every
 *   import of the child), and with it on they are (the hook sees them: it works).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, type HttpBridge, runCli, startHttpBridge, textOf } from "../helpers/bridge.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../helpers/otlp-receiver.js";
import { parsePrometheusText } from "../helpers/prometheus-text.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;
const QUERY_SECRET = "q-SECRET/4f1d+e9=";
const HEADER_SECRET = "h-SECRET-7b0c91e2";
const SERVER = 2;
const INTERNAL = 1;
const CLIENT = 3;

const SPEC = {
  openapi: "3.0.3",
  info: { title: "Items", version: "1" },
  servers: [{ url: "http://127.0.0.1:1" }],
  components: {
    securitySchemes: {
      queryKey: { type: "apiKey", in: "query", name: "api_key" },
      headerKey: { type: "apiKey", in: "header", name: "X-Key" },
    },
  },
  security: [{ queryKey: [], headerKey: [] }],
  paths: {
    "/items/{id}": {
      get: {
        operationId: "getItem",
        parameters: [
          { name: "id", in: "path", required: true, schema: { type: "string" } },
          { name: "q", in: "query", schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
    "/broken": {
      get: {
        operationId: "getBroken",
        responses: {
          "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
  },
};

/** Every form a secret may be written in: as is, percent-encoded, base64. */
function formsOf(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64")];
}

let dir: string;
let specPath: string;
let upstream: Upstream;
let receiver: OtlpReceiver;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "omb-telemetry-"));
  specPath = join(dir, "openapi.json");
  await writeFile(specPath, JSON.stringify(SPEC));
  let broken = 0;
  upstream = await startUpstream((req, res) => {
    // /broken: a 503 (retried), then a 500 (not retried: the call fails with it).
    if (req.rawPath === "/broken") sendJson(res, broken++ === 0 ? 503 : 500, { error: "boom" });
    else sendJson(res, 200, { id: req.rawPath.split("/").pop() });
  });
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await upstream?.close();
  await receiver?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The Prometheus URL the start-up line names. */
function metricsUrlOf(stderr: string): string {
  const url = /Prometheus metrics at (http:\/\/\S+)/.exec(stderr)?.[1];
  if (url === undefined) throw new Error(`no metrics URL in the start-up lines:\n${stderr}`);
  return url;
}

describe("traces and metrics, exported", () => {
  let bridge: HttpBridge;

  beforeAll(async () => {
    bridge = await startHttpBridge(
      specPath,
      [
        "--base-url",
        upstream.url,
        "--auth",
        `queryKey=${QUERY_SECRET}`,
        "--auth",
        `headerKey=${HEADER_SECRET}`,
        "--retries",
        "1",
        "--otlp-endpoint",
        receiver.url,
        "--otlp-protocol",
        "http/json",
        "--metrics-port",
        "0",
      ],
      { OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_METRIC_EXPORT_INTERVAL: "200" },
    );
  });

  afterAll(async () => {
    await bridge?.stop();
  });

  it("exports the request, tool call and upstream spans in the client's trace, and counts the calls", async () => {
    expect(bridge.stderr()).toMatch(
      /telemetry: traces and metrics over OTLP \(http\/json\) to http:\/\/127\.0\.0\.1:\d+/,
    );
    const metricsUrl = metricsUrlOf(bridge.stderr());
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const connected = await connectHttp(bridge);
    try {
      const ok = await connected.client.callTool({
        name: "getItem",
        arguments: { id: "42", q: "user words" },
        _meta: { traceparent: TRACEPARENT, tracestate: "rojo=00f067aa0ba902b7" },
      });
      expect(ok.isError).toBeFalsy();
      const failed = await connected.client.callTool({ name: "getBroken", arguments: {} });
      expect(failed.isError).toBe(true);
      expect(textOf(failed as { content: { type: string }[] })).toContain("500");
      // This client's session is open: the gauge counts it.
      const during = parsePrometheusText(await (await fetch(metricsUrl)).text());
      expect(during.value("omb_sessions_active")).toBe(1);
    } finally {
      await connected.close();
    }

    // The spans of the first call: request → tool call → the upstream attempt, in the client's trace.
    const spans = await receiver.waitForSpans((received) =>
      received.some((s) => s.name === "GET /items/{id}" && s.traceId === TRACE_ID),
    );
    const inTrace = spans.filter((s) => s.traceId === TRACE_ID);
    const request = only(inTrace, (s) => s.name === "tools/call getItem");
    expect(request).toMatchObject({ kind: SERVER, parentSpanId: CLIENT_SPAN });
    expect(request.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "getItem",
      "network.transport": "tcp",
    });
    const tool = only(inTrace, (s) => s.name === "execute_tool getItem");
    expect(tool).toMatchObject({ kind: INTERNAL, parentSpanId: request.spanId });
    expect(tool.attributes).toMatchObject({
      "gen_ai.tool.name": "getItem",
      "omb.mode": "tools",
      "omb.outcome": "ok",
    });
    const client = only(inTrace, (s) => s.name === "GET /items/{id}");
    expect(client).toMatchObject({ kind: CLIENT, parentSpanId: tool.spanId });
    const port = new URL(upstream.url).port;
    expect(client.attributes).toEqual({
      "http.request.method": "GET",
      "url.full": `${upstream.url}/items/42?q=[REDACTED]&api_key=[REDACTED]`,
      "url.template": "/items/{id}",
      "server.address": "127.0.0.1",
      "server.port": Number(port),
      "http.response.status_code": 200,
    });
    // The API got the attempt's span as its parent, in the same trace, and the client's tracestate.
    const sent = upstream.requests.find((r) => r.rawPath === "/items/42");
    expect(sent?.header("traceparent")).toBe(`00-${TRACE_ID}-${client.spanId}-01`);
    expect(sent?.header("tracestate")).toBe("rojo=00f067aa0ba902b7");

    // The second call: no traceparent sent, so a trace of its own; a 503 retried, then a 500.
    const broken = await receiver.waitForSpans(
      (received) => received.filter((s) => s.name === "GET /broken").length === 2,
    );
    const attempts = broken.filter((s) => s.name === "GET /broken");
    const brokenTool = only(broken, (s) => s.name === "execute_tool getBroken");
    const brokenRequest = only(broken, (s) => s.name === "tools/call getBroken");
    expect(brokenRequest.parentSpanId).toBe("");
    expect(brokenTool.parentSpanId).toBe(brokenRequest.spanId);
    expect(brokenTool.attributes["omb.outcome"]).toBe("upstream_bug");
    expect(brokenRequest.attributes["error.type"]).toBe("upstream_bug");
    for (const attempt of attempts) {
      expect(attempt.parentSpanId).toBe(brokenTool.spanId);
      expect(attempt.traceId).toBe(brokenTool.traceId);
      expect(attempt.status.code).toBe(2);
    }
    const byTry = [...attempts].sort(
      (a, b) =>
        Number(a.attributes["http.request.resend_count"] ?? 0) -
        Number(b.attributes["http.request.resend_count"] ?? 0),
    );
    expect(byTry.map((a) => a.attributes)).toMatchObject([
      { "http.response.status_code": 503, "error.type": "503" },
      { "http.response.status_code": 500, "error.type": "500", "http.request.resend_count": 1 },
    ]);
    expect(byTry[0]?.attributes).not.toHaveProperty("http.request.resend_count");
    const brokenSent = upstream.requests
      .filter((r) => r.rawPath === "/broken")
      .map((r) => r.header("traceparent"));
    expect(brokenSent.sort()).toEqual(attempts.map((a) => `00-${a.traceId}-${a.spanId}-01`).sort());

    // Prometheus: the text parses, and counts one ok call and one upstream_bug (two 5xx attempts).
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    const text = await response.text();
    const exposition = parsePrometheusText(text);
    expect(exposition.types.get("omb_tool_calls_total") ?? exposition.types.get("omb_tool_calls")).toBe(
      "counter",
    );
    const calls = (labels: Record<string, string>) =>
      exposition.value("omb_tool_calls_total", { mode: "tools", ...labels });
    expect(calls({ tool: "getItem", outcome: "ok" })).toBe(1);
    expect(calls({ tool: "getBroken", outcome: "upstream_bug" })).toBe(1);
    expect(exposition.value("omb_upstream_requests_total", { status_class: "2xx" })).toBe(1);
    expect(exposition.value("omb_upstream_requests_total", { status_class: "5xx" })).toBe(2);
    expect(
      exposition.value("omb_tool_duration_count", { tool: "getItem", outcome: "ok", mode: "tools" }),
    ).toBe(1);
    expect(exposition.value("omb_circuit_breakers", { circuit: "origin", state: "open" })).toBe(0);
    for (const sample of exposition.samples) {
      for (const [name, value] of Object.entries(sample.labels)) {
        // No URL, id or user input in a label: only names, modes, outcomes and classes.
        expect(value, `${sample.name} ${name}`).not.toMatch(/127\.0\.0\.1|\?|42|user words/);
      }
    }

    // Stopping flushes the rest; then no secret is in any byte that left the bridge.
    await bridge.stop();
    const metricNames = new Set(receiver.points().map((p) => p.metric));
    expect(metricNames).toContain("omb.tool.calls");
    expect(metricNames).toContain("omb.upstream.requests");
    const okPoint = receiver
      .points()
      .filter((p) => p.metric === "omb.tool.calls" && p.attributes.tool === "getItem")
      .at(-1);
    expect(okPoint?.value).toBe(1);
    const exported = [...receiver.exports.map((e) => e.body.toString("latin1")), text].join("\n");
    for (const secret of [QUERY_SECRET, HEADER_SECRET]) {
      for (const form of formsOf(secret)) expect(exported).not.toContain(form);
    }
    // The API did get them (the test would prove nothing otherwise).
    expect(sent?.rawQuery).toContain(`api_key=${encodeURIComponent(QUERY_SECRET)}`);
    expect(sent?.header("x-key")).toBe(HEADER_SECRET);
  });
});

describe("the default encoding, turned on by OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("exports protobuf spans that name the client's trace and hold no secret", async () => {
    const proto = await startOtlpReceiver();
    const bridge = await startHttpBridge(
      specPath,
      [
        "--base-url",
        upstream.url,
        "--auth",
        `queryKey=${QUERY_SECRET}`,
        "--auth",
        `headerKey=${HEADER_SECRET}`,
      ],
      { OTEL_EXPORTER_OTLP_ENDPOINT: proto.url, OTEL_BSP_SCHEDULE_DELAY: "50" },
    );
    try {
      expect(bridge.stderr()).toContain(`traces and metrics over OTLP (http/protobuf) to ${proto.url}`);
      const connected = await connectHttp(bridge);
      try {
        await connected.client.callTool({
          name: "getItem",
          arguments: { id: "9" },
          _meta: { traceparent: TRACEPARENT },
        });
      } finally {
        await connected.close();
      }
    } finally {
      await bridge.stop();
      await proto.close();
    }
    const traces = proto.exports.filter((e) => e.path === "/v1/traces");
    expect(traces.length).toBeGreaterThan(0);
    for (const e of traces) expect(e.contentType).toBe("application/x-protobuf");
    // Protobuf carries ids as raw bytes and names as UTF-8: the client's trace id, and the spans.
    const bytes = Buffer.concat(traces.map((e) => e.body));
    expect(bytes.includes(Buffer.from(TRACE_ID, "hex"))).toBe(true);
    for (const name of ["tools/call getItem", "execute_tool getItem", "GET /items/{id}"]) {
      expect(bytes.includes(Buffer.from(name))).toBe(true);
    }
    expect(proto.exports.some((e) => e.path === "/v1/metrics")).toBe(true);
    const all = proto.exports.map((e) => e.body.toString("latin1")).join("\n");
    for (const secret of [QUERY_SECRET, HEADER_SECRET]) {
      for (const form of formsOf(secret)) expect(all).not.toContain(form);
    }
  });
});

describe("code mode", () => {
  it("counts sandbox runs by outcome, and a program's API calls under mode code, in its execute's trace", async () => {
    const codeReceiver = await startOtlpReceiver();
    const bridge = await startHttpBridge(
      specPath,
      [
        "--base-url",
        upstream.url,
        "--mode",
        "code",
        "--metrics-port",
        "0",
        "--otlp-endpoint",
        codeReceiver.url,
        "--otlp-protocol",
        "http/json",
      ],
      { OTEL_BSP_SCHEDULE_DELAY: "50" },
    );
    try {
      const connected = await connectHttp(bridge);
      try {
        const ran = await connected.client.callTool({
          name: "execute",
          arguments: { program: "const a = await api.getItem({ id: '5' }); return a.id;" },
          _meta: { traceparent: TRACEPARENT },
        });
        expect(ran.isError).toBeFalsy();
        const threw = await connected.client.callTool({
          name: "execute",
          arguments: { program: "throw new Error('no');" },
        });
        expect(threw.isError).toBe(true);
      } finally {
        await connected.close();
      }
      const text = await (await fetch(metricsUrlOf(bridge.stderr()))).text();
      const exposition = parsePrometheusText(text);
      expect(exposition.value("omb_sandbox_runs_total", { outcome: "returned" })).toBe(1);
      expect(exposition.value("omb_sandbox_runs_total", { outcome: "threw" })).toBe(1);
      expect(exposition.value("omb_tool_calls_total", { tool: "getItem", mode: "code", outcome: "ok" })).toBe(
        1,
      );
      const spans = await codeReceiver.waitForSpans((received) =>
        received.some((s) => s.name === "GET /items/{id}" && s.traceId === TRACE_ID),
      );
      const request = only(spans, (s) => s.name === "tools/call execute" && s.traceId === TRACE_ID);
      const tool = only(spans, (s) => s.name === "execute_tool getItem");
      expect(tool.parentSpanId).toBe(request.spanId);
      expect(tool.attributes["omb.mode"]).toBe("code");
    } finally {
      await bridge.stop();
      await codeReceiver.close();
    }
  });
});

describe("discovery mode, in a bridge of several APIs", () => {
  it("labels call_operation's calls with the mode they came through (each API's runtime serves tools mode)", async () => {
    // Each API says where its calls go in its own spec (--base-url is each API's own option).
    const served = { ...SPEC, servers: [{ url: upstream.url }], security: [] };
    const one = join(dir, "one.json");
    const two = join(dir, "two.json");
    await writeFile(one, JSON.stringify(served));
    await writeFile(two, JSON.stringify({ ...served, info: { title: "Other", version: "1" } }));
    const bridge = await startHttpBridge(one, [
      two,
      "--namespace",
      "one,two",
      "--mode",
      "discovery",
      "--metrics-port",
      "0",
    ]);
    try {
      const connected = await connectHttp(bridge);
      try {
        const result = await connected.client.callTool({
          name: "call_operation",
          arguments: { name: "two__getItem", arguments: { id: "3" } },
        });
        expect(result.isError).toBeFalsy();
      } finally {
        await connected.close();
      }
      const exposition = parsePrometheusText(await (await fetch(metricsUrlOf(bridge.stderr()))).text());
      const calls = exposition.samples.filter((sample) => sample.name === "omb_tool_calls_total");
      expect(calls.map((sample) => sample.labels)).toMatchObject([
        { tool: "two__getItem", mode: "discovery", outcome: "ok" },
      ]);
      expect(exposition.value("omb_tool_calls_total", { mode: "tools" })).toBeUndefined();
    } finally {
      await bridge.stop();
    }
  });
});

describe("telemetry off", () => {
  /**
   * A loader hook (module.register) for a child: it appends every module URL it resolves to a
   * file (what the bridge loaded, whoever imported it) and, with `refuse`, answers every
   * OpenTelemetry package as not installed, the way a project installed without them would.
   */
  async function writeHooks(
    refuse: boolean,
  ): Promise<{ nodeOptions: string; resolved: () => Promise<string[]> }> {
    const name = Math.random().toString(36).slice(2);
    const log = join(dir, `resolved-${name}.log`);
    const hooks = join(dir, `hooks-${name}.mjs`);
    const register = join(dir, `register-${name}.mjs`);
    await writeFile(
      hooks,
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  if (${refuse} && specifier.startsWith("@opentelemetry/")) {
    appendFileSync(${JSON.stringify(log)}, "refused " + specifier + "\\n");
    throw Object.assign(new Error("Cannot find package '" + specifier + "'"), { code: "ERR_MODULE_NOT_FOUND" });
  }
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
  return result;
}
`,
    );
    await writeFile(
      register,
      `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    await writeFile(log, "");
    return {
      nodeOptions: `--import=${pathToFileURL(register).href}`,
      resolved: async () => (await readFile(log, "utf8")).split("\n").filter((l) => l !== ""),
    };
  }

  async function startWatched(
    args: string[],
    refuse = false,
  ): Promise<{ bridge: HttpBridge; resolved: () => Promise<string[]> }> {
    const { nodeOptions, resolved } = await writeHooks(refuse);
    const bridge = await startHttpBridge(specPath, ["--base-url", upstream.url, ...args], {
      NODE_OPTIONS: nodeOptions,
    });
    return { bridge, resolved };
  }

  async function callOnce(bridge: HttpBridge): Promise<void> {
    const connected = await connectHttp(bridge);
    try {
      const result = await connected.client.callTool({
        name: "getItem",
        arguments: { id: "1" },
        _meta: { traceparent: TRACEPARENT },
      });
      expect(result.isError).toBeFalsy();
    } finally {
      await connected.close();
    }
  }

  it("serves and calls without resolving a single OpenTelemetry module (none installed, as far as it knows)", async () => {
    const { bridge, resolved } = await startWatched([], true);
    try {
      await callOnce(bridge);
      expect(bridge.stderr()).not.toContain("telemetry:");
    } finally {
      await bridge.stop();
    }
    const urls = await resolved();
    // The hook saw the bridge's command (it works: dist/cli/main.js, which requires the CommonJS
    // chunks of scripts/bundle-cli.mjs; a require is not resolved through the hook) ...
    expect(urls.some((u) => u.endsWith("/dist/cli/main.js"))).toBe(true);
    // ... and no OpenTelemetry package: the bundle imports each with import(), which the hook sees.
    expect(urls.filter((u) => u.includes("@opentelemetry") || u.includes("otel-telemetry"))).toEqual([]);
  });

  it("refuses to start, with a coded error, when telemetry is asked for and its packages are missing", async () => {
    const { nodeOptions, resolved } = await writeHooks(true);
    const run = await runCli(["serve", specPath, "--base-url", upstream.url, "--metrics-port", "0"], {
      env: { NODE_OPTIONS: nodeOptions },
    });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(
      /OMB_TELEMETRY_UNAVAILABLE.*telemetry needs @opentelemetry\/[a-z-]+, which is not installed/,
    );
    expect((await resolved()).some((line) => line.startsWith("refused @opentelemetry/"))).toBe(true);
  });

  it("refuses to start when the metrics port is taken, with a coded error", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const run = await runCli([
        "serve",
        specPath,
        "--base-url",
        upstream.url,
        "--metrics-port",
        String(port),
      ]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(
        `OMB_METRICS_LISTEN_FAILED cannot listen for metrics on 127.0.0.1:${port}`,
      );
    } finally {
      taken.close();
    }
  });

  it("resolves them once a metrics port is given (the hook sees what loads)", async () => {
    const { bridge, resolved } = await startWatched(["--metrics-port", "0"]);
    try {
      await callOnce(bridge);
    } finally {
      await bridge.stop();
    }
    const urls = await resolved();
    // The packages, imported (the chunk that uses them is required, which the hook does not see).
    expect(urls.some((u) => u.includes("@opentelemetry/sdk-metrics"))).toBe(true);
    expect(urls.some((u) => u.includes("@opentelemetry/api"))).toBe(true);
  });
});

function only(spans: ReceivedSpan[], test: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(test);
  if (found.length !== 1) {
    throw new Error(
      `expected one span, found ${found.length} among ${JSON.stringify(spans.map((s) => s.name))}`,
    );
  }
  return found[0] as ReceivedSpan;
}
