/** Which tools a reload broke for which clients: generations, catalog versions, reasons. */
import { describe, expect, it } from "vitest";
import type { BridgeModel } from "../../../../src/model/types.js";
import { createCatalogTracker } from "../../../../src/serve/reload/catalog-tracker.js";
import { planSpec } from "../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };

function model(
  operations: Record<string, { path: string; id?: "string" | "integer"; summary?: string }>,
): BridgeModel {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, { path, id, summary }] of Object.entries(operations)) {
    paths[path] = {
      get: {
        operationId,
        summary: summary ?? operationId,
        parameters: id ? [{ name: "id", in: "query", required: true, schema: { type: id } }] : [],
        responses: ok,
      },
    };
  }
  return planSpec({ paths });
}

describe("createCatalogTracker", () => {
  it("counts generations only for reloads that change something, with the catalog's versions", () => {
    const tracker = createCatalogTracker(model({ a: { path: "/a" } }));
    expect([tracker.generation, tracker.catalogVersion]).toEqual([1, "1.0.0"]);
    expect(tracker.advance(model({ a: { path: "/a" } })).changed).toBe(false);
    expect([tracker.generation, tracker.catalogVersion]).toEqual([1, "1.0.0"]);
    tracker.advance(model({ a: { path: "/a", summary: "reworded" } }));
    expect([tracker.generation, tracker.catalogVersion]).toEqual([2, "1.0.1"]);
    tracker.advance(model({ a: { path: "/a" }, b: { path: "/b" } }));
    expect([tracker.generation, tracker.catalogVersion]).toEqual([3, "1.1.0"]);
    tracker.advance(model({ b: { path: "/b" } }));
    expect([tracker.generation, tracker.catalogVersion]).toEqual([4, "2.0.0"]);
    expect(tracker.generationOf("1.0.1")).toBe(2);
    expect(tracker.generationOf("9.9.9")).toBeUndefined();
  });

  it.each([
    // [tool, generation the client listed at, stale?]
    ["a", 1, true], // broken at 2
    ["a", 2, false],
    ["b", 1, true], // removed at 3
    ["b", 2, true],
    ["b", 3, false], // listed after the removal, and it came back at 4
    ["b", 4, false],
    ["c", 1, false], // only ever added
    ["d", 1, false], // never served
  ])("%s listed at generation %i: stale %s", (name, known, stale) => {
    const tracker = createCatalogTracker(model({ a: { path: "/a", id: "string" }, b: { path: "/b" } }));
    tracker.advance(model({ a: { path: "/a", id: "integer" }, b: { path: "/b" } })); // 2: a broken
    tracker.advance(model({ a: { path: "/a", id: "integer" } })); // 3: b removed
    tracker.advance(model({ a: { path: "/a", id: "integer" }, b: { path: "/b" }, c: { path: "/c" } })); // 4
    expect(tracker.findStale(name, known) !== undefined).toBe(stale);
  });

  it("says why: the breaking change's message, a removal, a rename", () => {
    const tracker = createCatalogTracker(model({ a: { path: "/a", id: "string" }, b: { path: "/b" } }));
    const step = tracker.advance(model({ a: { path: "/a", id: "integer" }, renamed: { path: "/b" } }));
    expect(step.broken.get("a")!.join(" ")).toMatch(/integer/);
    expect(tracker.findStale("a", 1)).toMatchObject({ removed: false, changedIn: "2.0.0" });
    expect(tracker.findStale("b", 1)).toMatchObject({
      removed: true,
      reasons: ["it was renamed to renamed"],
    });
  });
});
