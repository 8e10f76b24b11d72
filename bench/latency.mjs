/**
 * Per-call latency over stdio: a loopback upstream answers GET /items/{id} with a fixed small JSON
 * body; sequential `callTool` calls through a real SDK Client for each bridge, and direct undici
 * requests to the same upstream as the baseline.
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { Agent, request } from "undici";
import {
  BENCH_DIR,
  COMPETITOR,
  COMPETITOR_VERSION,
  competitorServeArgs,
  connectStdioClient,
  describeEnvironment,
  displayCommand,
  environmentMarkdown,
  formatMs,
  isMain,
  markdownTable,
  median,
  now,
  ourServeArgs,
  quantile,
  writeResults,
} from "./lib.mjs";
import { setup } from "./setup.mjs";

const WARMUP = Number(process.env.OMB_BENCH_WARMUP ?? 50);
const CALLS = Number(process.env.OMB_BENCH_CALLS ?? 500);
const REPEATS = Number(process.env.OMB_BENCH_REPEATS ?? 3);
const PHASE_TIMEOUT_MS = 180_000;
/** Another build's CLI (e.g. before a change), measured as one more case alongside ours. */
const BASELINE_CLI = process.env.OMB_LATENCY_BASELINE_CLI;
export const LATENCY_SPEC = join(BENCH_DIR, "fixtures", "latency.openapi.yaml");
const BODY = JSON.stringify({ id: 1, name: "widget", price: 9.5, tags: ["small", "blue"] });

/** node:http on 127.0.0.1 with a fixed JSON answer for GET /items/{id}; counts the requests. */
async function startUpstream() {
  const stats = { items: 0, other: 0 };
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && /^\/items\/[^/?]+$/.test(req.url ?? "")) {
      stats.items += 1;
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
      res.end(BODY);
    } else {
      stats.other += 1;
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"message":"not found"}');
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  return { stats, baseUrl: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** Runs `call` warm-up + measured times, sequentially, within a time budget; returns ms per call. */
async function timeCalls(label, call, afterWarmup = () => {}) {
  const deadline = now() + PHASE_TIMEOUT_MS;
  for (let i = 0; i < WARMUP; i += 1) {
    if (now() > deadline) throw new Error(`${label}: warm-up ran out of time`);
    await call(i);
  }
  afterWarmup();
  const samples = [];
  for (let i = 0; i < CALLS; i += 1) {
    if (now() > deadline) throw new Error(`${label}: calls ran out of time after ${i}`);
    const started = now();
    await call(i);
    samples.push(now() - started);
  }
  return samples;
}

async function measureDirect(upstream) {
  const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
  const url = `${upstream.baseUrl}/items/1`;
  try {
    return await timeCalls("direct", async () => {
      const { statusCode, body } = await request(url, {
        dispatcher,
        headers: { accept: "application/json" },
      });
      const data = await body.json();
      if (statusCode !== 200 || data.id !== 1) throw new Error(`direct: unexpected answer ${statusCode}`);
    });
  } finally {
    await dispatcher.close();
  }
}

/** CPU time (user + system) a live process has used, in ms (Linux /proc), or undefined. */
function cpuTimeMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
  } catch {
    return undefined;
  }
}

async function measureBridge(label, args, upstream) {
  const { client, transport, stderr } = await connectStdioClient(args);
  try {
    const { tools } = await client.listTools();
    if (tools.length !== 1) throw new Error(`${label}: expected one tool, got ${tools.length}`);
    const name = tools[0].name;
    const before = upstream.stats.items;
    let cpuBefore;
    const samples = await timeCalls(
      label,
      async () => {
        const result = await client.callTool({ name, arguments: { id: 1 } }, undefined, { timeout: 30_000 });
        if (result.isError)
          throw new Error(`${label}: tool error ${JSON.stringify(result.content).slice(0, 300)}`);
      },
      () => {
        cpuBefore = cpuTimeMs(transport.pid);
      },
    );
    const reached = upstream.stats.items - before;
    if (reached !== WARMUP + CALLS)
      throw new Error(`${label}: upstream saw ${reached} calls, not ${WARMUP + CALLS}`);
    // The bridge process's own CPU per timed call (after the warm-up, which loads and compiles
    // what the first call needs): a loaded machine's scheduling changes it less than the wall
    // time of each call.
    const cpuAfter = cpuTimeMs(transport.pid);
    samples.cpuPerCallMs =
      cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / CALLS;
    return samples;
  } catch (error) {
    throw new Error(`${error.message}\n${stderr()}`);
  } finally {
    await client.close().catch(() => {});
  }
}

const summarizeCalls = (samples) => ({
  median: median(samples),
  p90: quantile(samples, 0.9),
  cpuPerCallMs: samples.cpuPerCallMs,
});

