/**
 * `--mode tools|discovery|auto`: serve every selected operation as its own tool, or three tools
 * that search, describe and call them, or (`auto`, the default) whichever fits the client.
 *
 * Auto lists every tool while the list is small and switches to discovery when the selected
 * tools would cost a client more than one of two limits:
 *
 * - 20,000 tokens of what clients pass to the model (name + description + input schema):
 *   10% of a 200k context window, the share past which Claude Code itself stops loading MCP
 *   tool definitions up front and searches them instead (its MCP Tool Search). Anthropic's
 *   guidance for its tool search starts at 10,000 tokens; tool selection accuracy falls with
 *   the size of the list, and every turn of the conversation pays for it again.
 * - 128 tools: the most the OpenAI API accepts in one request and the most VS Code's agent
 *   mode sends; a longer list breaks those clients whatever its size in tokens.
 *
 * Under both, the full list costs a client less than the extra search and describe calls of
 * discovery would. Tokens are estimated (token-estimate.ts); past 128 tools they are not counted
 * at all at start-up, so the decision costs nothing on a spec of 20,000 operations.
 */
import { formatCount } from "../../model/format-count.js";
import type { ClientToolLimitNode, ToolNode } from "../../model/types.js";
import { estimateTokens } from "./token-estimate.js";

/** What `--mode` asks for. `code` (runtime/code/) is served only when asked for. */
export type RequestedMode = "tools" | "discovery" | "code" | "auto";

/** What is served. */
export type ServedMode = "tools" | "discovery" | "code";

/** What is served when nothing is asked for (`--mode` cites it). */
export const DEFAULT_MODE: RequestedMode = "auto";

/** Auto's limits: over either, auto serves discovery. */
export const AUTO_LIMITS = { tokens: 20_000, tools: 128 } as const;

export interface ModeChoice {
  mode: ServedMode;
  requested: RequestedMode;
  /** Selected operations. */
  tools: number;
  /**
   * Estimated tokens of the operations' name + description + input schema; absent when the
   * count alone decided (more than AUTO_LIMITS.tools) or the mode was forced.
   */
  tokens?: number;
  /** `forced`: the mode was asked for; else which limit decided. */
  reason: "forced" | "tool-count" | "client-tool-count" | "tokens" | "within-limits";
  /** The client profile's tool limit, when it is below auto's own (model.clientToolLimit). */
  clientLimit?: ClientToolLimitNode;
}

/** Estimated tokens of what clients pass to a model for one tool: name, description, input schema. */
export function estimateToolTokens(tool: ToolNode): number {
  return (
    estimateTokens(tool.name) +
    estimateTokens(tool.description) +
    estimateTokens(JSON.stringify(tool.inputSchema))
  );
}

/** Estimated tokens of every tool's name, description and input schema. */
export function estimateListTokens(tools: readonly ToolNode[]): number {
  let total = 0;
  for (const tool of tools) total += estimateToolTokens(tool);
  return total;
}

/**
 * The mode to serve `tools` in. `measure: true` also counts the tokens when the mode is forced
 * or the tool count decided (for reports such as `tools` and `lint`, not at start-up).
 */
export function chooseMode(
  tools: readonly ToolNode[],
  requested: RequestedMode = DEFAULT_MODE,
  options: { measure?: boolean; clientLimit?: ClientToolLimitNode | undefined } = {},
): ModeChoice {
  const measured = () => (options.measure === true ? { tokens: estimateListTokens(tools) } : {});
  if (requested !== "auto")
    return { mode: requested, requested, tools: tools.length, reason: "forced", ...measured() };
  if (tools.length > AUTO_LIMITS.tools) {
    return { mode: "discovery", requested, tools: tools.length, reason: "tool-count", ...measured() };
  }
  // A client limit above auto's own changes nothing, and is not reported.
  const limit = options.clientLimit;
  const client = limit !== undefined && limit.count < AUTO_LIMITS.tools ? { clientLimit: limit } : {};
  if (client.clientLimit !== undefined && tools.length > client.clientLimit.count) {
    return {
      mode: "discovery",
      requested,
      tools: tools.length,
      reason: "client-tool-count",
      ...client,
      ...measured(),
    };
  }
  const tokens = estimateListTokens(tools);
  return tokens > AUTO_LIMITS.tokens
    ? { mode: "discovery", requested, tools: tools.length, tokens, reason: "tokens" }
    : { mode: "tools", requested, tools: tools.length, tokens, reason: "within-limits", ...client };
}

/** `about 2,100 tokens`: an estimate rounded to what it can tell. */
export function formatTokens(tokens: number): string {
  const step = tokens >= 10_000 ? 1000 : tokens >= 1000 ? 100 : 10;
  return `about ${formatCount(Math.round(tokens / step) * step)} tokens`;
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Why auto chooses what it chooses, in words (for the start-up line, `tools` and `lint`):
 * `1,223 tools, more than the 128 that auto lists in full`.
 */
export function explainAutoChoice(choice: ModeChoice): string {
  const size =
    choice.tokens !== undefined
      ? `, ${formatTokens(choice.tokens)} of name + description + input schema`
      : "";
  const tools = plural(choice.tools, "tool");
  switch (choice.reason) {
    case "tool-count":
      return `${tools}${size}: more than the ${AUTO_LIMITS.tools} tools auto lists in full`;
    case "client-tool-count":
      return `${tools}${size}: more than the ${choice.clientLimit?.count} tools of the ${choice.clientLimit?.profile} profile (${choice.clientLimit?.why})`;
    case "tokens":
      return `${tools}${size}: more than the ${formatCount(AUTO_LIMITS.tokens)} tokens auto lists in full`;
    case "within-limits":
      return `${tools}${size}: within auto's limits of ${choice.clientLimit?.count ?? AUTO_LIMITS.tools} tools${choice.clientLimit ? ` (the ${choice.clientLimit.profile} profile)` : ""} and ${formatCount(AUTO_LIMITS.tokens)} tokens`;
    case "forced":
      return `${tools}${size}: --mode ${choice.requested} was asked for`;
  }
}

/** What auto would choose for these tools, as `lint` and `tools` report it (never code mode). */
export function chooseAutoMode(
  tools: readonly ToolNode[],
  clientLimit?: ClientToolLimitNode,
): ModeChoice & { mode: "tools" | "discovery" } {
  const choice = chooseMode(tools, "auto", { clientLimit }) as ModeChoice & { mode: "tools" | "discovery" };
  return choice.tokens === undefined ? { ...choice, tokens: estimateListTokens(tools) } : choice;
}
