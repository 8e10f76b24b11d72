/**
 * What telemetry costs a start: the time from spawning `serve` (stdio, the example petstore) to
 * its first tools/list answer, and the child's peak RSS after one tools/call, with telemetry off,
 * with the Prometheus endpoint (`--metrics-port 0`) and with OTLP export to a local sink
 * (`--otlp-endpoint`, both signals). Runs are interleaved (off, metrics, otlp, off, ...) so drift
 * on a shared machine falls on every configuration alike; medians are reported.
 *
 *   npm run build --silent && node bench/telemetry-startup.mjs
 */
import { createServer } from "node:http";
import { join } from "node:path";
import {
  connectStdioClient,
  describeEnvironment,
  environmentMarkdown,
  formatMb,
  formatMs,
  isMain,
  markdownTable,
  now,
  OUR_CLI,
  REPO_DIR,
  readPeakRss,
  summarize,
  writeResults,
} from "./lib.mjs";

const RUNS = Number(process.env.OMB_BENCH_TELEMETRY_RUNS ?? 9);
const SPEC = join(REPO_DIR, "examples", "petstore", "openapi.yaml");

/** An OTLP sink on 127.0.0.1: accepts every export, keeps nothing. */
function startSink() {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.end());
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, server }),
    ),
  );
}

async function measureOnce(extra, api) {
  const started = now();
  const { client, transport } = await connectStdioClient(
    [OUR_CLI, "serve", SPEC, "--base-url", api, "--auth", "apiKey=bench", ...extra],
    { timeoutMs: 60_000 },
  );
  try {
    await client.listTools();
    const startMs = now() - started;
    await client.callTool({ name: "getPetById", arguments: { petId: 1 } });
    return { startMs, rss: readPeakRss(transport.pid) };
  } finally {
    await client.close();
  }
}

export async function runTelemetryStartup({ log = () => {} } = {}) {
  const sink = await startSink();
  const configs = [
    { name: "off", args: [] },
    { name: "--metrics-port 0", args: ["--metrics-port", "0"] },
    { name: "--otlp-endpoint (traces and metrics)", args: ["--otlp-endpoint", sink.url] },
  ];
  const samples = new Map(configs.map((c) => [c.name, { start: [], rss: [] }]));
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const config of configs) {
        // The sink answers every call too: the API's 200s come from it.
        const { startMs, rss } = await measureOnce(config.args, sink.url);
        samples.get(config.name).start.push(startMs);
        if (rss !== undefined) samples.get(config.name).rss.push(rss);
        log(`${config.name} run ${run + 1}: ${formatMs(startMs)}`);
      }
    }
  } finally {
    sink.server.close();
  }
  return configs.map((c) => ({
    name: c.name,
    start: summarize(samples.get(c.name).start),
    rss: samples.get(c.name).rss.length > 0 ? summarize(samples.get(c.name).rss) : undefined,
  }));
}

export function telemetryStartupMarkdown(rows, env = describeEnvironment()) {
  const off = rows[0];
  return `# Telemetry: start-up cost

\`serve examples/petstore/openapi.yaml\` over stdio, spawn to the first tools/list answer, and
peak RSS after one tools/call; ${off.start.n} interleaved runs per configuration, medians
(\`node bench/telemetry-startup.mjs\`).

${markdownTable(
  ["configuration", "start-up (median)", "min … max", "extra over off", "peak RSS (median)"],
  rows.map((r) => [
    r.name,
    formatMs(r.start.median),
    `${formatMs(r.start.min)} … ${formatMs(r.start.max)}`,
    r === off ? "" : formatMs(r.start.median - off.start.median),
    formatMb(r.rss?.median),
  ]),
)}

Off, no OpenTelemetry module is loaded (test/e2e/telemetry.test.ts), so its column is the
bridge's plain start.

${environmentMarkdown(env)}
`;
}

if (isMain(import.meta.url)) {
  const rows = await runTelemetryStartup({ log: (line) => process.stderr.write(`${line}\n`) });
  writeResults("telemetry-startup", telemetryStartupMarkdown(rows), rows);
  process.stdout.write(telemetryStartupMarkdown(rows));
}
