/**
 * `lint`: what makes a spec hard for a model to use as tools, for the API's owner. Each finding
 * names the spec location (JSON pointer), a severity and a fix. Plus the size of tools/list in
 * tokens and the largest tools, counted by a tokenizer the caller passes (see lint-tokens.ts).
 */

import { HTTP_METHODS } from "../../model/http-methods.js";
import { escapePointerToken } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { BridgeModel } from "../../model/types.js";
import { resolveRefObject } from "../compile/context.js";
import { cleanProse } from "../compile/text.js";
import type { LoadedSpec } from "../spec/load-spec.js";

export type LintSeverity = "error" | "warning" | "info";

export interface LintFinding {
  code: string;
  severity: LintSeverity;
  /** JSON pointer into the spec. */
  pointer: string;
  message: string;
  fix: string;
  /** The tool the finding is about, when there is one. */
  tool?: string;
}

export interface LintToolSize {
  name: string;
  pointer: string;
  tokens: number;
  descriptionTokens: number;
  inputSchemaTokens: number;
  outputSchemaTokens: number;
}

export interface LintReport {
  tools: number;
  /** Tokens of the whole tools/list result (every tool as compact JSON). */
  totalTokens: number;
  medianTokens: number;
  tokenizer: string;
  largest: LintToolSize[];
  findings: LintFinding[];
  counts: Record<LintSeverity, number>;
}

export interface LintOptions {
  /** Characters of operation prose (summary + description) a tool description keeps (default 200). */
  budget?: number;
  /** Tokens above which one tool's input schema is reported (default 2,000). */
  schemaTokens?: number;
  /** Counts tokens of a text. */
  countTokens: (text: string) => number;
  tokenizer: string;
}

interface Operation {
  pointer: string;
  method: string;
  path: string;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
}

