/**
 * Hostile and random parameter and body schemas (keywords given values of the wrong type,
 * broken regexes, unknown types), served as planned: in tools, discovery and code mode every
 * call of the operation, with random arguments, is answered with a result (success or isError),
 * never a thrown error, and the operation beside it still answers. Seeded: the same cases on
 * every run.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBridgeRuntime } from "../../../src/runtime/engine/bridge-runtime.js";
import { planSpec } from "../../e2e/safety-support.js";
import { echoHandler, startUpstream, type Upstream } from "../../helpers/upstream.js";

/** mulberry32: a small seeded PRNG. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYWORDS = [
  "type",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "enum",
  "const",
  "items",
  "properties",
  "required",
  "multipleOf",
  "format",
  "default",
  "additionalProperties",
  "minItems",
  "uniqueItems",
  "allOf",
  "oneOf",
  "not",
  "nullable",
];
const VALUES: unknown[] = [
  "fifty",
  "50",
  -1,
  0,
  1.5,
  null,
  true,
  [],
  ["a"],
  {},
  { type: "nope" },
  "([a-z",
  "^(a+)+$",
  "int",
  [{ maximum: "x" }],
  { a: { type: "string", minLength: "two" } },
];

function randomSchema(next: () => number): Record<string, unknown> {
  const schema: Record<string, unknown> = {
    type: ["string", "integer", "object", "array"][Math.floor(next() * 4)],
  };
  const count = 1 + Math.floor(next() * 3);
  for (let i = 0; i < count; i++) {
    schema[KEYWORDS[Math.floor(next() * KEYWORDS.length)]!] = VALUES[Math.floor(next() * VALUES.length)];
  }
  return schema;
}

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream(echoHandler);
});
afterAll(async () => {
  await upstream.close();
});

const next = random(29);
const CASES = Array.from({ length: 40 }, (_, index) => ({
  index,
  query: randomSchema(next),
  body: randomSchema(next),
  arg: VALUES[Math.floor(next() * VALUES.length)],
}));

describe("random hostile schemas", () => {
  it.each(CASES)("case $index: every mode answers", async ({ query, body, arg }) => {
    const model = planSpec({
      paths: {
        "/things": {
          post: {
            operationId: "makeThing",
            parameters: [{ name: "q", in: "query", schema: query }],
            requestBody: {
              content: { "application/json": { schema: { type: "object", properties: { b: body } } } },
            },
            responses: { "200": { description: "ok" } },
          },
        },
        "/ping": { get: { operationId: "ping", responses: { "200": { description: "ok" } } } },
      },
    });
    const args = { q: arg, b: arg };
    for (const mode of ["tools", "discovery", "code"] as const) {
      const runtime = createBridgeRuntime(model, { env: {}, baseUrl: upstream.url, mode });
      try {
        const results: CallToolResult[] = [];
        if (mode === "tools") {
          results.push((await runtime.callTool("makeThing", args)) as CallToolResult);
          results.push((await runtime.callTool("ping", {})) as CallToolResult);
        } else {
          results.push(
            (await runtime.callTool("search_operations", { query: "make thing" })) as CallToolResult,
          );
          results.push(
            (await runtime.callTool("describe_operations", { names: ["makeThing"] })) as CallToolResult,
          );
          if (mode === "discovery") {
            results.push(
              (await runtime.callTool("call_operation", {
                name: "makeThing",
                arguments: args,
              })) as CallToolResult,
            );
            results.push((await runtime.callTool("call_operation", { name: "ping" })) as CallToolResult);
          } else {
            const program = `try { await api.makeThing(${JSON.stringify(args)}); } catch (e) { console.log(e.category); } return (await api.ping()) === null;`;
            const result = (await runtime.callTool("execute", { program })) as CallToolResult;
            results.push(result);
            expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
          }
        }
        for (const result of results) expect(result.content.length).toBeGreaterThan(0);
        expect(results.at(-1)!.isError ?? false, JSON.stringify(results.at(-1)!.content)).toBe(false);
      } finally {
        await runtime.close();
      }
    }
  });
});
