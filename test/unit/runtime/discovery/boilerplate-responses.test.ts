/**
 * describe shows an error status the API documents alike on most operations without its text
 * (Spotify's 401, 403 and 429 on all 89); a failure of that status still quotes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import {
  findBoilerplateResponses,
  toResponseKey,
} from "../../../../src/runtime/discovery/boilerplate-responses.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { planSpec, textOf } from "../../../e2e/safety-support.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

const EXPIRED = "Bad or expired token. Re-authenticate the user.";

/** `count` operations, each documenting 200, the shared 401 and, for the first, its own 404. */
function planApi(count: number, unauthorized = EXPIRED) {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    paths[`/things${i}`] = {
      get: {
        operationId: `getThing${i}`,
        responses: {
          "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
          "401": { description: unauthorized },
          ...(i === 0 ? { "404": { description: "No thing has this id." } } : {}),
        },
      },
    };
  }
  return planSpec({ paths });
}

describe("findBoilerplateResponses", () => {
  const cases: { label: string; tools: () => ToolNode[]; want: string[] }[] = [
    {
      label: "a text on every one of 10 operations",
      tools: () => planApi(10).tools,
      want: [toResponseKey("401", EXPIRED)],
    },
    { label: "fewer than 8 operations: none", tools: () => planApi(7).tools, want: [] },
    {
      label: "on fewer than half of the operations: none",
      tools: () => [...planApi(9).tools.slice(0, 4), ...planApi(9, "Other text.").tools.slice(4)],
      want: [],
    },
  ];
  for (const { label, tools, want } of cases) {
    it(label, () => expect([...findBoilerplateResponses(tools())]).toEqual(want));
  }
});

describe("describe and a failure of a boilerplate status", () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream((_req, res) => sendJson(res, 401, { message: "token expired" }));
  });
  afterAll(async () => {
    await upstream.close();
  });

  it("describe leaves the shared text out and keeps the operation's own", async () => {
    const runtime = createBridgeRuntime(planApi(10), { env: {}, baseUrl: upstream.url, mode: "discovery" });
    try {
      const text = textOf(await runtime.callTool("describe_operations", { names: ["getThing0"] }));
      const answer = JSON.parse(text) as { operations: { responses: Record<string, string> }[] };
      expect(answer.operations[0]!.responses["401"]).toBe("");
      expect(answer.operations[0]!.responses["404"]).toBe("No thing has this id.");
      expect(text).not.toContain(EXPIRED);
      const failed = await runtime.callTool("call_operation", { name: "getThing0", arguments: {} });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain(EXPIRED);
    } finally {
      await runtime.close();
    }
  });
});
