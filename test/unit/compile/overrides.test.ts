/**
 * Overrides: `x-mcp` on operations and path items, and override maps (by operationId or
 * `METHOD /path`). Overlays are in overlay.test.ts.
 */
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import {
  type LoadedOverrides,
  limitAnnotationHints,
  parseMcpOverride,
  parseOverridesDocument,
} from "../../../src/generator/compile/overrides.js";
import { deriveAnnotations, planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import { BridgeError } from "../../../src/model/diagnostics.js";
import { parseModel, serializeModel } from "../../../src/model/serialize.js";
import type { BridgeModel, Diagnostic } from "../../../src/model/types.js";
import { fixture } from "../../helpers/bridge.js";

const ok = { responses: { "200": { description: "ok" } } };

function plan(paths: Record<string, unknown>, overrides?: Record<string, unknown>): BridgeModel {
  const loaded = {
    document: { openapi: "3.0.3", info: { title: "T", version: "1" }, paths },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  const map = overrides
    ? (parseOverridesDocument(overrides, "over.yaml", "") as Extract<LoadedOverrides, { kind: "map" }>).map
    : undefined;
  return planModel(loaded, map ? { overrides: map } : {});
}

function codes(model: BridgeModel): string[] {
  return model.diagnostics.map((d) => d.code);
}

function find(model: BridgeModel, code: string): Diagnostic[] {
  return model.diagnostics.filter((d) => d.code === code);
}

describe("parseMcpOverride", () => {
  it.each([
    {
      given: { name: "a", description: "d", title: "T", hidden: false },
      want: { name: "a", description: "d", title: "T", hidden: false },
      problems: [],
    },
    {
      given: { annotations: { readOnlyHint: true, title: "x" } },
      want: { annotations: { readOnlyHint: true, title: "x" } },
      problems: [],
    },
    { given: { hidden: "yes" }, want: {}, problems: ["/x-mcp/hidden"] },
    { given: { name: "" }, want: {}, problems: ["/x-mcp/name"] },
    { given: { nmae: "typo" }, want: {}, problems: ["/x-mcp/nmae"] },
    {
      given: { annotations: { readOnlyHint: "true", danger: true } },
      want: { annotations: {} },
      problems: ["/x-mcp/annotations/readOnlyHint", "/x-mcp/annotations/danger"],
    },
    { given: "rename", want: {}, problems: ["/x-mcp"] },
  ])("$given → $want", ({ given, want, problems }) => {
    const result = parseMcpOverride(given, "/x-mcp");
    expect(result.override).toEqual(want);
    expect(result.problems.map((p) => p.pointer)).toEqual(problems);
  });
});

describe("x-mcp in the spec", () => {
  it.each([
    {
      title: "renames, redescribes and retitles an operation",
      paths: {
        "/pets": {
          get: {
            operationId: "listPets",
            summary: "List",
            "x-mcp": { name: "find_pets", description: "Find pets.", title: "Find" },
            ...ok,
          },
        },
      },
      want: { name: "find_pets", description: "Find pets.", title: "Find", annotationTitle: "Find" },
    },
    {
      title: "annotations.title changes only the annotation",
      paths: {
        "/pets": {
          get: { operationId: "listPets", summary: "List", "x-mcp": { annotations: { title: "A" } }, ...ok },
        },
      },
      want: { name: "listPets", description: "List.", title: "List", annotationTitle: "A" },
    },
  ])("$title", ({ paths, want }) => {
    const tool = plan(paths).tools[0]!;
    expect({
      name: tool.name,
      description: tool.description.split("\n")[0],
      title: tool.title,
      annotationTitle: tool.annotations.title,
    }).toEqual(want);
  });

  it("a path item's x-mcp applies to each operation; the operation's wins field by field", () => {
    const model = plan({
      "/pets/{id}": {
        "x-mcp": { annotations: { openWorldHint: false, destructiveHint: true } },
        get: { operationId: "getPet", ...ok },
        post: { operationId: "createPet", "x-mcp": { annotations: { destructiveHint: false } }, ...ok },
      },
    });
    const hints = Object.fromEntries(
      model.tools.map((t) => [t.name, [t.annotations.openWorldHint, t.annotations.destructiveHint]]),
    );
    expect(hints).toEqual({ getPet: [false, true], createPet: [false, false] });
  });

  it("every annotation hint can be overridden, the others keep their derived value", () => {
    const annotations = {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    };
    const tool = plan({ "/run": { post: { operationId: "run", "x-mcp": { annotations }, ...ok } } })
      .tools[0]!;
    expect(tool.annotations).toEqual({ title: tool.title, ...annotations });
    const plain = plan({ "/run": { post: { operationId: "run", ...ok } } }).tools[0]!;
    expect(plain.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it("hidden drops the tool with an info diagnostic at the operation", () => {
    const model = plan({
      "/pets": { get: { operationId: "listPets", ...ok }, delete: { "x-mcp": { hidden: true }, ...ok } },
    });
    expect(model.tools.map((t) => t.name)).toEqual(["listPets"]);
    expect(find(model, "OMB_OPERATION_SKIPPED")).toEqual([
      expect.objectContaining({
        severity: "info",
        pointer: "/paths/~1pets/delete",
        file: "spec.yaml",
        message: expect.stringContaining(
          "hidden by an override (hidden: true at #/paths/~1pets/delete/x-mcp/hidden)",
        ),
      }),
    ]);
  });

  it("a hidden path item hides all its operations", () => {
    const model = plan({
      "/a": { "x-mcp": { hidden: true }, get: ok, post: ok },
      "/b": { get: ok },
    });
    expect(model.tools.map((t) => t.name)).toEqual(["get_b"]);
    expect(find(model, "OMB_OPERATION_SKIPPED").map((d) => d.message)).toEqual([
      expect.stringContaining("hidden: true at #/paths/~1a/x-mcp/hidden"),
      expect.stringContaining("hidden: true at #/paths/~1a/x-mcp/hidden"),
    ]);
  });

  it.each([
    { name: "has space", why: "a space" },
    { name: "dotted.name", why: "a dot" },
    { name: "x".repeat(65), why: "65 characters" },
  ])("an invalid name ($why) falls back to the derived name with a warning at its pointer", ({ name }) => {
    const model = plan({ "/pets": { get: { operationId: "listPets", "x-mcp": { name }, ...ok } } });
    expect(model.tools[0]!.name).toBe("listPets");
    expect(find(model, "OMB_OVERRIDE_NAME_INVALID")).toEqual([
      expect.objectContaining({ severity: "warning", pointer: "/paths/~1pets/get/x-mcp/name" }),
    ]);
  });

  it("a malformed x-mcp field is a warning and is ignored, the rest applies", () => {
    const model = plan({
      "/pets": { get: { operationId: "listPets", "x-mcp": { hidden: "no", name: "pets" }, ...ok } },
    });
    expect(model.tools[0]!.name).toBe("pets");
    expect(find(model, "OMB_XMCP_INVALID")[0]).toMatchObject({ pointer: "/paths/~1pets/get/x-mcp/hidden" });
  });

  it("an override name wins over another operation's operationId, which gets the suffix", () => {
    const model = plan({
      "/a": { get: { operationId: "shared", ...ok } },
      "/b": { get: { operationId: "other", "x-mcp": { name: "shared" }, ...ok } },
    });
    expect(model.tools.map((t) => [t.http.path, t.name])).toEqual([
      ["/a", expect.stringMatching(/^shared_[0-9a-f]{6}$/)],
      ["/b", "shared"],
    ]);
    expect(codes(model)).not.toContain("OMB_OVERRIDE_NAME_COLLISION");
  });

  it("two overrides asking for one name are an error naming both pointers; names stay unique", () => {
    const model = plan({
      "/a": { get: { "x-mcp": { name: "same" }, ...ok } },
      "/b": { get: { "x-mcp": { name: "SAME" }, ...ok } },
    });
    const [error] = find(model, "OMB_OVERRIDE_NAME_COLLISION");
    expect(error?.severity).toBe("error");
    expect(error?.message).toContain("#/paths/~1a/get/x-mcp/name");
    expect(error?.message).toContain("#/paths/~1b/get/x-mcp/name");
    const names = model.tools.map((t) => t.name.toLowerCase());
    expect(new Set(names).size).toBe(2);
    expect(names[0]).toBe("same");
  });
});

describe("override maps", () => {
  const paths = {
    "/pets": {
      get: { operationId: "listPets", "x-mcp": { name: "from_spec", description: "spec" }, ...ok },
      post: { operationId: "createPet", ...ok },
    },
    "/pets/{id}": { get: ok },
  };

  it.each([
    { key: "listPets", path: "/pets", method: "get" },
    { key: "GET /pets", path: "/pets", method: "get" },
    { key: "get /pets", path: "/pets", method: "get" },
    { key: "GET /pets/{id}", path: "/pets/{id}", method: "get" },
    { key: "createPet", path: "/pets", method: "post" },
  ])("matches $key", ({ key, path, method }) => {
    const model = plan(paths, { [key]: { name: "renamed" } });
    const tool = model.tools.find((t) => t.http.path === path && t.http.method === method)!;
    expect(tool.name).toBe("renamed");
    expect(codes(model)).not.toContain("OMB_OVERRIDE_UNMATCHED");
  });

  it("wins over x-mcp field by field", () => {
    const model = plan(paths, { listPets: { name: "from_file" } });
    const tool = model.tools[0]!;
    expect([tool.name, tool.description]).toEqual(["from_file", "spec"]);
  });

  it.each(["listPet", "DELETE /pets", "GET /pets/{petId}"])(
    "a key that matches nothing (%s) is a warning naming it",
    (key) => {
      const model = plan(paths, { [key]: { hidden: true } });
      expect(model.tools).toHaveLength(3);
      expect(find(model, "OMB_OVERRIDE_UNMATCHED")).toEqual([
        expect.objectContaining({
          severity: "warning",
          file: "over.yaml",
          message: expect.stringContaining(key),
        }),
      ]);
    },
  );

  it("an invalid name from the file is reported at the file's pointer", () => {
    const model = plan(paths, { createPet: { name: "create pet" } });
    expect(find(model, "OMB_OVERRIDE_NAME_INVALID")[0]).toMatchObject({
      file: "over.yaml",
      pointer: "/createPet/name",
    });
  });

  it.each([
    { given: [], pointer: "" },
    { given: { listPets: "rename" }, pointer: "/listPets" },
    { given: { listPets: { hidden: 1 } }, pointer: "/listPets/hidden" },
    { given: { "GET /a~b": { nmae: "x" } }, pointer: "/GET ~1a~0b/nmae" },
    { given: { listPets: { annotations: { readOnly: true } } }, pointer: "/listPets/annotations/readOnly" },
    { given: { "GET /pets": {}, "get /pets": {} }, pointer: "/get ~1pets" },
  ])("a malformed map is a BridgeError with the file and the pointer $pointer", ({ given, pointer }) => {
    let error: unknown;
    try {
      parseOverridesDocument(given, "over.yaml", "");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).diagnostics[0]).toMatchObject({
      code: "OMB_OVERRIDES_INVALID",
      file: "over.yaml",
      pointer,
    });
  });
});

describe("buildModel with an override file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "omb-overrides-"));
    vi.stubEnv("OPENAPI_MCP_CACHE_DIR", join(dir, "cache"));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("applies the fixture map (YAML) and reports its unmatched key", async () => {
    const model = await buildModel(fixture("overrides", "pets.openapi30.yaml"), {
      overrides: fixture("overrides", "map.overrides.yaml"),
      cache: false,
    });
    const byName = new Map(model.tools.map((t) => [t.name, t]));
    expect([...byName.keys()]).toEqual(["find_pets", "add_pet", "getPet", "replacePet", expect.any(String)]);
    expect(byName.get("add_pet")!.annotations.idempotentHint).toBe(true);
    expect(byName.get("getPet")!.description).toBe("Fetch one pet by its id.");
    expect(byName.get("getPet")!.annotations.title).toBe("Pet by id");
    expect(find(model, "OMB_OVERRIDE_UNMATCHED")[0]).toMatchObject({
      file: fixture("overrides", "map.overrides.yaml"),
      pointer: "/getPett",
    });
  });

  it("a changed override file plans again (its content is part of the cache key)", async () => {
    const spec = join(dir, "spec.yaml");
    await writeFile(
      spec,
      "openapi: 3.0.3\ninfo: { title: C, version: '1' }\npaths:\n  /a:\n    get: { operationId: getA, responses: { '200': { description: ok } } }\n",
    );
    const file = join(dir, "over.json");
    await writeFile(file, JSON.stringify({ getA: { name: "first" } }));
    expect((await buildModel(spec, { overrides: file })).tools[0]!.name).toBe("first");
    expect((await buildModel(spec, { overrides: file })).tools[0]!.name).toBe("first");
    await writeFile(file, JSON.stringify({ getA: { name: "second" } }));
    expect((await buildModel(spec, { overrides: file })).tools[0]!.name).toBe("second");
    expect((await buildModel(spec)).tools[0]!.name).toBe("getA");
    expect(await readdir(join(dir, "cache"))).toHaveLength(3);
  });

  it("takes the document as an object in the library, and a saved model keeps the result", async () => {
    const model = await buildModel(fixture("overrides", "pets.openapi30.yaml"), {
      overrides: { createPet: { hidden: true } },
      cache: false,
    });
    expect(model.tools.map((t) => t.name)).not.toContain("createPet");
    // every operation is accounted for: a tool or a skipped operation
    const skipped = model.diagnostics.filter((d) => d.code === "OMB_OPERATION_SKIPPED");
    expect(skipped.map((d) => d.message)).toEqual([
      expect.stringContaining("hidden: true at <overrides>#/createPet/hidden"),
      expect.stringContaining("hidden: true at #/paths/~1pets~1{petId}/delete/x-mcp/hidden"),
    ]);
    expect(model.tools.length + skipped.length).toBe(6); // the operations of the fixture
    const again = parseModel(serializeModel(model));
    expect(again.tools.map((t) => t.name)).toEqual(model.tools.map((t) => t.name));
  });

  it("a malformed file names itself and the entry; a missing file is a BridgeError", async () => {
    const file = join(dir, "bad.yaml");
    await writeFile(file, "getPet:\n  annotations:\n    readOnlyHint: maybe\n");
    await expect(
      buildModel(fixture("overrides", "pets.openapi30.yaml"), { overrides: file, cache: false }),
    ).rejects.toMatchObject({
      diagnostics: [expect.objectContaining({ file, pointer: "/getPet/annotations/readOnlyHint" })],
    });
    await expect(
      buildModel(fixture("overrides", "pets.openapi30.yaml"), { overrides: join(dir, "none.yaml") }),
    ).rejects.toMatchObject({ diagnostics: [expect.objectContaining({ code: "OMB_OVERRIDES_READ" })] });
  });
});

describe("limitAnnotationHints: no hint makes a write look safer than its method", () => {
  const lying = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
  it.each([
    [
      "put",
      {},
      { readOnlyHint: false, destructiveHint: true },
      ["readOnlyHint: true", "destructiveHint: false"],
    ],
    [
      "patch",
      {},
      { readOnlyHint: false, destructiveHint: true },
      ["readOnlyHint: true", "destructiveHint: false"],
    ],
    [
      "delete",
      {},
      { readOnlyHint: false, destructiveHint: true },
      ["readOnlyHint: true", "destructiveHint: false"],
    ],
    [
      "put",
      { destructiveHint: false },
      { readOnlyHint: false, destructiveHint: false },
      ["readOnlyHint: true"],
    ],
    [
      "delete",
      { destructiveHint: false },
      { readOnlyHint: false, destructiveHint: true },
      ["readOnlyHint: true", "destructiveHint: false"],
    ],
    ["post", {}, { readOnlyHint: true, destructiveHint: false }, []],
    ["get", {}, { readOnlyHint: true, destructiveHint: false }, []],
  ] as const)("%s with operator hints %j", (method, operator, want, undone) => {
    const result = limitAnnotationHints(method, lying, deriveAnnotations(method), operator);
    expect(result.hints).toMatchObject(want);
    expect(result.undone).toEqual(undone);
  });
});