/** Lints a loaded spec and the tools planned from it (`listed`: the tools/list form). */
export function lintSpec(
  loaded: LoadedSpec,
  model: BridgeModel,
  listed: readonly { name: string }[],
  options: LintOptions,
): LintReport {
  const budget = options.budget ?? 200;
  const document = loaded.document as unknown as Record<string, unknown>;
  const operations = collectOperations(document);
  const toolByPointer = new Map(model.tools.map((tool) => [tool.source.pointer, tool.name]));
  const findings: LintFinding[] = [];
  const add = (finding: LintFinding) => findings.push(finding);

  const summaries = new Map<string, Operation[]>();
  const operationIds = new Map<string, Operation[]>();
  const shapes = new Map<string, Operation[]>();
  for (const op of operations) {
    const tool = toolByPointer.get(op.pointer);
    const at = { pointer: op.pointer, ...(tool !== undefined ? { tool } : {}) };
    const route = `${op.method.toUpperCase()} ${op.path}`;
    const operationId = typeof op.operation.operationId === "string" ? op.operation.operationId.trim() : "";
    if (operationId === "") {
      add({
        code: "missing-operation-id",
        severity: "warning",
        ...at,
        message: `${route} has no operationId; the tool is named from its method and path (${tool ?? "?"})`,
        fix: `add operationId: ${suggestOperationId(op)}`,
      });
    } else push(operationIds, operationId.toLowerCase(), op);

    const summary = cleanProse(op.operation.summary, false);
    const description = cleanProse(op.operation.description, false);
    if (summary === "" && description === "") {
      add({
        code: "missing-description",
        severity: "error",
        ...at,
        message: `${route} has neither summary nor description; a model has only the name and path to choose it by`,
        fix: 'add a summary saying what it does on which object ("List the pets of an owner")',
      });
    } else {
      const words = `${summary} ${description}`.trim();
      if (isVague(words, op.path)) {
        add({
          code: "vague-description",
          severity: "warning",
          ...at,
          message: `${route} is described only as "${words}"`,
          fix: "say what the operation does, on which object, and what it returns, in one sentence",
        });
      }
      if (summary.length + description.length > budget * 2) {
        add({
          code: "description-over-budget",
          severity: "info",
          ...at,
          message: `${route}'s summary and description are ${summary.length + description.length} characters; the tool keeps about ${budget}`,
          fix: "put what a caller must know first: the first sentences are kept, the rest is cut",
        });
      }
      if (summary !== "") push(summaries, summary.toLowerCase().replace(/[.!\s]+$/, ""), op);
    }
    push(
      shapes,
      `${op.method} ${op.path
        .replace(/\{[^}]*\}/g, "{}")
        .replace(/\/+$/, "")
        .toLowerCase()}`,
      op,
    );

    for (const parameter of parameterEntries(document, op)) {
      if (cleanProse(parameter.value.description, false) !== "") continue;
      const schema = resolveRefObject(document, parameter.value.schema);
      if (isRecord(schema) && typeof schema.description === "string" && schema.description.trim() !== "")
        continue;
      add({
        code: "parameter-without-description",
        severity: "info",
        ...at,
        pointer: parameter.pointer,
        message: `parameter "${parameter.value.name}" (${parameter.value.in}) of ${route} has no description`,
        fix: "describe the value expected, with its unit or format and an example",
      });
    }
  }

  for (const [id, ops] of operationIds) {
    if (ops.length < 2) continue;
    for (const op of ops.slice(1)) {
      add({
        code: "duplicate-operation-id",
        severity: "error",
        pointer: `${op.pointer}/operationId`,
        ...toolOf(toolByPointer, op),
        message: `operationId "${id}" is also used by ${ops[0]!.method.toUpperCase()} ${ops[0]!.path} (compared without case); this tool gets a hashed suffix`,
        fix: "give every operation its own operationId",
      });
    }
  }
  for (const [summary, ops] of summaries) {
    if (ops.length < 2) continue;
    for (const op of ops.slice(1)) {
      add({
        code: "duplicate-summary",
        severity: "warning",
        pointer: `${op.pointer}/summary`,
        ...toolOf(toolByPointer, op),
        message: `summary "${summary}" is shared with ${ops[0]!.method.toUpperCase()} ${ops[0]!.path}; a model cannot tell the tools apart by it`,
        fix: "say in the summary what makes this operation different (its object, scope or filter)",
      });
    }
  }
  for (const ops of shapes.values()) {
    if (ops.length < 2) continue;
    for (const op of ops.slice(1)) {
      add({
        code: "near-identical-tools",
        severity: "warning",
        pointer: op.pointer,
        ...toolOf(toolByPointer, op),
        message: `${op.method.toUpperCase()} ${op.path} differs from ${ops[0]!.method.toUpperCase()} ${ops[0]!.path} only in parameter names, case or a trailing slash`,
        fix: "merge the two operations, or hide one (x-mcp: { hidden: true })",
      });
    }
  }

  // Sizes: every tool as tools/list sends it.
  const pointerByName = new Map(model.tools.map((tool) => [tool.name, tool.source.pointer]));
  const count = (value: unknown) => (value === undefined ? 0 : options.countTokens(JSON.stringify(value)));
  const sizes: LintToolSize[] = listed.map((tool) => {
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
  const schemaTokens = options.schemaTokens ?? 2000;
  for (const size of sizes) {
    if (size.inputSchemaTokens <= schemaTokens) continue;
    add({
      code: "schema-too-large",
      severity: "warning",
      pointer: size.pointer,
      tool: size.name,
      message: `the input schema of ${size.name} is ${size.inputSchemaTokens} tokens (over ${schemaTokens}); every conversation pays for it`,
      fix: "split the operation, or move rarely used nested options behind a simpler schema; drop descriptions that repeat the property name",
    });
  }
  const sortedTokens = sizes.map((s) => s.tokens).sort((a, b) => a - b);
  const totalTokens = sortedTokens.reduce((sum, n) => sum + n, 0);
  const order: Record<LintSeverity, number> = { error: 0, warning: 1, info: 2 };
  findings.sort((a, b) => order[a.severity] - order[b.severity] || a.pointer.localeCompare(b.pointer));
  const counts: Record<LintSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return {
    tools: listed.length,
    totalTokens,
    medianTokens: median(sortedTokens),
    tokenizer: options.tokenizer,
    largest: [...sizes].sort((a, b) => b.tokens - a.tokens).slice(0, 10),
    findings,
    counts,
  };
}

function collectOperations(document: Record<string, unknown>): Operation[] {
  const out: Operation[] = [];
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const pathItem = resolveRefObject(document, rawItem);
    if (!isRecord(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      out.push({
        pointer: `/paths/${escapePointerToken(path)}/${method}`,
        method,
        path,
        operation,
        pathItem,
      });
    }
  }
  return out;
}

function parameterEntries(
  document: Record<string, unknown>,
  op: Operation,
): { pointer: string; value: Record<string, unknown> }[] {
  const byKey = new Map<string, { pointer: string; value: Record<string, unknown> }>();
  const pathPointer = op.pointer.slice(0, op.pointer.lastIndexOf("/"));
  for (const [list, base] of [
    [op.pathItem.parameters, `${pathPointer}/parameters`],
    [op.operation.parameters, `${op.pointer}/parameters`],
  ] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, index) => {
      const value = resolveRefObject(document, raw);
      if (!isRecord(value) || typeof value.name !== "string") return;
      // A shared parameter is reported where it is defined, once.
      const pointer =
        isRecord(raw) && typeof raw.$ref === "string" && raw.$ref.startsWith("#")
          ? decodeURIComponent(raw.$ref.slice(1))
          : `${base}/${index}`;
      byKey.set(`${String(value.in)}:${value.name}`, { pointer, value });
    });
  }
  return [...byKey.values()];
}

