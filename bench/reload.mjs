/**
 * Hot reload latency: from writing a changed spec file to the client receiving
 * notifications/tools/list_changed, through `serve --watch` over stdio and a real SDK Client.
 * Each edit is new text (a summary with a counter), so every reload reads, validates and plans
 * the spec again (no model-cache hit); "rollback" saves a version served before (a cache hit),
 * which is what rolling back costs. Specs: a 3-operation one, the 20-operation pet store, Gitea
 * (346) and GitHub (1,223, the packed copy in test/corpus), plus two APIs in one bridge with one
 * of them edited. Runs are interleaved across cases; medians, min and max. Also the bridge's
 * own "reloaded ... in N ms" (read, plan, make ready, diff, swap) for the same reloads.
 *
 * Then what the catalog facts cost tools/list: GitHub's 1,223 tools listed in tools mode, in
 * process, by the runtime alone and through the live runtime (which adds each tool's contract
 * version and digest), interleaved.
 *
 *   npm run build && node bench/reload.mjs            # writes bench/results/lifecycle-reload.md
 *   RUNS=3 node bench/reload.mjs                       # fewer runs
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  connectStdioClient,
  describeEnvironment,
  formatMs,
  isMain,
  markdownTable,
  now,
  OUR_CLI,
  REPO_DIR,
  RESULTS_DIR,
  summarize,
  UNUSED_BASE_URL,
} from "./lib.mjs";

const RUNS = Number(process.env.RUNS ?? 7);

/** A spec's text with the first `summary:` (YAML) or `"summary":` (JSON) value made unique. */
function edit(text, tag) {
  const json = text.trimStart().startsWith("{");
  if (json) return text.replace(/"summary":\s*"/, `"summary": "${tag} `);
  return text.replace(/summary: /, `summary: ${tag} `);
}

function prepareCases(dir) {
  const github = join(dir, "github.json");
  writeFileSync(
    github,
    gunzipSync(readFileSync(join(REPO_DIR, "test/corpus/specs/octokit/api.github.com.json.gz"))),
  );
  const copy = (from, name) => {
    const to = join(dir, name);
    writeFileSync(to, readFileSync(join(REPO_DIR, from)));
    return to;
  };
  return [
    {
      name: "3 operations (fixtures/apis/erp)",
      files: [copy("fixtures/apis/erp.openapi31.yaml", "erp.yaml")],
    },
    {
      name: "20 operations (fixtures/petstore)",
      files: [copy("fixtures/petstore/petstore.openapi30.yaml", "petstore.yaml")],
    },
    { name: "346 operations (Gitea)", files: [copy("fixtures/codegen/gitea.openapi30.json", "gitea.json")] },
    { name: "1,223 operations (GitHub)", files: [github] },
    {
      name: "two APIs, one edited (erp + crm)",
      files: [
        copy("fixtures/apis/erp.openapi31.yaml", "two-erp.yaml"),
        copy("fixtures/apis/crm.openapi31.yaml", "two-crm.yaml"),
      ],
      namespaces: "erp,crm",
    },
  ];
}

async function startCase(testCase, cacheDir) {
  const args = [OUR_CLI, "serve", ...testCase.files, "--watch", "--base-url", UNUSED_BASE_URL];
  if (testCase.namespaces !== undefined) {
    // Several APIs: each needs its own base URL, so --base-url goes per API.
    args.splice(args.indexOf("--base-url"), 2, "--namespace", testCase.namespaces);
  }
  // Nothing of this run is cached from an earlier one: every edit is planned.
  const env = {
    OPENAPI_MCP_CACHE_DIR: cacheDir,
    ...(testCase.namespaces !== undefined
      ? { OPENAPI_MCP_ERP__BASE_URL: UNUSED_BASE_URL, OPENAPI_MCP_CRM__BASE_URL: UNUSED_BASE_URL }
      : {}),
  };
  const connected = await connectStdioClient(args, { timeoutMs: 120_000, env });
  let wake;
  connected.client.setNotificationHandler(ToolListChangedNotificationSchema, () => wake?.());
  await connected.client.listTools();
  const original = readFileSync(testCase.files[0], "utf8");
  return {
    ...testCase,
    ...connected,
    original,
    counter: 0,
    /** Writes `text` and resolves with the ms until list_changed, and the bridge's own figure. */
    async change(text) {
      const before = connected.stderr().length;
      const notified = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no list_changed for ${testCase.name}`)), 120_000);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const started = now();
      writeFileSync(testCase.files[0], text);
      await notified;
      const elapsed = now() - started;
      // The "reloaded ... in N ms" line comes just before the notification; give it a moment.
      let own;
      for (let i = 0; i < 50 && own === undefined; i++) {
        own = /reloaded .* in (\d+) ms/.exec(connected.stderr().slice(before))?.[1];
        if (own === undefined) await new Promise((r) => setTimeout(r, 10));
      }
      return { elapsed, own: own === undefined ? Number.NaN : Number(own) };
    },
  };
}

