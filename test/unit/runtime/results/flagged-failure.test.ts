/**
 * A 2xx answer whose success flag says it failed, as Slack answers (`{"ok": false, "error":
 * "channel_not_found"}` with HTTP 200, its spec giving `ok: enum [true]` for success and
 * `enum [false]` for the default answer): planned from the spec, read as an error result with
 * the API's words, in tools mode and in a program's call; a success passes as before.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { ERROR_META_KEY } from "../../../../src/runtime/results/error-result.js";
import { planSpec } from "../../../e2e/safety-support.js";
import { sendJson, startUpstream, type Upstream } from "../../../helpers/upstream.js";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const OK_TRUE = { type: "boolean", enum: [true] };
const OK_FALSE = { type: "boolean", enum: [false] };

function postMessage(success: unknown, failure: unknown) {
  return planSpec({
    servers: [{ url: "https://slack.example.test/api" }],
    paths: {
      "/chat.postMessage": {
        post: {
          operationId: "chat_postMessage",
          responses: {
            "200": { description: "Sent.", ...json(success) },
            default: { description: "Failed.", ...json(failure) },
          },
        },
      },
    },
  });
}

const SLACK = postMessage(
  { type: "object", required: ["ok", "ts"], properties: { ok: OK_TRUE, ts: { type: "string" } } },
  { type: "object", required: ["ok", "error"], properties: { ok: OK_FALSE, error: { type: "string" } } },
);

describe("planning success flags", () => {
  it.each([
    { name: "Slack's ok", model: SLACK, want: { ok: true } },
    {
      name: "const instead of enum",
      model: postMessage(
        { type: "object", required: ["success"], properties: { success: { const: true } } },
        { type: "object", properties: { success: { const: false } } },
      ),
      want: { success: true },
    },
    {
      name: "no error answer that says the other value",
      model: postMessage(
        { type: "object", required: ["ok"], properties: { ok: OK_TRUE } },
        { type: "object" },
      ),
      want: undefined,
    },
    {
      name: "the flag is optional in the success answer",
      model: postMessage(
        { type: "object", properties: { ok: OK_TRUE } },
        { type: "object", properties: { ok: OK_FALSE } },
      ),
      want: undefined,
    },
  ])("$name", ({ model, want }) => {
    expect(model.tools[0]!.http.successFlags).toEqual(want);
  });
});

let upstream: Upstream;
let answer: unknown;
beforeAll(async () => {
  upstream = await startUpstream((_req, res) => sendJson(res, 200, answer));
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => {
  upstream.reset();
});

async function call(mode: "tools" | "code", body: unknown): Promise<CallToolResult> {
  answer = body;
  const runtime = createBridgeRuntime(SLACK, { env: {}, baseUrl: upstream.url, mode });
  try {
    return mode === "tools"
      ? await runtime.callTool("chat_postMessage", {})
      : await runtime.callTool("execute", { program: "return await api.chat_postMessage({});" });
  } finally {
    await runtime.close();
  }
}

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

describe("a 2xx whose flag says it failed", () => {
  it.each([
    { code: "channel_not_found", category: "not_found" },
    { code: "ratelimited", category: "rate_limited" },
    { code: "invalid_auth", category: "authentication" },
    { code: "msg_too_long", category: "invalid_argument" },
  ])("is an error result: $code → $category", async ({ code, category }) => {
    const result = await call("tools", { ok: false, error: code });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("but the answer says ok: false");
    expect(textOf(result)).toContain(`The API says: ${code}`);
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ category });
  });

  it("a success passes as before", async () => {
    const result = await call("tools", { ok: true, ts: "1.2" });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('"ts":"1.2"');
  });

  it("a program's call throws it, with the API's words", async () => {
    const result = await call("code", { ok: false, error: "channel_not_found" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("channel_not_found");
    expect(upstream.requests).toHaveLength(1);
  });
});
