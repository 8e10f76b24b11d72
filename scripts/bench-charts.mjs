#!/usr/bin/env node
/**
 * docs/benchmarks.md and its SVG charts (docs/benchmarks/*.svg), drawn from the tables of
 * bench/results/*.md: `npm run bench:charts`. `--check` writes nothing and exits 1 naming the
 * files that differ from what the results give (test/unit/docs/bench-charts.test.ts runs it).
 * `--results DIR --out DIR` read and write elsewhere (the test's own copies).
 *
 * Each chart is a column of one table: found by the file, the section heading (optional), a
 * header matching the label column (else the first column that is not numbers) and one matching
 * the value column, in any order among other columns, so the result files may gain columns, rows and sections. Cells are read as numbers
 * with their unit (`6536 ms`, `2.19 s`, `282,943`, `85.2%`). A file, section or table that is
 * not there yet leaves its chart out, and the page says so, instead of failing.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What each chart reads. `unit`: what the value column is converted to. */
export const CHARTS = [
  {
    id: "tokens-github",
    title: "tools/list tokens a client passes to the model: GitHub REST (1,223 operations)",
    file: "tokens.md",
    section: /^GitHub/i,
    label: /^server$/i,
    value: /^name \+ description \+ inputSchema$/i,
    unit: "tokens",
    better: "lower",
    about: "name + description + input schema of every tool, counted with o200k_base",
  },
  {
    id: "startup",
    title: "Start-up to the first complete tools/list: GitHub REST",
    file: "startup.md",
    label: /^case$/i,
    value: /^median$/i,
    unit: "ms",
    better: "lower",
    about:
      "spawn to the last page of tools/list through an SDK client over stdio, median of interleaved runs",
  },
  {
    id: "latency",
    title: "Per-call latency over stdio",
    file: "latency.md",
    label: /^case$/i,
    value: /^median per call$/i,
    unit: "ms",
    better: "lower",
    about:
      "sequential tools/call through an SDK client to a loopback API, median of the per-repetition medians",
  },
  {
    id: "generate-github",
    title: "Code generation, spec to files: GitHub REST",
    file: "generate.md",
    section: /^GitHub/i,
    label: /^generator$/i,
    value: /^wall \(median\)$/i,
    unit: "s",
    better: "lower",
    about: "whole command, wall time, median of interleaved runs",
  },
  {
    id: "generate-stripe",
    title: "Code generation, spec to files: Stripe",
    file: "generate.md",
    section: /^Stripe/i,
    label: /^generator$/i,
    value: /^wall \(median\)$/i,
    unit: "s",
    better: "lower",
    about: "whole command, wall time, median of interleaved runs",
  },
  {
    id: "search-recall",
    title: "Operation search: recall",
    file: "search.md",
    // No fixed label column: the first one whose cells are not numbers (system, ranker, ...).
    value: /recall/i,
    unit: "%",
    better: "higher",
    about: "share of tasks whose gold operation is among the results",
  },
];

/** The chart the README shows. */
export const HEADLINE = "tokens-github";

/** Headings and tables of a markdown file: `{ section, header, rows }` per table. */
export function readTables(text) {
  const tables = [];
  let section = "";
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6}\s+(.*)$/.exec(lines[i]);
    if (heading) {
      section = heading[1].trim();
      continue;
    }
    if (!lines[i].trim().startsWith("|") || !/^\s*\|[\s:|-]+\|\s*$/.test(lines[i + 1] ?? "")) continue;
    const cells = (line) =>
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((c) => c.trim());
    const header = cells(lines[i]);
    const rows = [];
    let j = i + 2;
    for (; j < lines.length && lines[j].trim().startsWith("|"); j++) rows.push(cells(lines[j]));
    tables.push({ section, header, rows });
    i = j - 1;
  }
  return tables;
}

/** A cell that is a number and nothing else (a unit aside): not a label. */
const NUMBER_CELL = /^\s*\**-?[\d,]*\.?\d+\s*(ms|s|%|MB|MiB|KB|tokens)?\**\s*$/;

/** `6536 ms` → 6536 in ms; `2.19 s` → 2.19 in s; `1,223` → 1223. Undefined when no number. */
export function readNumber(cell, unit) {
  const match = /(-?[\d,]*\.?\d+)\s*(ms|s|%|MB|MiB|KB|tokens)?/.exec(cell.replace(/\*\*/g, ""));
  if (match === null) return undefined;
  const value = Number(match[1].replace(/,/g, ""));
  if (!Number.isFinite(value)) return undefined;
  const found = match[2];
  if (unit === "ms" && found === "s") return value * 1000;
  if (unit === "s" && found === "ms") return value / 1000;
  return value;
}

