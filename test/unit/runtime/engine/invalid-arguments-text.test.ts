/**
 * A refused call reads the same whether the schema check refused it or the request builder
 * found an argument it cannot put on the wire: one wording, from one function.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { errorMeta, planSpec, TOY_PATHS, textOf } from "../../../e2e/safety-support.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream((_req, res) => sendJson(res, 200, { ok: true }));
});
afterAll(async () => {
  await upstream.close();
});

describe("the text of a refused call", () => {
  it.each([
    { refusedBy: "the schema check", args: {}, issue: "- id: required argument missing" },
    {
      refusedBy: "the request builder",
      args: { id: ".." },
      issue:
        '- id: ".." is not allowed in the path parameter "id": it would change which resource the URL names',
    },
  ])("is one wording when $refusedBy refuses it", async ({ args, issue }) => {
    const runtime = createBridgeRuntime(planSpec({ paths: TOY_PATHS }), { env: {}, baseUrl: upstream.url });
    upstream.reset();
    const result = await runtime.callTool("getPet", args);
    expect(errorMeta(result)?.category).toBe("invalid_argument");
    expect(textOf(result)).toBe(
      [
        "Invalid arguments for tool getPet:",
        issue,
        "Fix the arguments listed above and call getPet again.",
      ].join("\n"),
    );
    expect(upstream.requests).toHaveLength(0);
  });
});
