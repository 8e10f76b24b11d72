/**
 * `lint`: what makes a spec hard for a model to use as tools, for the API's owner. Each finding
 * is a diagnostic of an OMB_LINT_* code (lint-rules.ts): the spec file, the JSON pointer, the
 * severity and a hint, the same shape as every other diagnostic. Plus the size of tools/list in
 * tokens and the largest tools, counted by a tokenizer the caller passes (see token-count.ts).
 */

import { DIAGNOSTIC_CODES, type LintCode } from "../../model/diagnostic-codes.js";
import { type CodedDiagnostic, createDiagnostic } from "../../model/diagnostics.js";
import type { BridgeModel, DiagnosticSeverity } from "../../model/types.js";
import { DEFAULT_DESCRIPTION_BUDGET } from "../compile/budgets.js";
import type { LoadedSpec } from "../spec/load-spec.js";
import { collectOperations } from "./lint-operations.js";
import { LINT_RULES, type LintHit, type LintRule, type LintToolSize } from "./lint-rules.js";

export type { LintToolSize } from "./lint-rules.js";

/** A lint finding: a diagnostic that always has the spec file, a pointer into it and a hint. */
export interface LintFinding extends CodedDiagnostic {
  code: LintCode;
  file: string;
  pointer: string;
  hint: string;
}

/** The mode `serve --mode auto` would choose for these tools, as the runtime decides it. */
export interface LintModeReport {
  auto: "tools" | "discovery";
  /** The runtime's estimate of name + description + input schema, in tokens (what it decides by). */
  estimatedTokens: number;
  /** The decision and its reason in words. */
  summary: string;
}

export interface LintReport {
  tools: number;
  /** Tokens of the whole tools/list result (every tool as compact JSON). */
  totalTokens: number;
  medianTokens: number;
  tokenizer: string;
  largest: LintToolSize[];
  /** Present when the caller passed the runtime's decision (the lint command does). */
  mode?: LintModeReport;
  findings: LintFinding[];
  counts: Record<DiagnosticSeverity, number>;
}

export interface LintOptions {
  /** Characters of operation prose (summary + description) a tool description keeps (default 180). */
  budget?: number;
  /** Tokens above which one tool's input schema is reported (default 2,000). */
  schemaTokens?: number;
  /** Counts tokens of a text. */
  countTokens: (text: string) => number;
  tokenizer: string;
  /** The rules to run (default: all of LINT_RULES). */
  rules?: readonly LintRule[];
  /** What `--mode auto` would serve (the runtime decides; lint only reports it). */
  mode?: LintModeReport;
}

const SEVERITY_ORDER: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, info: 2 };

/** Lints a loaded spec and the tools planned from it (`listed`: the tools/list form). */
export function lintSpec(
  loaded: LoadedSpec,
  model: BridgeModel,
  listed: readonly { name: string }[],
  options: LintOptions,
): LintReport {
  const { document } = loaded;
  const toolByPointer = new Map(model.tools.map((tool) => [tool.source.pointer, tool.name]));
  const sizes = measureTools(model, listed, options.countTokens);
  const input = {
    document,
    operations: collectOperations(document, toolByPointer),
    sizes,
    budget: options.budget ?? DEFAULT_DESCRIPTION_BUDGET,
    schemaTokens: options.schemaTokens ?? 2000,
    tools: model.tools,
  };
  const findings = (options.rules ?? LINT_RULES).flatMap((rule) =>
    rule.check(input).map((hit) => toFinding(rule.code, hit, loaded.source)),
  );
  findings.sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.pointer.localeCompare(b.pointer),
  );
  const counts: Record<DiagnosticSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  const sortedTokens = sizes.map((s) => s.tokens).sort((a, b) => a - b);
  return {
    tools: listed.length,
    totalTokens: sortedTokens.reduce((sum, n) => sum + n, 0),
    medianTokens: median(sortedTokens),
    tokenizer: options.tokenizer,
    largest: [...sizes].sort((a, b) => b.tokens - a.tokens).slice(0, 10),
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    findings,
    counts,
  };
}

/** A rule's hit as a diagnostic of its code: the catalog's severity, and its fix unless the hit has a hint. */
function toFinding(code: LintCode, hit: LintHit, file: string): LintFinding {
  const hint = hit.hint ?? DIAGNOSTIC_CODES[code].fix;
  const diagnostic = createDiagnostic(code, hit.message, {
    file,
    pointer: hit.pointer,
    hint,
    ...(hit.tool !== undefined ? { tool: hit.tool } : {}),
  });
  return { ...diagnostic, code, file, pointer: hit.pointer, hint };
}

/** Every tool as tools/list sends it, in tokens: the whole and its parts. */
function measureTools(
  model: BridgeModel,
  listed: readonly { name: string }[],
  countTokens: (text: string) => number,
): LintToolSize[] {
  const pointerByName = new Map(model.tools.map((tool) => [tool.name, tool.source.pointer]));
  const count = (value: unknown) => (value === undefined ? 0 : countTokens(JSON.stringify(value)));
  return listed.map((tool) => {
    const record = tool as Record<string, unknown>;
    return {
      name: tool.name,
      pointer: pointerByName.get(tool.name) ?? "",
      tokens: count(tool),
      descriptionTokens: count(record.description),
      inputSchemaTokens: count(record.inputSchema),
      outputSchemaTokens: count(record.outputSchema),
    };
  });
}

function median(sorted: number[]): number {
  if (sorted.length === 0) return 0;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}
