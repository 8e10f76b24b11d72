/**
 * Printing in worker threads (print-worker-pool.ts): the compiled library (dist/, where the
 * worker can run) prints the same bytes with workers as the source prints in this thread; an
 * error a worker meets is thrown as it would have been here (a coded diagnostic stays one); a
 * worker that fails to start or dies has its share printed here; a failed generation exits.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toModelHead } from "../../src/generator/codegen/emit/modules.js";
import { emitProject } from "../../src/generator/codegen/generate.js";
import {
  choosePrintWorkers,
  startModulePrinter,
} from "../../src/generator/codegen/print/print-worker-pool.js";
import { BridgeError, buildModel } from "../../src/index.js";
import type { BridgeModel } from "../../src/model/types.js";
import { fixture, ROOT, runCli } from "../helpers/bridge.js";
import { GOLDEN_FIXTURES, listFiles, scratchDir } from "./generated-support.js";

type GenerateModule = typeof import("../../src/generator/codegen/generate.js");

const SPECS = [
  ...GOLDEN_FIXTURES.map(([, spec]) => spec),
  "real/readme.openapi31.yaml",
  "real/swagger-petstore.swagger20.yaml",
];
let compiled: GenerateModule;
let scratch: string;

beforeAll(async () => {
  expect(
    existsSync(join(ROOT, "dist", "generator", "codegen", "print", "print-worker.js")),
    "npm run build first",
  ).toBe(true);
  compiled = (await import(
    pathToFileURL(join(ROOT, "dist", "generator", "codegen", "generate.js")).href
  )) as GenerateModule;
  scratch = scratchDir("omb-generate-workers");
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** The model with one number the printer refuses (JSON has no Infinity; a model object can). */
function withInfinity(model: BridgeModel): BridgeModel {
  const copy = structuredClone(model);
  copy.tools[0]!.inputSchema = { ...copy.tools[0]!.inputSchema, maximum: Number.POSITIVE_INFINITY };
  return copy;
}

/** A worker entry written for a test: `body` runs in the worker thread. */
function workerScript(name: string, body: string): URL {
  const file = join(scratch, `${name}.mjs`);
  writeFileSync(file, `import { parentPort } from "node:worker_threads";\n${body}\n`);
  return pathToFileURL(file);
}