export async function runLatency({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  setup({ log });
  const upstream = await startUpstream();
  const cases = [
    { id: "direct", label: "direct undici `request` (baseline)" },
    {
      id: "ours",
      label: "openapi-mcp-bridge over stdio",
      args: ourServeArgs(LATENCY_SPEC, upstream.baseUrl),
    },
    {
      id: "competitor",
      label: `${COMPETITOR} ${COMPETITOR_VERSION} over stdio`,
      args: competitorServeArgs(LATENCY_SPEC, upstream.baseUrl),
    },
    ...(BASELINE_CLI
      ? [
          {
            id: "baseline",
            label: `baseline build (\`${BASELINE_CLI}\`) over stdio`,
            args: [BASELINE_CLI, ...ourServeArgs(LATENCY_SPEC, upstream.baseUrl).slice(1)],
          },
        ]
      : []),
  ];
  for (const c of cases) c.repeats = [];
  try {
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      // Rotate the order so that no case always runs first (or last) in a repetition.
      const order = cases.map((_, i) => cases[(i + repeat) % cases.length]);
      for (const c of order) {
        const samples = c.args ? await measureBridge(c.id, c.args, upstream) : await measureDirect(upstream);
        const s = summarizeCalls(samples);
        c.repeats.push(s);
        log(
          `latency: repeat ${repeat + 1}/${REPEATS} ${c.id}: median ${s.median.toFixed(3)} ms, p90 ${s.p90.toFixed(3)} ms`,
        );
      }
    }
  } finally {
    upstream.close();
  }
  for (const c of cases) {
    c.median = median(c.repeats.map((r) => r.median));
    c.p90 = median(c.repeats.map((r) => r.p90));
  }
  return { env: describeEnvironment(), cases, unexpectedUpstreamRequests: upstream.stats.other };
}

/** Each repetition's median and p90 per case (repetition i of each case ran side by side). */
export function latencyFigures({ env, cases }) {
  return {
    date: env.date,
    commit: env.commit,
    cases: cases.map((c) => ({
      id: c.id,
      label: c.label,
      medians: c.repeats.map((r) => r.median),
      p90s: c.repeats.map((r) => r.p90),
      cpuPerCall: c.repeats.map((r) => r.cpuPerCallMs ?? null),
    })),
  };
}

export function latencyMarkdown({ env, cases, unexpectedUpstreamRequests }) {
  const byId = Object.fromEntries(cases.map((c) => [c.id, c]));
  const direct = byId.direct.median;
  const ms = (v) => formatMs(v, 3);
  const cpu = (c) => {
    const values = c.repeats.map((r) => r.cpuPerCallMs).filter((v) => v !== undefined);
    return values.length > 0 ? ms(median(values)) : "–";
  };
  const rows = cases.map((c) => [
    c.label,
    ms(c.median),
    ms(c.p90),
    c.id === "direct" ? "–" : ms(c.median - direct),
    c.repeats.map((r) => r.median.toFixed(3)).join(" / "),
    c.id === "direct" ? "–" : cpu(c),
  ]);
  const ratio = byId.ours.median / byId.competitor.median;
  const cpuOf = (c) => median(c.repeats.map((r) => r.cpuPerCallMs).filter((v) => v !== undefined));
  const addedRatio = (byId.ours.median - direct) / (byId.competitor.median - direct);
  return [
    "# Per-call latency over stdio",
    "",
    environmentMarkdown(env),
    "",
    `A loopback upstream (node:http on 127.0.0.1) answers \`GET /items/{id}\` with a fixed ${BODY.length}-byte`,
    "JSON body. Each bridge serves `bench/fixtures/latency.openapi.yaml` over stdio to an SDK `Client`",
    `(\`StdioClientTransport\`), which makes ${WARMUP} warm-up and then ${CALLS} timed sequential \`callTool\``,
    "calls (the client's own outputSchema check included); every call is checked to reach the upstream and",
    `not be an error. The baseline is ${CALLS} direct undici \`request\` calls (keep-alive, body read as JSON)`,
    `after ${WARMUP} warm-up calls. The whole thing is repeated ${cases[0].repeats.length} times (order rotated);`,
    "the table shows the median of the per-repetition medians and p90s. The last column is the bridge",
    "process's own CPU time (user + system, /proc) over its calls divided by their number: it moves",
    "less than wall time when other work shares the machine.",
    "",
    markdownTable(
      [
        "Case",
        "Median per call",
        "p90 per call",
        "Added over direct (median)",
        "Medians per repetition",
        "Bridge process CPU per call",
      ],
      rows,
    ),
    "",
    `- Ratio of medians, ours / competitor: **${ratio.toFixed(2)}** (target: at most 0.70).`,
    `- Ratio of added latency (median − direct), ours / competitor: ${addedRatio.toFixed(2)}.`,
    `- Bridge process CPU per call, ours / competitor: ${(cpuOf(byId.ours) / cpuOf(byId.competitor)).toFixed(2)}.`,
    ...(byId.baseline
      ? [
          `- Against the baseline build: median ${(byId.ours.median / byId.baseline.median).toFixed(2)}, ` +
            `CPU per call ${(cpuOf(byId.ours) / cpuOf(byId.baseline)).toFixed(2)} (ours / baseline).`,
        ]
      : []),
    unexpectedUpstreamRequests > 0
      ? `- The upstream also got ${unexpectedUpstreamRequests} unexpected request(s).`
      : "- The upstream saw no request other than `GET /items/{id}`.",
    "",
    "## Commands",
    "",
    "```sh",
    "npm run bench   # npm run build --silent && node bench/run.mjs",
    ...cases.filter((c) => c.args).map((c) => `${displayCommand(c.args)}   # ${c.id}`),
    "```",
    "",
    "`$PORT` is the loopback upstream's ephemeral port.",
    "",
  ]
    .join("\n")
    .replace(/http:\/\/127\.0\.0\.1:\d+(?=\s)/g, "http://127.0.0.1:$$PORT");
}

if (isMain(import.meta.url)) {
  const result = await runLatency();
  writeResults("latency", latencyMarkdown(result), latencyFigures(result));
  process.stdout.write(latencyMarkdown(result));
}
