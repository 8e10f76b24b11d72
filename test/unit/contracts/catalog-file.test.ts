/** A catalog read for `diff` is checked like a spec: one nested past the document depth is unreadable (exit 2). */
import { describe, expect, it } from "vitest";
import { checkCatalog } from "../../../src/contracts/catalog-file.js";
import { BridgeError } from "../../../src/model/diagnostics.js";
import { MAX_DOCUMENT_DEPTH } from "../../../src/model/json-depth.js";

/** A catalog whose one tool's input schema nests `depth` objects. */
function catalogNested(depth: number): unknown {
  const root: Record<string, unknown> = { type: "object" };
  let node = root;
  for (let i = 0; i < depth; i++) {
    const next: Record<string, unknown> = { type: "object" };
    node.properties = { x: next };
    node = next;
  }
  return { catalogFormat: 1, catalogVersion: "1.0.0", tools: [{ name: "t", inputSchema: root }] };
}

describe("checkCatalog", () => {
  it("refuses a catalog nested deeper than a spec may be (the diff would overflow its stack)", () => {
    let error: unknown;
    try {
      checkCatalog(catalogNested(MAX_DOCUMENT_DEPTH * 2), "deep.catalog.json");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BridgeError);
    expect((error as BridgeError).diagnostics[0]).toMatchObject({
      code: "OMB_CATALOG_INVALID",
      file: "deep.catalog.json",
      message: `the catalog nests objects more than ${MAX_DOCUMENT_DEPTH} levels deep`,
    });
  });
});
