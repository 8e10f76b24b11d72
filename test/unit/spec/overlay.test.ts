/** OpenAPI Overlay 1.0: parsing (errors with pointers) and applying actions to a spec document. */
import { describe, expect, it } from "vitest";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import { applyOverlay, type OverlayDocument, parseOverlay } from "../../../src/generator/spec/overlay.js";
import { BridgeError } from "../../../src/model/diagnostics.js";
import type { Diagnostic } from "../../../src/model/types.js";
import { fixture } from "../../helpers/bridge.js";

const info = { title: "o", version: "1" };

type Doc = { paths: Record<string, Record<string, Record<string, unknown>>> };
const op = (d: Doc, path: string, method: string): Record<string, unknown> => d.paths[path]![method]!;

function overlay(actions: unknown[]): OverlayDocument {
  return parseOverlay({ overlay: "1.0.0", info, actions }, "o.yaml");
}

function document(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    paths: {
      "/pets": {
        get: { operationId: "listPets", tags: ["pets"], summary: "List" },
        post: { operationId: "createPet", tags: ["pets", "admin"] },
      },
      "/admin": { get: { operationId: "admin", tags: ["admin"] } },
    },
  };
}

describe("parseOverlay", () => {
  it.each([
    { given: { overlay: "2.0.0", info, actions: [{ target: "$", update: {} }] }, pointer: "/overlay" },
    { given: { overlay: "1.0.0", actions: [{ target: "$", update: {} }] }, pointer: "/info" },
    { given: { overlay: "1.0.0", info, actions: [] }, pointer: "/actions" },
    { given: { overlay: "1.0.0", info, actions: [{ target: "$", update: {} }, "x"] }, pointer: "/actions/1" },
    { given: { overlay: "1.0.0", info, actions: [{ update: {} }] }, pointer: "/actions/0/target" },
    {
      given: { overlay: "1.0.0", info, actions: [{ target: "$.paths[", update: {} }] },
      pointer: "/actions/0/target",
    },
    {
      given: { overlay: "1.0.0", info, actions: [{ target: "$", remove: "yes" }] },
      pointer: "/actions/0/remove",
    },
    { given: { overlay: "1.0.0", info, actions: [{ target: "$" }] }, pointer: "/actions/0" },
  ])("a malformed overlay is a BridgeError at $pointer", ({ given, pointer }) => {
    let error: unknown;
    try {
      parseOverlay(given as Record<string, unknown>, "o.yaml");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).diagnostics[0]).toMatchObject({
      code: "OMB_OVERLAY_INVALID",
      file: "o.yaml",
      pointer,
    });
  });
});

describe("applyOverlay", () => {
  it.each([
    {
      title: "update merges objects recursively and replaces other values",
      actions: [{ target: "$.paths['/pets'].get", update: { summary: "Find", "x-mcp": { name: "find" } } }],
      at: (d: Doc) => op(d, "/pets", "get"),
      want: { operationId: "listPets", tags: ["pets"], summary: "Find", "x-mcp": { name: "find" } },
    },
    {
      title: "update on an array appends",
      actions: [{ target: "$.paths['/pets'].get.tags", update: "dogs" }],
      at: (d: Doc) => op(d, "/pets", "get").tags,
      want: ["pets", "dogs"],
    },
    {
      title: "remove drops an object member",
      actions: [{ target: "$.paths['/admin']", remove: true }],
      at: (d: Doc) => Object.keys(d.paths),
      want: ["/pets"],
    },
    {
      title: "remove drops several array items, later ones first",
      actions: [{ target: "$.paths['/pets'].post.tags[*]", remove: true }],
      at: (d: Doc) => op(d, "/pets", "post").tags,
      want: [],
    },
    {
      title: "a filter selects operations by a field",
      actions: [{ target: "$.paths[*][?@.tags[?@ == 'admin']]", update: { "x-mcp": { hidden: true } } }],
      at: (d: Doc) => [
        op(d, "/pets", "post")["x-mcp"],
        op(d, "/admin", "get")["x-mcp"],
        op(d, "/pets", "get")["x-mcp"],
      ],
      want: [{ hidden: true }, { hidden: true }, undefined],
    },
    {
      title: "actions apply in order",
      actions: [
        { target: "$.paths['/pets'].get", update: { summary: "one" } },
        { target: "$.paths['/pets'].get", update: { summary: "two" } },
      ],
      at: (d: Doc) => op(d, "/pets", "get").summary,
      want: "two",
    },
  ])("$title", ({ actions, at, want }) => {
    const original = document();
    const diagnostics: Diagnostic[] = [];
    const result = applyOverlay(original, overlay(actions), "o.yaml", diagnostics);
    expect(at(result as unknown as Doc)).toEqual(want);
    expect(diagnostics).toEqual([]);
    expect(original).toEqual(document()); // the input is not changed
  });

  it.each([
    { action: { target: "$.paths['/nowhere']", update: { summary: "x" } }, code: "OMB_OVERLAY_UNMATCHED" },
    { action: { target: "$.paths[*].delete", remove: true }, code: "OMB_OVERLAY_UNMATCHED" },
    { action: { target: "$.paths['/pets'].get.summary", update: { x: 1 } }, code: "OMB_OVERLAY_UNAPPLIED" },
  ])("$action.target: a warning naming the action", ({ action, code }) => {
    const diagnostics: Diagnostic[] = [];
    const ok = { target: "$.openapi", remove: true };
    applyOverlay(document(), overlay([ok, action]), "o.yaml", diagnostics);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code,
        severity: "warning",
        file: "o.yaml",
        pointer: "/actions/1/target",
        message: expect.stringContaining(action.target),
      }),
    ]);
  });
});

describe("buildModel with an overlay file", () => {
  it("applies the fixture overlay before planning", async () => {
    const model = await buildModel(fixture("overrides", "pets.openapi30.yaml"), {
      overrides: fixture("overrides", "pets.overlay.yaml"),
      cache: false,
    });
    expect(model.tools.map((t) => t.name)).toEqual(["find_pets", "register_pet", "getPet", "replacePet"]);
    expect(model.tools.find((t) => t.name === "register_pet")!.description).toMatch(/^Register a new pet/);
    expect(model.tools.find((t) => t.name === "getPet")!.title).toBe("Look up one pet");
    // /owners was removed, so its clash with find_pets is gone too
    expect(model.diagnostics.map((d) => d.code)).not.toContain("OMB_OVERRIDE_NAME_COLLISION");
    expect(model.diagnostics.filter((d) => d.code === "OMB_OVERLAY_UNMATCHED")).toEqual([
      expect.objectContaining({
        pointer: "/actions/3/target",
        file: fixture("overrides", "pets.overlay.yaml"),
      }),
    ]);
  });
});
