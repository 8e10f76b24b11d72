/**
 * The built package (dist/): OpenAPI schema validators precompiled by the build, agreeing with
 * the ones compiled at run time, and large specs validated in a worker thread.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../src/generator/spec/load-spec.js";
import type { BridgeError } from "../../src/model/diagnostics.js";
import { failure, stdin, text } from "../helpers/spec-loading.js";

type Json = Record<string, unknown>;

type Library = typeof import("../../src/index.js");
const ROOT = resolve(import.meta.dirname, "../..");
const DIST_INDEX = join(ROOT, "dist/index.js");

/** An OpenAPI 3.0 document of over 1 MB of JSON; `invalid` adds two schema problems. */
function largeSpec(invalid: boolean): Json {
  const paths: Json = {};
  for (let i = 0; i < 3000; i++) {
    paths[`/items${i}`] = {
      get: {
        operationId: `getItem${i}`,
        description: `Item ${i}. ${"Lorem ipsum dolor sit amet. ".repeat(10)}`,
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
          },
        },
      },
    };
  }
  const item: Json = { type: "object", properties: { id: { type: "integer" } } };
  if (invalid) {
    (paths["/items1234"] as { get: Json }).get["responses"] = {};
    (paths["/items1234"] as { get: Json }).get["parameters"] = [{ name: "q", schema: { type: "string" } }];
    item["colour"] = "red";
  }
  return {
    openapi: "3.0.3",
    info: { title: "Large", version: "1" },
    paths,
    components: { schemas: { Item: item } },
  };
}

describe("the built package", () => {
  let dist: Library;
  let dir: string;
  let large: string;
  let largeInvalid: string;

  const workerSetting = process.env["OMB_VALIDATION_WORKER"];

  beforeAll(async () => {
    // A worker whatever the number of cores.
    process.env["OMB_VALIDATION_WORKER"] = "1";
    dist = (await import(pathToFileURL(DIST_INDEX).href)) as Library;
    dir = await mkdtemp(join(tmpdir(), "omb-load-"));
    large = join(dir, "large.json");
    largeInvalid = join(dir, "large-invalid.json");
    await writeFile(large, JSON.stringify(largeSpec(false)));
    await writeFile(largeInvalid, JSON.stringify(largeSpec(true)));
    expect(readFileSync(large, "utf8").length).toBeGreaterThan(1_000_000);
  });

  afterAll(async () => {
    if (workerSetting === undefined) delete process.env["OMB_VALIDATION_WORKER"];
    else process.env["OMB_VALIDATION_WORKER"] = workerSetting;
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps its command executable after every build (an npm link survives npm pack)", () => {
    const mode = statSync(resolve(DIST_INDEX, "..", "cli", "main.js")).mode;
    expect(mode & 0o111).toBe(0o111);
  });

  it("has the three OpenAPI schema validators precompiled", () => {
    for (const version of ["2.0", "3.0", "3.1"]) {
      expect(existsSync(join(ROOT, `dist/generator/spec/document-check/oas-${version}.cjs`))).toBe(true);
    }
  });

  it.each([
    ["valid 3.0 JSON", () => text("pets.openapi30.json")],
    ["valid 3.1", () => text("pets.openapi31.yaml")],
    ["valid 2.0", () => text("petstore.swagger20.yaml")],
    ["invalid 3.0", () => text("invalid.openapi30.yaml")],
    [
      "invalid 2.0",
      () =>
        'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      parameters: [{name: h, in: header, type: array, items: {type: string}, collectionFormat: multi}]\n      responses: {"200": {}}\n',
    ],
    [
      "invalid 3.1",
      () =>
        'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {content: {}}\n        "2000": {description: x}\n',
    ],
  ])("precompiled and run-time compiled validators agree: %s", async (_name, body) => {
    const problems = (lib: Pick<Library, "loadSpec">) =>
      lib.loadSpec("-", stdin(body())).then(
        () => [],
        (e: BridgeError) => e.diagnostics,
      );
    expect(await problems(dist)).toEqual(await problems({ loadSpec }));
  });

  it("deferValidation: a large invalid spec loads, then `validation` rejects as loadSpec would have thrown", async () => {
    const loaded = await dist.loadSpec(largeInvalid, { deferValidation: true });
    expect(loaded.document.info.title).toBe("Large");
    const error = await loaded.validation!.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).name).toBe("BridgeError");
    const thrown = await failure(largeInvalid);
    // The empty responses and the unknown "colour" are warnings; the parameter without `in` is not.
    expect(thrown.map((d) => d.pointer)).toEqual(["/paths/~1items1234/get/parameters/0"]);
    expect((error as BridgeError).diagnostics).toEqual(thrown);
  });

  it("deferValidation: a large valid spec's `validation` resolves", async () => {
    const loaded = await dist.loadSpec(large, { deferValidation: true });
    await expect(loaded.validation).resolves.toEqual([]);
  });

  it("buildModel plans a large spec and fails when validation does", async () => {
    const model = await dist.buildModel(large);
    expect(model.tools).toHaveLength(3000);
    const error = await dist.buildModel(largeInvalid).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as BridgeError).diagnostics?.[0]).toMatchObject({
      code: "OMB_SPEC_INVALID",
      pointer: "/paths/~1items1234/get/parameters/0",
    });
  });

  it("an ignored failed validation is no unhandled rejection, and the worker ends", async () => {
    const script = [
      `const { loadSpec } = await import(${JSON.stringify(pathToFileURL(DIST_INDEX).href)});`,
      `await loadSpec(${JSON.stringify(largeInvalid)}, { deferValidation: true });`,
      `console.log("loaded");`,
    ].join("\n");
    const run = promisify(execFile);
    const { stdout, stderr } = await run(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 15_000,
      env: { ...process.env, OMB_VALIDATION_WORKER: "1" },
    });
    expect(stdout.trim()).toBe("loaded");
    expect(stderr).toBe("");
  });
});
