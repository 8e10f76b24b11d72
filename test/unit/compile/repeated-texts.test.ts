/**
 * A parameter description the API repeats on many operations is shortened to its lead sentence
 * even when the whole would fit (repeated-texts.ts); one said on a few operations stays whole.
 */
import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import { REPEATED_TEXT_OPERATIONS } from "../../../src/generator/compile/repeated-texts.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";

const OWNER = "The account owner of the repository. The name is not case sensitive.";

/** A spec of `count` operations sharing an `owner` parameter, by $ref or written inline. */
function specOf(count: number, shared: "ref" | "inline"): LoadedSpec {
  const owner = { name: "owner", in: "path", required: true, description: OWNER, schema: { type: "string" } };
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    paths[`/repos/{owner}/thing${i}`] = {
      get: {
        operationId: `getThing${i}`,
        parameters: [shared === "ref" ? { $ref: "#/components/parameters/owner" } : owner],
        responses: { "200": { description: "OK" } },
      },
    };
  }
  return {
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths,
      components: { parameters: { owner } },
    },
    specVersion: "3.0",
    source: "spec.json",
    diagnostics: [],
  } as unknown as LoadedSpec;
}

function ownerDescriptions(loaded: LoadedSpec): Set<unknown> {
  const model = planModel(loaded);
  return new Set(
    model.tools.map(
      (tool) => (tool.inputSchema.properties as Record<string, { description?: string }>).owner?.description,
    ),
  );
}

describe("descriptions repeated across operations", () => {
  it.each([
    { count: REPEATED_TEXT_OPERATIONS - 1, shared: "ref" as const, want: OWNER },
    { count: REPEATED_TEXT_OPERATIONS - 1, shared: "inline" as const, want: OWNER },
    { count: REPEATED_TEXT_OPERATIONS, shared: "ref" as const, want: "The account owner of the repository." },
    {
      count: REPEATED_TEXT_OPERATIONS,
      shared: "inline" as const,
      want: "The account owner of the repository.",
    },
  ])("$count operations ($shared): $want", ({ count, shared, want }) => {
    expect(ownerDescriptions(specOf(count, shared))).toEqual(new Set([want]));
  });
});
