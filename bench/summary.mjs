/**
 * The performance table, from the figures the benchmarks wrote (bench/results/*.json): each row
 * ours next to its anchor from the same interleaved run, the ratio of every pair of runs
 * (min / median / max) and the target. Writes bench/results/summary.md and the table between
 * the `performance-table` markers of README.md.
 *
 *   node bench/summary.mjs        # after the benchmarks (npm run bench runs it last)
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMain, markdownTable, median, REPO_DIR, RESULTS_DIR } from "./lib.mjs";

const read = (name) => {
  const file = join(RESULTS_DIR, `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
};

const stats = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
const ms = (v) =>
  v >= 1000 ? `${(v / 1000).toFixed(2)} s` : v >= 10 ? `${v.toFixed(0)} ms` : `${v.toFixed(3)} ms`;
const spread = (s, format) => `${format(s.median)} (${format(s.min)} – ${format(s.max)})`;
const ratio = (v) => v.toFixed(2);

/** A row from two lists of samples taken side by side (sample i of each in the same round). */
function pairedRow({ figure, ours, anchor, anchorName, target, format = ms }) {
  const pairs = ours.map((value, i) => value / anchor[i]).filter((v) => Number.isFinite(v));
  const r = stats(pairs);
  return {
    cells: [
      figure,
      spread(stats(ours), format),
      `${anchorName} ${spread(stats(anchor), format)}`,
      `${ratio(r.median)} (${ratio(r.min)} – ${ratio(r.max)})`,
      `<= ${target.toFixed(2)}`,
      r.median <= target ? "yes" : "no",
    ],
    met: r.median <= target,
  };
}

