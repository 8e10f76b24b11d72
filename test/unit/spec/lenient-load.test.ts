/**
 * The lenient loader: slips repaired and unresolvable refs no operation reaches left out, each
 * kind said once; the limits on refs exactly as before (an outside file that an operation
 * reaches is refused, one nothing reaches is never even opened); `strict: true` refuses all of
 * it with the diagnostics the loader always gave.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../../src/generator/spec/load-spec.js";
import { failure } from "../../helpers/spec-loading.js";

let root: string;
let specDir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "omb-lenient-load-"));
  specDir = join(root, "api");
  mkdirSync(specDir);
  // Outside the spec's folder: a FIFO, which a read would wait on forever.
  execFileSync("mkfifo", [join(root, "policies.yaml")]);
  writeFileSync(join(specDir, "pet.yaml"), "type: object\nproperties: {name: {type: string}}\n");
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const OK = { "200": { description: "ok" } };

function writeSpec(name: string, doc: Record<string, unknown>): string {
  const file = join(specDir, name);
  writeFileSync(file, JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, ...doc }));
  return file;
}

/** One operation whose response schema is `schema`, plus `components`. */
function withResponse(schema: unknown, components: Record<string, unknown> = {}) {
  return {
    paths: {
      "/a": {
        get: {
          responses: { "200": { description: "ok", content: { "application/json": { schema } } } },
        },
      },
    },
    components,
  };
}

describe("refs no operation reaches", () => {
  it("an extension's ref to a file outside the folder is left out, never opened; --strict refuses it", async () => {
    const file = writeSpec("policy.json", {
      paths: { "/a": { get: { "x-policy-list": { $ref: "#/components/x-policy/list" }, responses: OK } } },
      components: { "x-policy": { $ref: "../policies.yaml", list: [] } },
    });
    const loaded = await loadSpec(file);
    expect(loaded.diagnostics).toEqual([
      {
        code: "OMB_REF_LEFT_UNRESOLVED",
        severity: "warning",
        message: `$ref "../policies.yaml" left unresolved (it leads to ${join(root, "policies.yaml")}, outside the folders refs may read); no operation reaches it, so no tool changes`,
        file,
        pointer: "/components/x-policy",
      },
    ]);
    // Its other keys stay, so the operation's own ref into it still resolves.
    expect(loaded.document.components).toEqual({ "x-policy": { list: [] } });

    const strict = await failure(file, { strict: true });
    expect(strict.map((d) => [d.code, d.pointer])).toEqual([
      ["OMB_REF_OUTSIDE_ROOT", "/components/x-policy"],
    ]);
  });

  it("an outside file an operation reaches is refused as before, lenient or not", async () => {
    const file = writeSpec("reached.json", withResponse({ $ref: "../policies.yaml" }));
    for (const strict of [false, true]) {
      const diagnostics = await failure(file, { strict });
      expect(diagnostics.map((d) => d.code)).toEqual(["OMB_REF_OUTSIDE_ROOT"]);
    }
  });

  it("reached through a component, a ref is reached: refused", async () => {
    const file = writeSpec(
      "through.json",
      withResponse(
        { $ref: "#/components/schemas/Policy" },
        { schemas: { Policy: { $ref: "../policies.yaml" } } },
      ),
    );
    expect((await failure(file)).map((d) => d.code)).toEqual(["OMB_REF_OUTSIDE_ROOT"]);
  });

  it("an unused component naming a missing file is left out; a network ref in an extension too, nothing fetched", async () => {
    const file = writeSpec("unused.json", {
      ...withResponse(
        { $ref: "#/components/schemas/Pet" },
        {
          schemas: { Pet: { $ref: "pet.yaml" }, Gone: { $ref: "gone.yaml" } },
        },
      ),
      "x-docs": { $ref: "http://127.0.0.1:9/docs.yaml" },
    });
    const loaded = await loadSpec(file);
    expect(loaded.diagnostics.map((d) => [d.code, d.pointer, d.message.replace(/ \(.*\)/, "")])).toEqual([
      [
        "OMB_REF_LEFT_UNRESOLVED",
        "/components/schemas/Gone",
        '$ref "gone.yaml" left unresolved; no operation reaches it, so no tool changes',
      ],
      [
        "OMB_REF_LEFT_UNRESOLVED",
        "/x-docs",
        '$ref "http://127.0.0.1:9/docs.yaml" left unresolved; no operation reaches it, so no tool changes',
      ],
    ]);
    expect(loaded.diagnostics[0]!.message).toContain(`(file not found: ${join(specDir, "gone.yaml")})`);
    expect(loaded.diagnostics[1]!.message).toContain("(network references are off)");
    // The reached one is bundled as always.
    expect(JSON.stringify(loaded.document.components)).toContain('"name":{"type":"string"}');

    const strict = await failure(file, { strict: true });
    expect(strict.map((d) => d.code)).toEqual(["OMB_REF_NETWORK"]);
  });

  it("a component an operation uses, naming a missing file, is refused", async () => {
    const file = writeSpec(
      "missing.json",
      withResponse({ $ref: "#/components/schemas/Gone" }, { schemas: { Gone: { $ref: "gone.yaml" } } }),
    );
    expect((await failure(file)).map((d) => d.code)).toEqual(["OMB_REF_UNRESOLVED"]);
  });

  it("a local ref to nothing in an unused component is left out; --strict refuses it", async () => {
    const file = writeSpec(
      "broken.json",
      withResponse(
        { type: "object" },
        { schemas: { Unused: { properties: { a: { $ref: "#/components/schemas/Nope" } } } } },
      ),
    );
    const loaded = await loadSpec(file);
    expect(loaded.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["OMB_REF_LEFT_UNRESOLVED", "/components/schemas/Unused/properties/a"],
    ]);
    expect((await failure(file, { strict: true })).map((d) => d.code)).toEqual(["OMB_REF_UNRESOLVED"]);
  });

  it("a property named like an extension is reached, not skipped", async () => {
    const file = writeSpec(
      "named.json",
      withResponse({ type: "object", properties: { "x-id": { $ref: "../policies.yaml" } } }),
    );
    expect((await failure(file)).map((d) => d.code)).toEqual(["OMB_REF_OUTSIDE_ROOT"]);
  });
});

