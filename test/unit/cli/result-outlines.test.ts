/**
 * Code mode over a saved model planned without result outlines says so at start-up: the test
 * that decides it reads a sample of the tools, so a huge lazy model loads few records.
 */
import { describe, expect, it } from "vitest";
import { lacksResultOutlines } from "../../../src/cli/serve-apis.js";
import { planSpec } from "../../e2e/safety-support.js";

const json = {
  "200": {
    description: "OK",
    content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" } } } } },
  },
};
const bare = { "204": { description: "Done" } };

function api(count: number, responses: unknown) {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) paths[`/things${i}`] = { get: { operationId: `getThing${i}`, responses } };
  return { paths };
}

describe("lacksResultOutlines", () => {
  it.each([
    { name: "JSON answers, planned without outlines", doc: api(8, json), resultSchemas: false, want: true },
    { name: "JSON answers, planned with outlines", doc: api(8, json), resultSchemas: true, want: false },
    { name: "too few JSON answers to tell", doc: api(3, json), resultSchemas: false, want: false },
    { name: "no JSON answers at all", doc: api(8, bare), resultSchemas: false, want: false },
  ])("$name → $want", ({ doc, resultSchemas, want }) => {
    expect(lacksResultOutlines(planSpec(doc, { resultSchemas }))).toBe(want);
  });
});
