/**
 * Optional parameters an API declares on nearly every operation (Google's standard parameters)
 * are marked as the API's options, which code mode's signatures name after the operation's own.
 */
import { describe, expect, it } from "vitest";
import { listApiWideParameters } from "../../../src/generator/compile/parameter-survey.js";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import { createSignatures } from "../../../src/runtime/code/signatures.js";

const STANDARD = [{ $ref: "#/components/parameters/alt" }, { $ref: "#/components/parameters/prettyPrint" }];

/** `count` operations, each with its own `q<i>`; the path items declare the standard parameters. */
function documentOf(count: number, standardOn = count): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    paths[`/things${i}`] = {
      ...(i < standardOn ? { parameters: STANDARD } : {}),
      get: {
        operationId: `listThings${i}`,
        parameters: [
          { name: `q${i}`, in: "query", schema: { type: "string" } },
          { name: "id", in: "header", required: true, schema: { type: "string" } },
        ],
        responses: { "200": { description: "The things." } },
      },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: "T", version: "1" },
    paths,
    components: {
      parameters: {
        alt: { name: "alt", in: "query", schema: { type: "string", enum: ["json", "media"] } },
        prettyPrint: { name: "prettyPrint", in: "query", schema: { type: "boolean" } },
      },
    },
  };
}

function toolOf(document: Record<string, unknown>) {
  const loaded = {
    source: "spec.json",
    specVersion: "3.0",
    diagnostics: [],
    document,
  } as unknown as LoadedSpec;
  return planModel(loaded).tools[0]!;
}

describe("API-wide parameters", () => {
  it.each([
    {
      name: "on every one of 10 operations",
      count: 10,
      standardOn: 10,
      want: ["query:alt", "query:prettyPrint"],
    },
    { name: "on 9 of 10", count: 10, standardOn: 9, want: ["query:alt", "query:prettyPrint"] },
    { name: "on 8 of 10", count: 10, standardOn: 8, want: [] },
    { name: "an API of 5 operations", count: 5, standardOn: 5, want: [] },
  ])("$name: $want", ({ count, standardOn, want }) => {
    expect([...listApiWideParameters(documentOf(count, standardOn))].sort()).toEqual(want);
  });

  it("are marked in the binding, and code mode's one-line signature names them last", () => {
    const tool = toolOf(documentOf(10));
    expect(tool.http.parameters.filter((p) => p.apiWide).map((p) => p.name)).toEqual(["alt", "prettyPrint"]);
    // tools/list keeps the spec's order
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual(["alt", "prettyPrint", "q0", "id"]);
    const line = createSignatures().signatureOf(tool);
    expect(line.indexOf("q0")).toBeLessThan(line.indexOf("alt"));
    expect(toolOf(documentOf(5)).http.parameters.some((p) => p.apiWide)).toBe(false);
  });
});