/** Under three words, or nothing but the path or method and path. */
function isVague(text: string, path: string): boolean {
  const plain = text.replace(/[.!]+$/, "").trim();
  if (plain.toLowerCase() === path.toLowerCase()) return true;
  if (
    /^(get|post|put|patch|delete|head|options)\s+\//i.test(plain) &&
    !/\s/.test(plain.replace(/^\S+\s+/, ""))
  )
    return true;
  return plain.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length < 3;
}

function suggestOperationId(op: Operation): string {
  const verbs: Record<string, string> = {
    get: "get",
    post: "create",
    put: "replace",
    patch: "update",
    delete: "delete",
  };
  const words = op.path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => (segment.startsWith("{") ? `By ${segment.slice(1, -1)}` : segment))
    .join(" ")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
  const camel = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return `${verbs[op.method] ?? op.method}${camel}`;
}

function toolOf(toolByPointer: Map<string, string>, op: Operation): { tool?: string } {
  const tool = toolByPointer.get(op.pointer);
  return tool !== undefined ? { tool } : {};
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function median(sorted: number[]): number {
  if (sorted.length === 0) return 0;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** The report as text for a terminal. */
export function formatLintReport(report: LintReport, source: string): string {
  const lines: string[] = [];
  for (const f of report.findings) {
    lines.push(`${f.severity} ${f.code} ${source}#${f.pointer}${f.tool !== undefined ? ` (${f.tool})` : ""}`);
    lines.push(`  ${f.message}`);
    lines.push(`  fix: ${f.fix}`);
  }
  if (lines.length > 0) lines.push("");
  lines.push(
    `${report.tools} tools; tools/list is ${report.totalTokens.toLocaleString("en-US")} tokens (${report.tokenizer}), median ${report.medianTokens} a tool`,
  );
  if (report.largest.length > 0) {
    lines.push("largest tools (tokens: total = description + input schema + output schema + rest):");
    for (const t of report.largest) {
      const rest = t.tokens - t.descriptionTokens - t.inputSchemaTokens - t.outputSchemaTokens;
      lines.push(
        `  ${t.name.padEnd(40)} ${String(t.tokens).padStart(6)} = ${t.descriptionTokens} + ${t.inputSchemaTokens} + ${t.outputSchemaTokens} + ${rest}`,
      );
    }
  }
  lines.push(`${report.counts.error} errors, ${report.counts.warning} warnings, ${report.counts.info} notes`);
  return `${lines.join("\n")}\n`;
}
