/**
 * Which OAuth scopes an operation needs from the caller's access token (the bridge's OAuth
 * front door, transport/oauth/): the operator's rules first (`--auth-scope-map`, first match
 * wins: a glob over the tool's name, or `tag:GLOB` over its tags), then, when asked for
 * (`--auth-spec-scopes`), the scopes the spec's own security requirement names. What neither
 * names needs no scope: any valid token may call it.
 *
 * Requirements are alternatives (the spec's `security` is OR-ed): a token may call the
 * operation when it holds every scope of one of them.
 */
import type { ToolNode } from "../../model/types.js";
import type { ScopeRule } from "../transport/oauth/resource-options.js";
import { compileGlob } from "./select.js";

export interface ScopePolicy {
  /** The alternatives; an empty list: no scope needed. */
  requiredFor(tool: ToolNode): string[][];
  /** Every scope any rule or requirement names (the protected resource metadata's `scopes_supported`). */
  scopesOf(tools: readonly ToolNode[]): string[];
}

export function createScopePolicy(options: {
  rules: readonly ScopeRule[];
  specScopes: boolean;
}): ScopePolicy {
  const rules = options.rules.map((rule) => {
    const tag = rule.pattern.startsWith("tag:");
    const test = compileGlob(tag ? rule.pattern.slice(4) : rule.pattern, true);
    const matches = tag ? (tool: ToolNode) => tool.tags.some(test) : (tool: ToolNode) => test(tool.name);
    return { matches, scopes: rule.scopes };
  });
  // A reload brings new ToolNodes: the cache follows them.
  const cache = new WeakMap<ToolNode, string[][]>();
  const requiredFor = (tool: ToolNode): string[][] => {
    let required = cache.get(tool);
    if (required === undefined) {
      const rule = rules.find((r) => r.matches(tool));
      if (rule !== undefined) required = rule.scopes.length > 0 ? [rule.scopes] : [];
      else required = options.specScopes ? toSpecAlternatives(tool) : [];
      cache.set(tool, required);
    }
    return required;
  };
  return {
    requiredFor,
    scopesOf: (tools) => {
      const all = new Set<string>();
      for (const rule of options.rules) for (const scope of rule.scopes) all.add(scope);
      for (const tool of tools)
        for (const alternative of requiredFor(tool)) for (const s of alternative) all.add(s);
      return [...all];
    },
  };
}

/**
 * The spec's alternatives with their scopes (only oauth2 and openIdConnect requirements list
 * any). An alternative that names none, like `{}` or an API key, needs no scope of the token.
 */
function toSpecAlternatives(tool: ToolNode): string[][] {
  const alternatives: string[][] = [];
  for (const requirement of tool.http.security) {
    const scopes = [...new Set(Object.values(requirement).flat())];
    if (scopes.length === 0) return [];
    alternatives.push(scopes);
  }
  return alternatives;
}

/**
 * The scopes to ask for when `granted` satisfies none of `required`: the first alternative's,
 * whole (the client adds them to what it holds, MCP 2026-07-28); empty when the token may call.
 */
export function findMissingScopes(required: readonly string[][], granted: ReadonlySet<string>): string[] {
  if (required.length === 0) return [];
  if (required.some((alternative) => alternative.every((scope) => granted.has(scope)))) return [];
  return [...required[0]!];
}