export async function runReload({ log = () => {} } = {}) {
  const dir = mkdtempSync(join(os.tmpdir(), "omb-bench-reload-"));
  const cases = [];
  try {
    for (const testCase of prepareCases(dir)) {
      log(`starting ${testCase.name}`);
      cases.push(await startCase(testCase, join(dir, "cache")));
    }
    const results = new Map(
      cases.map((c) => [c.name, { edit: [], editOwn: [], rollback: [], rollbackOwn: [] }]),
    );
    for (let run = 0; run < RUNS; run++) {
      for (const c of cases) {
        c.counter++;
        const edited = await c.change(edit(c.original, `Edit ${run}.`));
        const back = await c.change(c.original);
        const r = results.get(c.name);
        r.edit.push(edited.elapsed);
        r.editOwn.push(edited.own);
        r.rollback.push(back.elapsed);
        r.rollbackOwn.push(back.own);
        log(
          `${c.name} run ${run + 1}: edit ${formatMs(edited.elapsed)} (bridge ${edited.own} ms), rollback ${formatMs(back.elapsed)}`,
        );
      }
    }
    return { results, env: describeEnvironment() };
  } finally {
    for (const c of cases) await c.client.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Median ms of a complete tools/list of GitHub's tools, without and with the contract `_meta`. */
export async function measureListCost({ log = () => {} } = {}) {
  const dir = mkdtempSync(join(os.tmpdir(), "omb-bench-list-"));
  try {
    const spec = join(dir, "github.json");
    writeFileSync(
      spec,
      gunzipSync(readFileSync(join(REPO_DIR, "test/corpus/specs/octokit/api.github.com.json.gz"))),
    );
    const { buildModel, createBridgeRuntime, createLiveRuntime } = await import(
      join(REPO_DIR, "dist", "index.js")
    );
    const model = await buildModel(spec, { cache: false });
    const listAll = (runtime) => {
      const started = now();
      let cursor;
      do {
        const page = runtime.listTools(cursor);
        JSON.stringify(page);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return now() - started;
    };
    const plain = [];
    const live = [];
    for (let run = 0; run < RUNS; run++) {
      plain.push(listAll(createBridgeRuntime(model, { env: {}, mode: "tools" })));
      live.push(listAll(createLiveRuntime(createBridgeRuntime(model, { env: {}, mode: "tools" }))));
      log(`tools/list run ${run + 1}: ${formatMs(plain.at(-1))} alone, ${formatMs(live.at(-1))} with _meta`);
    }
    return { tools: model.tools.length, plain, live };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function reloadMarkdown({ results, env, list }) {
  const cell = (values) => {
    const s = summarize(values.filter((v) => !Number.isNaN(v)));
    return `${formatMs(s.median)} (${formatMs(s.min)}–${formatMs(s.max)})`;
  };
  const rows = [...results].map(([name, r]) => [
    name,
    cell(r.edit),
    cell(r.editOwn),
    cell(r.rollback),
    cell(r.rollbackOwn),
  ]);
  return [
    "# Hot reload latency (`serve --watch`)",
    "",
    `Measured ${env.date} by \`node bench/reload.mjs\` (Node ${env.node}, ${env.platform}; ${env.cpu}, nproc ${env.nproc}; load average at the end ${env.loadAverage}; commit ${env.commit}).`,
    "",
    "From writing the changed spec file to the SDK `Client` receiving `notifications/tools/list_changed`",
    "over stdio. *edit*: new text (a summary changed, so a docs change and a new catalog patch version),",
    "read, validated and planned again; *rollback*: the version served before is saved again (the",
    "model cache has it). *bridge*: the bridge's own `reloaded ... in N ms` for the same reloads (read,",
    "plan, make ready, diff with the lifecycle core, swap); the rest is the 100 ms the file events",
    `settle for, the file watch and the notification's trip. ${RUNS} runs per case, interleaved; median (min–max).`,
    "",
    markdownTable(
      ["spec", "edit → list_changed", "edit: bridge", "rollback → list_changed", "rollback: bridge"],
      rows,
    ),
    "",
    "A spec URL is polled every `--watch-interval` ms (default 30,000): its latency is up to one interval",
    "plus the fetch and the same reload.",
    "",
    "## What the catalog facts cost tools/list",
    "",
    `Every tool of tools/list carries its contract version and digest in \`_meta\`. A complete tools/list of`,
    `GitHub's ${list.tools.toLocaleString("en-US")} tools in tools mode (in process, serialised; the first list of a runtime, digests`,
    `computed then), ${RUNS} runs interleaved, median (min–max):`,
    "",
    markdownTable(
      ["", "tools/list"],
      [
        ["runtime alone (no `_meta`)", cell(list.plain)],
        ["live runtime (catalog and contract `_meta`)", cell(list.live)],
      ],
    ),
    "",
    "In `--mode auto` a list this long is served in discovery mode (three tools), where the cost is nil.",
    "",
  ].join("\n");
}

if (isMain(import.meta.url)) {
  const log = (line) => process.stderr.write(`${line}\n`);
  const outcome = await runReload({ log });
  const list = await measureListCost({ log });
  const text = reloadMarkdown({ ...outcome, list });
  writeFileSync(join(RESULTS_DIR, "lifecycle-reload.md"), text);
  process.stdout.write(text);
}
