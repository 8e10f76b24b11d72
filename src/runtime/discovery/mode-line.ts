/**
 * The mode in words for people: the one stderr line of `--mode auto` at start-up (which mode,
 * why, and how to force the other), and what the start-up line says is served.
 */

import { formatCount } from "../../model/format-count.js";
import { CALL_TOOL, DESCRIBE_TOOL, DISCOVERY_TOOL_NAMES, SEARCH_TOOL } from "./discovery-tools.js";
import { explainAutoChoice, type ModeChoice } from "./mode.js";

/**
 * `discovery mode (--mode auto): 1,223 tools: more than the 128 tools auto lists in full; ...`.
 * Undefined when the mode was forced: then nothing needs explaining.
 */
export function formatAutoModeLine(choice: ModeChoice): string | undefined {
  if (choice.requested !== "auto") return undefined;
  const why = explainAutoChoice(choice);
  return choice.mode === "discovery"
    ? `discovery mode (--mode auto): ${why}; tools/list is ${SEARCH_TOOL}, ${DESCRIBE_TOOL} and ${CALL_TOOL} instead (--mode tools lists every tool)`
    : `tools mode (--mode auto): ${why} (--mode discovery serves three tools that search, describe and call them instead)`;
}

/** `20 tools`, or `3 tools (discovery mode, 1,223 operations)`: what tools/list serves. */
export function formatServedTools(choice: ModeChoice): string {
  if (choice.mode === "tools") return `${choice.tools} tools`;
  const operations = `${formatCount(choice.tools)} operation${choice.tools === 1 ? "" : "s"}`;
  return `${DISCOVERY_TOOL_NAMES.length} tools (${choice.mode} mode, ${operations})`;
}

/**
 * What `--mode auto` would serve, for `tools` and `lint`: `--mode auto serves discovery mode:
 * 1,223 tools, about 226,000 tokens of name + description + input schema: more than ...`.
 */
export function formatAutoReport(auto: ModeChoice): string {
  return `--mode auto serves ${auto.mode} mode: ${explainAutoChoice(auto)}`;
}