describe("slips", () => {
  const slipped = {
    paths: {
      "/a": {
        get: {
          parameters: [
            { name: "n", in: "query", required: "false", schema: { type: "integer", maximum: "50" } },
          ],
          responses: OK,
        },
      },
    },
  };

  it("are repaired before validation, which then passes", async () => {
    const file = writeSpec("slips.json", slipped);
    const loaded = await loadSpec(file);
    expect(loaded.diagnostics.map((d) => d.code)).toEqual(["OMB_SPEC_REPAIRED", "OMB_SPEC_REPAIRED"]);
    expect(loaded.document.paths?.["/a"]).toMatchObject({
      get: { parameters: [{ required: false, schema: { maximum: 50 } }] },
    });
  });

  it("--strict refuses them with the validation errors", async () => {
    const file = writeSpec("slips.json", slipped);
    const diagnostics = await failure(file, { strict: true });
    expect(diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ["OMB_SPEC_INVALID", "/paths/~1a/get/parameters/0/required", "must be of type boolean"],
      ["OMB_SPEC_INVALID", "/paths/~1a/get/parameters/0/schema/maximum", "must be of type number"],
    ]);
    expect(diagnostics[0]!.hint).toContain("--no-validate");
  });

  it("are repaired in a document whose validation may be deferred to a worker", async () => {
    // Over the size from which validation may be deferred to a worker thread.
    const padding = "x".repeat(1_100_000);
    const file = writeSpec("large.json", {
      ...slipped,
      info: { title: "t", version: "1", description: padding },
    });
    const loaded = await loadSpec(file, { deferValidation: true });
    await expect(loaded.validation).resolves.toEqual([]);
    // In a worker (built package, cores to spare) or in this thread: refused either way.
    const strict = loadSpec(file, { deferValidation: true, strict: true }).then((l) => l.validation);
    await expect(strict).rejects.toThrow(/OMB_SPEC_INVALID/);
  });
});
