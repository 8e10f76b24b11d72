/**
 * lint's rules as data: each is a catalog code (which gives the severity and the fix, see
 * model/diagnostic-codes.ts) and a check that returns where the rule is broken. A hit's hint
 * replaces the catalog's fix only when it says more (the operationId to add).
 */
import type { LintCode } from "../../model/diagnostic-codes.js";
import { isRecord } from "../../model/records.js";
import type { CredentialKind, ToolNode } from "../../model/types.js";
import { resolveRefObject } from "../compile/context.js";
import { cleanProse } from "../compile/text.js";
import {
  groupOperations,
  isVague,
  type LintOperation,
  parameterEntries,
  suggestOperationId,
} from "./lint-operations.js";

/** One tool's share of tools/list, in tokens. */
export interface LintToolSize {
  name: string;
  pointer: string;
  tokens: number;
  descriptionTokens: number;
  inputSchemaTokens: number;
  outputSchemaTokens: number;
}

/** What the rules read. */
export interface LintInput {
  document: Record<string, unknown>;
  operations: readonly LintOperation[];
  sizes: readonly LintToolSize[];
  /** Characters of operation prose a tool description keeps. */
  budget: number;
  /** Tokens above which one tool's input schema is reported. */
  schemaTokens: number;
  /** The planned tools (their parameters' `credential` marks). */
  tools: readonly ToolNode[];
}

/** Where a rule is broken: becomes a diagnostic of the rule's code. */
export interface LintHit {
  pointer: string;
  message: string;
  /** Replaces the catalog's fix. */
  hint?: string;
  tool?: string;
}

export interface LintRule {
  code: LintCode;
  check: (input: LintInput) => LintHit[];
}

/** The rules, in the order their findings are listed when severity and pointer tie. */
export const LINT_RULES: readonly LintRule[] = [
  {
    code: "OMB_LINT_MISSING_OPERATION_ID",
    check: ({ operations }) =>
      operations
        .filter((op) => operationIdOf(op) === "")
        .map((op) => ({
          ...at(op),
          message: `${op.route} has no operationId; the tool is named from its method and path (${op.tool ?? "?"})`,
          hint: `add operationId: ${suggestOperationId(op)}`,
        })),
  },
  {
    code: "OMB_LINT_MISSING_DESCRIPTION",
    check: ({ operations }) =>
      operations
        .filter((op) => !hasProse(op))
        .map((op) => ({
          ...at(op),
          message: `${op.route} has neither summary nor description; a model has only the name and path to choose it by`,
        })),
  },
  {
    code: "OMB_LINT_VAGUE_DESCRIPTION",
    check: ({ operations }) =>
      operations
        .filter((op) => hasProse(op) && isVague(proseOf(op), op.path))
        .map((op) => ({ ...at(op), message: `${op.route} is described only as "${proseOf(op)}"` })),
  },
  {
    code: "OMB_LINT_DESCRIPTION_OVER_BUDGET",
    check: ({ operations, budget }) =>
      operations
        .filter((op) => hasProse(op) && proseLength(op) > budget * 2)
        .map((op) => ({
          ...at(op),
          message: `${op.route}'s summary and description are ${proseLength(op)} characters; the tool keeps about ${budget}`,
        })),
  },
  {
    code: "OMB_LINT_PARAMETER_WITHOUT_DESCRIPTION",
    check: ({ document, operations }) =>
      operations.flatMap((op) =>
        parameterEntries(document, op)
          .filter((parameter) => !isDescribed(document, parameter.value))
          .map((parameter) => ({
            ...at(op),
            pointer: parameter.pointer,
            message: `parameter "${parameter.value.name}" (${parameter.value.in}) of ${op.route} has no description`,
          })),
      ),
  },
  {
    code: "OMB_LINT_DUPLICATE_OPERATION_ID",
    check: ({ operations }) =>
      laterOfGroups(
        operations,
        (op) => operationIdOf(op).toLowerCase() || undefined,
        (id, op, first) => ({
          ...at(op),
          pointer: `${op.pointer}/operationId`,
          message: `operationId "${id}" is also used by ${first.route} (compared without case); this tool gets a hashed suffix`,
        }),
      ),
  },
  {
    code: "OMB_LINT_DUPLICATE_SUMMARY",
    check: ({ operations }) =>
      laterOfGroups(
        operations,
        (op) => (op.summary === "" ? undefined : op.summary.toLowerCase().replace(/[.!\s]+$/, "")),
        (summary, op, first) => ({
          ...at(op),
          pointer: `${op.pointer}/summary`,
          message: `summary "${summary}" is shared with ${first.route}; a model cannot tell the tools apart by it`,
        }),
      ),
  },
  {
    code: "OMB_LINT_NEAR_IDENTICAL_TOOLS",
    check: ({ operations }) =>
      laterOfGroups(operations, routeShape, (_, op, first) => ({
        ...at(op),
        message: `${op.route} differs from ${first.route} only in parameter names, case or a trailing slash`,
      })),
  },
  {
    code: "OMB_LINT_SCHEMA_TOO_LARGE",
    check: ({ sizes, schemaTokens }) =>
      sizes
        .filter((size) => size.inputSchemaTokens > schemaTokens)
        .map((size) => ({
          pointer: size.pointer,
          tool: size.name,
          message: `the input schema of ${size.name} is ${size.inputSchemaTokens} tokens (over ${schemaTokens}); every conversation pays for it`,
        })),
  },
  {
    code: "OMB_LINT_CREDENTIAL_PARAMETER",
    check: ({ tools }) => findCredentialParameters(tools),
  },
];

