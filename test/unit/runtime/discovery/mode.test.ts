/** `--mode`: what auto chooses by the tool count and the estimated tokens, and how it says why. */
import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import {
  AUTO_LIMITS,
  chooseAutoMode,
  chooseMode,
  estimateListTokens,
  explainAutoChoice,
  type ModeChoice,
  type RequestedMode,
} from "../../../../src/runtime/discovery/mode.js";
import { formatAutoModeLine, formatServedTools } from "../../../../src/runtime/discovery/mode-line.js";
import { planSpec } from "../../../e2e/safety-support.js";

/** `count` GET operations, each with a description of about `words` words. */
function tools(count: number, words = 5): ToolNode[] {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    paths[`/things${i}/{id}`] = {
      get: {
        operationId: `getThing${i}`,
        summary: Array.from({ length: words }, (_, w) => `word${w}`).join(" "),
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "OK" } },
      },
    };
  }
  return planSpec({ paths }, { descriptionBudget: 100_000 }).tools;
}

describe("chooseMode", () => {
  const small = tools(5);
  const many = tools(AUTO_LIMITS.tools + 1);
  const atLimit = tools(AUTO_LIMITS.tools);
  const wordy = tools(10, 1200);

  it.each<[string, ToolNode[], RequestedMode, Partial<ModeChoice>]>([
    ["a few small tools", small, "auto", { mode: "tools", reason: "within-limits" }],
    ["exactly the tool limit, small", atLimit, "auto", { mode: "tools", reason: "within-limits" }],
    ["one tool over the limit", many, "auto", { mode: "discovery", reason: "tool-count" }],
    ["few tools of many tokens", wordy, "auto", { mode: "discovery", reason: "tokens" }],
    ["forced tools on many", many, "tools", { mode: "tools", reason: "forced" }],
    ["forced discovery on a few", small, "discovery", { mode: "discovery", reason: "forced" }],
  ])("%s: %s → %j", (_label, list, requested, want) => {
    const choice = chooseMode(list, requested);
    expect(choice).toMatchObject({ ...want, requested, tools: list.length });
  });

  const cursor = { profile: "cursor", count: 40, why: "Cursor offers its agent about 40 tools at most" };
  it.each<[string, ToolNode[], RequestedMode, Partial<ModeChoice>]>([
    ["41 tools under cursor", tools(41), "auto", { mode: "discovery", reason: "client-tool-count" }],
    ["40 tools under cursor", tools(40), "auto", { mode: "tools", reason: "within-limits" }],
    ["41 tools under cursor, forced tools", tools(41), "tools", { mode: "tools", reason: "forced" }],
  ])("a client's tool limit: %s → %j", (_label, list, requested, want) => {
    expect(chooseMode(list, requested, { clientLimit: cursor })).toMatchObject(want);
  });

  it("a client limit above auto's own changes nothing", () => {
    const big = { profile: "x", count: 500, why: "y" };
    expect(chooseMode(tools(AUTO_LIMITS.tools + 1), "auto", { clientLimit: big }).reason).toBe("tool-count");
    expect(chooseMode(tools(41), "auto", { clientLimit: big })).not.toHaveProperty("clientLimit");
  });

  it("says which limit decided, the client's included", () => {
    expect(explainAutoChoice(chooseMode(tools(41), "auto", { clientLimit: cursor }))).toMatch(
      /^41 tools: more than the 40 tools of the cursor profile \(Cursor offers its agent about 40 tools at most\)$/,
    );
    expect(explainAutoChoice(chooseMode(tools(3), "auto", { clientLimit: cursor }))).toMatch(
      /within auto's limits of 40 tools \(the cursor profile\) and 20,000 tokens$/,
    );
  });

  it("counts no tokens when the count decides or the mode is forced, unless asked to measure", () => {
    expect(chooseMode(tools(AUTO_LIMITS.tools + 1), "auto").tokens).toBeUndefined();
    expect(chooseMode(tools(3), "discovery").tokens).toBeUndefined();
    const list = tools(3);
    expect(chooseMode(list, "discovery", { measure: true }).tokens).toBe(estimateListTokens(list));
    expect(chooseAutoMode(tools(AUTO_LIMITS.tools + 1)).tokens).toBeGreaterThan(0);
  });

  it("decides by the token limit exactly: at it, tools; one tool more over it, discovery", () => {
    const list = tools(10, 400);
    const tokens = estimateListTokens(list);
    expect(tokens).toBeGreaterThan(1000);
    // Scale the question rather than the spec: the limit against a list just under and just over.
    const under = list.slice(0, Math.floor((AUTO_LIMITS.tokens / tokens) * list.length));
    expect(estimateListTokens(under)).toBeLessThanOrEqual(AUTO_LIMITS.tokens);
    expect(chooseMode(under).mode).toBe("tools");
    const over = [...list, ...list, ...list, ...list, ...list, ...list];
    expect(estimateListTokens(over)).toBeGreaterThan(AUTO_LIMITS.tokens);
    expect(chooseMode(over).mode).toBe("discovery");
  });
});

describe("the words", () => {
  it.each<[string, ModeChoice, RegExp]>([
    [
      "tool count",
      { mode: "discovery", requested: "auto", tools: 1223, reason: "tool-count" },
      /^1,223 tools: more than the 128 tools auto lists in full$/,
    ],
    [
      "tokens",
      { mode: "discovery", requested: "auto", tools: 54, tokens: 45_678, reason: "tokens" },
      /^54 tools, about 46,000 tokens of name \+ description \+ input schema: more than the 20,000 tokens/,
    ],
    [
      "within",
      { mode: "tools", requested: "auto", tools: 1, tokens: 2_054, reason: "within-limits" },
      /^1 tool, about 2,100 tokens .*: within auto's limits of 128 tools and 20,000 tokens$/,
    ],
  ])("explain %s", (_label, choice, want) => {
    expect(explainAutoChoice(choice)).toMatch(want);
  });

  it("says on one line which mode auto chose, why, and how to force the other", () => {
    const discovery = formatAutoModeLine({
      mode: "discovery",
      requested: "auto",
      tools: 900,
      reason: "tool-count",
    });
    expect(discovery).toMatch(
      /^discovery mode \(--mode auto\): 900 tools: .*--mode tools lists every tool\)$/,
    );
    expect(discovery).not.toContain("\n");
    const tools = formatAutoModeLine({
      mode: "tools",
      requested: "auto",
      tools: 20,
      tokens: 2000,
      reason: "within-limits",
    });
    expect(tools).toMatch(
      /^tools mode \(--mode auto\): 20 tools, about 2,000 tokens.*\(--mode discovery serves/,
    );
    expect(
      formatAutoModeLine({ mode: "tools", requested: "tools", tools: 2000, reason: "forced" }),
    ).toBeUndefined();
  });

  it("names what tools/list serves", () => {
    expect(formatServedTools({ mode: "tools", requested: "auto", tools: 1223, reason: "forced" })).toBe(
      "1223 tools",
    );
    expect(
      formatServedTools({ mode: "discovery", requested: "auto", tools: 1223, reason: "tool-count" }),
    ).toBe("3 tools (discovery mode, 1,223 operations)");
  });
});
