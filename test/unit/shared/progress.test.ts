/** Progress lines: on a terminal (one line rewritten), forced by OPENAPI_MCP_PROGRESS=1, else quiet. */
import { describe, expect, it } from "vitest";
import { createProgress } from "../../../src/generator/shared/progress.js";

function record(isTTY: boolean, setting?: string) {
  let text = "";
  let clock = 0;
  const progress = createProgress("generate", {
    stream: { isTTY, write: (chunk: string) => (text += chunk) },
    env: setting === undefined ? {} : { OPENAPI_MCP_PROGRESS: setting },
    now: () => clock,
  });
  progress.step("load");
  clock += 120;
  progress.step("plan");
  clock += 2400;
  progress.done();
  return text;
}

describe("createProgress", () => {
  it.each([
    ["a pipe", false, undefined],
    ["a terminal with OPENAPI_MCP_PROGRESS=0", true, "0"],
  ])("is quiet on %s", (_what, isTTY, setting) => {
    expect(record(isTTY, setting)).toBe("");
  });

  it("writes one line per step when forced (OPENAPI_MCP_PROGRESS=1), with how long each took", () => {
    expect(record(false, "1").split("\n")).toEqual([
      "openapi-mcp-bridge generate: load…",
      "openapi-mcp-bridge generate: plan… (load: 120 ms)",
      "openapi-mcp-bridge generate: done in 2.5 s (plan: 2.4 s)",
      "",
    ]);
  });

  it("rewrites one line on a terminal and clears it at the end", () => {
    expect(record(true)).toBe(
      "\r\x1b[Kopenapi-mcp-bridge generate: load…\r\x1b[Kopenapi-mcp-bridge generate: plan… (load: 120 ms)\r\x1b[K",
    );
  });
});