/**
 * Parameters that look like credentials, one hit per kind for the whole API (Discourse's
 * Api-Key on 21 operations is one line): the bridge never takes them from the model.
 */
function findCredentialParameters(tools: readonly ToolNode[]): LintHit[] {
  const byKind = new Map<CredentialKind, Map<string, { pointer: string; tools: number }>>();
  for (const tool of tools) {
    for (const binding of tool.http.parameters) {
      if (binding.credential === undefined) continue;
      const names = byKind.get(binding.credential) ?? new Map<string, { pointer: string; tools: number }>();
      byKind.set(binding.credential, names);
      const key = `${binding.name} (${binding.in}`;
      const seen = names.get(key) ?? { pointer: tool.source.pointer, tools: 0 };
      seen.tools++;
      names.set(key, seen);
    }
  }
  const hits: LintHit[] = [];
  for (const [kind, names] of byKind) {
    const entries = [...names].sort((a, b) => b[1].tools - a[1].tools || a[0].localeCompare(b[0]));
    const list = entries
      .map(([key, seen]) => `${key}, ${seen.tools} operation${seen.tools === 1 ? "" : "s"})`)
      .join(", ");
    hits.push({
      pointer: entries[0]![1].pointer,
      message:
        kind === "signature"
          ? `${list}: a per-request signature, which no static value makes; the bridge does not sign requests and never takes it from the model`
          : `${list}: ${entries.length === 1 ? "looks like a credential" : "look like credentials"}, which the bridge never takes from the model; the operator must configure ${entries.length === 1 ? "it" : "them"} (--header, --auth) or allow ${entries.length === 1 ? "it" : "them"} (--allow-credential-arguments)`,
    });
  }
  return hits;
}

/** The operation's pointer and tool, where most hits are. */
function at(op: LintOperation): { pointer: string; tool?: string } {
  return { pointer: op.pointer, ...(op.tool !== undefined ? { tool: op.tool } : {}) };
}

function operationIdOf(op: LintOperation): string {
  return typeof op.operation.operationId === "string" ? op.operation.operationId.trim() : "";
}

function hasProse(op: LintOperation): boolean {
  return op.summary !== "" || op.description !== "";
}

function proseOf(op: LintOperation): string {
  return `${op.summary} ${op.description}`.trim();
}

function proseLength(op: LintOperation): number {
  return op.summary.length + op.description.length;
}

/** A description of its own, or one on its schema. */
function isDescribed(document: Record<string, unknown>, parameter: Record<string, unknown>): boolean {
  if (cleanProse(parameter.description, false) !== "") return true;
  const schema = resolveRefObject(document, parameter.schema);
  return isRecord(schema) && typeof schema.description === "string" && schema.description.trim() !== "";
}

/** Method and path without parameter names, case or a trailing slash. */
function routeShape(op: LintOperation): string {
  return `${op.method} ${op.path
    .replace(/\{[^}]*\}/g, "{}")
    .replace(/\/+$/, "")
    .toLowerCase()}`;
}

/** One hit for each operation that shares its key with an earlier one. */
function laterOfGroups(
  operations: readonly LintOperation[],
  keyOf: (op: LintOperation) => string | undefined,
  hit: (key: string, op: LintOperation, first: LintOperation) => LintHit,
): LintHit[] {
  return [...groupOperations(operations, keyOf)].flatMap(([key, ops]) =>
    ops.slice(1).map((op) => hit(key, op, ops[0]!)),
  );
}