export function buildSummary() {
  const rows = [];
  const sources = [];
  const startup = read("startup");
  if (startup) {
    sources.push(`startup.json (${startup.date}, ${startup.commit})`);
    const byId = Object.fromEntries(startup.cases.map((c) => [c.id, c]));
    const anchor = byId.competitor.ms;
    rows.push(
      pairedRow({
        figure: "start-up to the complete first tools/list, cold from the spec (`--no-cache`)",
        ours: byId["ours-spec-cold"].ms,
        anchor,
        anchorName: "@ivotoby",
        target: 1.0,
      }),
      pairedRow({
        figure: "start-up to the complete first tools/list, from a saved model",
        ours: byId["ours-model"].ms,
        anchor,
        anchorName: "@ivotoby",
        target: 0.45, // issue 26 decided 0.45 (it was 0.4)
      }),
    );
  }
  const latency = read("latency");
  if (latency) {
    sources.push(`latency.json (${latency.date}, ${latency.commit})`);
    const byId = Object.fromEntries(latency.cases.map((c) => [c.id, c]));
    rows.push(
      pairedRow({
        figure: "per call over stdio, fixed small JSON upstream (median of each repetition)",
        ours: byId.ours.medians,
        anchor: byId.competitor.medians,
        anchorName: "@ivotoby",
        target: 0.7,
      }),
    );
    if (byId.ours.cpuPerCall?.every((v) => v !== null)) {
      const row = pairedRow({
        figure: "the same, the bridge process's own CPU per call (moves less with the machine's load)",
        ours: byId.ours.cpuPerCall,
        anchor: byId.competitor.cpuPerCall,
        anchorName: "@ivotoby",
        target: 0.7,
      });
      row.cells[4] = "(companion)";
      row.cells[5] = "–";
      rows.push(row);
    }
  }
  const generate = read("generate");
  if (generate) {
    sources.push(`generate.json (${generate.date}, ${generate.commit})`);
    const wall = (key) => generate.samples[`${key}:github`].map((s) => s.ms);
    rows.push(
      pairedRow({
        figure: "`generate --no-cache` (whole command, validation included), wall",
        ours: wall("ours"),
        anchor: wall("theirs"),
        anchorName: "openapi-mcp-generator",
        target: 1.0,
      }),
      pairedRow({
        figure: "`generate` with the model cache, wall",
        ours: wall("oursCached"),
        anchor: wall("theirs"),
        anchorName: "openapi-mcp-generator",
        target: 0.8, // issue 26: cached at most 0.8x (cold 1.0x)
      }),
    );
  }
  const tokens = read("tokens");
  if (tokens) {
    sources.push(`tokens.json (${tokens.date})`);
    const find = (server) => tokens.results.find((r) => r.spec === "github" && r.server === server);
    const ours = find("ours");
    const theirs = find("omg");
    if (ours && theirs) {
      const value = ours.modelVisible / theirs.modelVisible;
      const n = (v) => v.toLocaleString("en");
      rows.push({
        cells: [
          "model-visible tokens of tools/list (name + description + inputSchema, o200k_base)",
          n(ours.modelVisible),
          `openapi-mcp-generator ${n(theirs.modelVisible)}`,
          ratio(value),
          "<= 0.60",
          value <= 0.6 ? "yes" : "no",
        ],
        met: value <= 0.6,
      });
    }
  }
  const load = read("load");
  if (load) {
    sources.push(`load.json (${load.date}, ${load.commit})`);
    const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
    const value = load.rss.round2 / load.rss.round1;
    rows.push({
      cells: [
        `RSS under load: ${load.clients} Streamable HTTP clients, round 2 of ${load.callsPerRound.toLocaleString("en")} calls against round 1 (${load.errors} errors)`,
        mb(load.rss.round2),
        `round 1 ${mb(load.rss.round1)}`,
        value.toFixed(3),
        // Issue 26 judges memory by rounds 2 -> 3 of the HTTP bench (the rows below): round 1
        // holds the warm-up (JIT code, pools), so 1 -> 2 is kept as a companion figure.
        "(companion: rounds 2->3 below)",
        "–",
      ],
    });
  }
  const throughput = read("http-throughput");
  if (throughput?.perRound) {
    sources.push(`http-throughput.json (${throughput.date}, ${throughput.commit})`);
    const rate = (v) => `${v.toFixed(0)}/s`;
    const atLeast = (figure, anchorName, anchor, target) => {
      const ours = throughput.perRound.ours;
      const r = stats(ours.map((value, i) => value / anchor[i]));
      return {
        cells: [
          figure,
          spread(stats(ours), rate),
          `${anchorName} ${spread(stats(anchor), rate)}`,
          `${ratio(r.median)} (${ratio(r.min)} – ${ratio(r.max)})`,
          `>= ${target.toFixed(2)}`,
          r.median >= target ? "yes" : "no",
        ],
        met: r.median >= target,
      };
    };
    rows.push(
      atLeast(
        `HTTP calls/s at saturation, ${throughput.clients} Streamable HTTP clients, fixed small JSON upstream`,
        "@ivotoby",
        throughput.perRound.competitor,
        3,
      ),
      atLeast(
        "the same against the floor: a bare undici forwarder making the same upstream call",
        "forwarder",
        throughput.perRound.floor,
        0.5,
      ),
    );
    for (const [name, anchorName] of [
      ["competitor", "@ivotoby"],
      ["floor", "forwarder"],
    ]) {
      const capacity = throughput.capacity?.[name];
      if (capacity === undefined) continue;
      const cpu = throughput.cpuMsPerCall;
      rows.push({
        cells: [
          `the same, calls per second of the server's own CPU (server CPU per call; moves less with the machine's load), against ${anchorName}`,
          spread(cpu.ours, ms),
          `${anchorName} ${spread(cpu[name], ms)}`,
          `${ratio(capacity.median)} (${ratio(capacity.min)} – ${ratio(capacity.max)})`,
          "(companion)",
          "–",
        ],
        met: capacity.median >= (name === "floor" ? 0.5 : 3),
      });
    }
    const { memory } = throughput;
    const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
    for (const [label, values, value] of [
      ["heap after a full GC", memory.heap, memory.heapRound3OverRound2],
      ["RSS", memory.rss, memory.rssRound3OverRound2],
    ]) {
      rows.push({
        cells: [
          `${label} under load: ${memory.clients} HTTP clients, round 3 of ${memory.callsPerRound.toLocaleString("en")} calls against round 2 (${memory.errors} errors)`,
          mb(values[2]),
          `round 2 ${mb(values[1])}`,
          value.toFixed(3),
          "<= 1.05",
          value <= 1.05 ? "yes" : "no",
        ],
        met: value <= 1.05,
      });
    }
  }
  const table = markdownTable(
    ["figure (GitHub REST, 1,223 operations)", "ours", "anchor", "ratio median (min – max)", "target", "met"],
    rows.map((r) => r.cells),
  );
  return { table, sources };
}

const START = "<!-- performance-table:start (bench/summary.mjs) -->";
const END = "<!-- performance-table:end -->";

export function writeSummary() {
  const { table, sources } = buildSummary();
  const text = [
    "# Performance summary",
    "",
    "Written by `node bench/summary.mjs` from the figures of the last `npm run bench`. Times are",
    "medians of runs interleaved with the anchor's; the ratio is taken run by run (ours in run i",
    "over the anchor in run i), its median with the smallest and largest. Details, machine and",
    "commands: the other files of this folder.",
    "",
    table,
    "",
    `Sources: ${sources.join("; ")}.`,
    "",
  ].join("\n");
  writeFileSync(join(RESULTS_DIR, "summary.md"), text);
  const readmeFile = join(REPO_DIR, "README.md");
  const readme = readFileSync(readmeFile, "utf8");
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start !== -1 && end > start) {
    writeFileSync(readmeFile, `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`);
    // Biome is the formatter of the README too (it aligns the table's columns).
    execFileSync(
      process.execPath,
      [join(REPO_DIR, "node_modules", "@biomejs", "biome", "bin", "biome"), "format", "--write", readmeFile],
      {
        stdio: "ignore",
      },
    );
  }
  return text;
}

if (isMain(import.meta.url)) process.stdout.write(writeSummary());