describe("printing in worker threads", () => {
  it.each(SPECS)("gives the same files as printing in this thread: %s", async (spec) => {
    const model = await buildModel(fixture(...spec.split("/")));
    const here = await emitProject(model, { projectPath: "/p" });
    for (const printWorkers of spec === "real/readme.openapi31.yaml" ? [1, 2, 3] : [2]) {
      const inWorkers = await compiled.emitProject(model, { projectPath: "/p", printWorkers });
      expect(inWorkers.map((f) => f.path)).toEqual(here.map((f) => f.path));
      expect(inWorkers).toEqual(here);
    }
  });

  it("the CLI writes the same bytes with workers as without", async () => {
    const out = join(scratch, "cli-out");
    const written: Record<string, Record<string, string>> = {};
    for (const workers of ["2", "0"]) {
      const run = await runCli(["generate", fixture("petstore", "petstore.openapi30.yaml"), "-o", out], {
        env: { OMB_PRINT_WORKERS: workers, OPENAPI_MCP_CACHE: "0" },
      });
      expect(run.code, run.stderr).toBe(0);
      written[workers] = Object.fromEntries(
        listFiles(out).map((f) => [f, readFileSync(join(out, f), "utf8")]),
      );
      renameSync(out, join(scratch, `cli-out-${workers}`));
    }
    expect(Object.keys(written["2"]!).length).toBeGreaterThan(40);
    expect(written["2"]).toEqual(written["0"]);
  });

  it("throws a worker's error as this thread would, writes nothing, and lets the process go on", async () => {
    const model = withInfinity(await buildModel(fixture("petstore", "petstore.openapi30.yaml")));
    const here = await emitProject(model, { projectPath: "/p" }).catch((error: unknown) => error);
    expect(here).toBeInstanceOf(Error);
    expect((here as Error).message).toMatch(/cannot print the number Infinity/);
    const there = await compiled.emitProject(model, { projectPath: "/p", printWorkers: 2 }).catch((e) => e);
    expect((there as Error).message).toBe((here as Error).message);
    const out = join(scratch, "failed");
    const generated = await compiled.generateProject(model, { outDir: out, printWorkers: 2 }).catch((e) => e);
    expect((generated as Error).message).toBe((here as Error).message);
    expect(existsSync(out)).toBe(false);
  });

  it("a coded diagnostic from a worker stays a BridgeError with the same diagnostics", async () => {
    const diagnostics = [{ code: "OMB_TEST", severity: "error", message: "from the worker" }];
    const url = workerScript(
      "diagnostic",
      `parentPort.postMessage({ ready: true });\nparentPort.once("message", () => parentPort.postMessage({ error: { message: "x", diagnostics: ${JSON.stringify(diagnostics)} } }));`,
    );
    const model = await buildModel(fixture("petstore", "petstore.openapi30.yaml"));
    const printer = startModulePrinter({ workers: 1, workerUrl: url });
    const error = await printer
      .print(toModelHead(model), [{ kind: "api", path: "src/api.ts" }])
      .catch((e) => e);
    printer.close();
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).diagnostics).toEqual(diagnostics);
  });

  it.each([
    ["exits at start", "process.exit(3);"],
    ["throws at start", 'throw new Error("cannot start");'],
    ["never gets ready", "setTimeout(() => process.exit(5), 200);"],
    [
      "exits when asked to print",
      'parentPort.postMessage({ ready: true }); parentPort.once("message", () => process.exit(4));',
    ],
  ])("a worker that %s has its share printed in this thread", async (name, body) => {
    const url = workerScript(name.replace(/\W+/g, "-"), body);
    const model = await buildModel(fixture("petstore", "petstore.openapi30.yaml"));
    const here = await emitProject(model, { projectPath: "/p" });
    const head = toModelHead(model);
    const jobs = [
      ...model.tools.map((tool) => ({ kind: "tool" as const, path: `src/tools/${tool.name}.ts`, tool })),
      { kind: "api" as const, path: "src/api.ts" },
    ];
    const printer = startModulePrinter({ workers: 2, workerUrl: url });
    const texts = await printer.print(head, jobs);
    printer.close();
    expect(texts).toHaveLength(jobs.length);
    expect(texts.at(-1)).toBe(here.find((f) => f.path === "src/api.ts")?.contents);
  });

  it("a generation that fails before printing exits with its diagnostic, no stack trace", async () => {
    const out = join(scratch, "invalid");
    const run = await runCli(["generate", fixture("errors", "invalid-schema.openapi30.yaml"), "-o", out], {
      env: { OMB_PRINT_WORKERS: "2", OPENAPI_MCP_CACHE: "0" },
    });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error OMB_SPEC_INVALID /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it("the source has no worker to start: printing falls back to this thread", async () => {
    const model = await buildModel(fixture("petstore", "petstore.openapi30.yaml"));
    const here = await emitProject(model, { projectPath: "/p" });
    expect(await emitProject(model, { projectPath: "/p", printWorkers: 2 })).toEqual(here);
  });
});

describe("choosePrintWorkers", () => {
  it.each([
    { given: { cores: 1, load: 0 }, want: 0 },
    { given: { cores: 2, load: 0 }, want: 0 },
    { given: { cores: 3, load: 0 }, want: 0 },
    { given: { cores: 4, load: 2 }, want: 2 },
    { given: { cores: 4, load: 2.5 }, want: 0 },
    { given: { cores: 8, load: 1 }, want: 2 },
    { given: { cores: 8, load: 9 }, want: 0 },
  ])("$given.cores cores, load $given.load: $want", ({ given, want }) => {
    expect(choosePrintWorkers({}, given)).toBe(want);
  });

  it("OMB_PRINT_WORKERS decides when set", () => {
    expect(choosePrintWorkers({ OMB_PRINT_WORKERS: "3" }, { cores: 1, load: 9 })).toBe(3);
    expect(choosePrintWorkers({ OMB_PRINT_WORKERS: "0" }, { cores: 8, load: 0 })).toBe(0);
    expect(choosePrintWorkers({ OMB_PRINT_WORKERS: "1" }, { cores: 2, load: 0 })).toBe(1);
    expect(choosePrintWorkers({ OMB_PRINT_WORKERS: "many" }, { cores: 8, load: 0 })).toBe(2);
  });
});