/** The bars of one chart from the results folder, or `{ missing: why }`. */
export function readChart(chart, resultsDir) {
  const path = join(resultsDir, chart.file);
  if (!existsSync(path)) return { missing: `bench/results/${chart.file} does not exist yet` };
  const text = readFileSync(path, "utf8");
  const table = readTables(text).find(
    (t) =>
      (chart.section === undefined || chart.section.test(t.section)) &&
      (chart.label === undefined || t.header.some((h) => chart.label.test(h))) &&
      t.header.some((h) => chart.value.test(h)),
  );
  if (table === undefined)
    return { missing: `no table with the columns this chart reads in bench/results/${chart.file}` };
  const labelAt =
    chart.label !== undefined
      ? table.header.findIndex((h) => chart.label.test(h))
      : table.header.findIndex((_, i) => table.rows.some((row) => !NUMBER_CELL.test(row[i] ?? "")));
  const valueAt = table.header.findIndex((h) => chart.value.test(h));
  const bars = table.rows
    .map((row) => ({
      label: row[labelAt]?.replace(/`/g, "") ?? "",
      value: readNumber(row[valueAt] ?? "", chart.unit),
    }))
    .filter((bar) => bar.label !== "" && bar.value !== undefined);
  if (bars.length === 0) return { missing: `the table in bench/results/${chart.file} has no numbers yet` };
  const date = /^- Date: (.*)$/m.exec(text)?.[1] ?? /Measured (\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
  return { bars, date };
}

const escapeXml = (text) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function formatValue(value, unit) {
  const digits = unit === "s" ? 2 : unit === "%" ? 1 : value < 10 ? 2 : 0;
  const text = value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return unit === "tokens" ? text : unit === "%" ? `${text}%` : `${text} ${unit}`;
}

/** The chart as an SVG document: one horizontal bar per row, ours in blue, baselines in light grey. */
export function drawChart(chart, bars) {
  const width = 760;
  const labelWidth = 330;
  const barArea = width - labelWidth - 110;
  const top = 52;
  const rowHeight = 28;
  const height = top + bars.length * rowHeight + 16;
  const max = Math.max(...bars.map((b) => b.value), 1e-9);
  const clip = (text) => (text.length > 52 ? `${text.slice(0, 51)}…` : text);
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12" role="img">`,
    // Screen readers (and biome's a11y lint) read the chart's title.
    `<title>${escapeXml(chart.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="22" font-size="14" font-weight="600" fill="#111827">${escapeXml(chart.title)}</text>`,
    `<text x="12" y="40" fill="#4b5563">${escapeXml(`${chart.better} is better · ${chart.about}`)}</text>`,
  ];
  bars.forEach((bar, i) => {
    const y = top + i * rowHeight;
    const ours = /openapi-mcp-bridge/i.test(bar.label);
    const baseline = /baseline|direct/i.test(bar.label);
    const length = Math.max(1, Math.round((bar.value / max) * barArea));
    const fill = ours ? "#2563eb" : baseline ? "#d1d5db" : "#9ca3af";
    lines.push(
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end" fill="#111827"${ours ? ' font-weight="600"' : ""}>${escapeXml(clip(bar.label))}</text>`,
      `<rect x="${labelWidth}" y="${y + 3}" width="${length}" height="18" rx="2" fill="${fill}"/>`,
      `<text x="${labelWidth + length + 6}" y="${y + 16}" fill="#111827">${escapeXml(formatValue(bar.value, chart.unit))}</text>`,
    );
  });
  lines.push("</svg>");
  return `${lines.join("\n")}\n`;
}

/** Every file the results give: the SVGs and docs/benchmarks.md, by path relative to the repository. */
export function renderAll(resultsDir) {
  const files = new Map();
  const sections = [];
  for (const chart of CHARTS) {
    const read = readChart(chart, resultsDir);
    sections.push(`## ${chart.title}`, "");
    if (read.missing !== undefined) {
      sections.push(`Not charted yet: ${read.missing}.`, "");
      continue;
    }
    files.set(`docs/benchmarks/${chart.id}.svg`, drawChart(chart, read.bars));
    sections.push(
      `![${chart.title}](benchmarks/${chart.id}.svg)`,
      "",
      `From [bench/results/${chart.file}](../bench/results/${chart.file})${read.date ? ` (measured ${read.date})` : ""}: ${chart.about}; ${chart.better} is better. That file says how it was measured and how to run it again.`,
      "",
    );
  }
  files.set(
    "docs/benchmarks.md",
    [
      "# Benchmarks",
      "",
      "<!-- Written by `npm run bench:charts` (scripts/bench-charts.mjs) from bench/results/*.md; do not edit by hand. -->",
      "",
      "openapi-mcp-bridge (blue) next to the tools it is measured against (grey), each chart drawn",
      "from one table of `bench/results/`. Timings come from a shared 2-core machine: compare the",
      "bars of one chart (one run, interleaved), not numbers across charts. `npm run bench` and the",
      "scripts named in each results file measure again; `npm run bench:charts` redraws.",
      "",
      ...sections,
    ].join("\n"),
  );
  return files;
}

function main() {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : args[at + 1];
  };
  const resultsDir = option("--results", join(ROOT, "bench", "results"));
  const outDir = option("--out", ROOT);
  const stale = [];
  for (const [path, text] of renderAll(resultsDir)) {
    const target = join(outDir, path);
    const current = existsSync(target) ? readFileSync(target, "utf8") : undefined;
    if (current === text) continue;
    stale.push(relative(outDir, target));
    if (!args.includes("--check")) {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
  if (args.includes("--check")) {
    if (stale.length > 0) {
      process.stderr.write(`stale against bench/results (run npm run bench:charts): ${stale.join(", ")}\n`);
      process.exitCode = 1;
    }
  } else {
    process.stderr.write(stale.length === 0 ? "charts up to date\n" : `wrote ${stale.join(", ")}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
