/**
 * The tool diff: two lists of tool contracts (old and new) → every change a client or a model
 * can feel, each classified by a rule of change-rules.ts. Tools are matched by name; a tool
 * whose name is gone but whose operation is still there (same operationId, else same method
 * and path) was renamed. Either side may come without prose (a catalog): then the prose is
 * compared by its digest only, and reported as one `docs-changed` per tool.
 */
import { isJsonMediaType } from "../model/media-types.js";
import { escapePointerToken } from "../model/pointer.js";
import type { SecurityRequirementNode, ToolNode } from "../model/types.js";
import { type ContractBinding, compareText } from "../runtime/server/contract.js";
import { CHANGE_RULES, type ChangeCode, type ChangeSeverity, SEVERITY_ORDER } from "./change-rules.js";
import { describeContract, stripResults, type ToolContract } from "./contract.js";
import { diffOutlines } from "./outline-diff.js";
import { diffInputSchemas, type SchemaFinding, show } from "./schema-diff.js";

/** One change; the JSON form of `diff --format json` lists these as they are. */
export interface ToolChange {
  /** The tool's name (the new name for a rename, the old one for a removal). */
  tool: string;
  operationId: string | null;
  /** Upper case, as in `GET /repos/{owner}/{repo}`. */
  method: string;
  path: string;
  severity: ChangeSeverity;
  code: ChangeCode;
  /** One line. */
  message: string;
  /**
   * JSON pointer into the tool as tools/list shows it: `/inputSchema/...`, `/outputSchema/...`,
   * `/annotations/...`, `/title`, `/description`; empty for the tool as a whole.
   */
  pointer: string;
}

/** How the tools of two lists correspond: by name, else as a rename of the same operation. */
export interface ToolPairing {
  /** Old and new version of each tool present on both sides (renamed ones included). */
  pairs: { old: ToolContract; next: ToolContract; renamed: boolean }[];
  removed: ToolContract[];
  added: ToolContract[];
}

/** Pairs the tools of two lists: same name, else same operationId, else same method and path. */
export function pairTools(oldTools: ToolContract[], newTools: ToolContract[]): ToolPairing {
  const newByName = new Map(newTools.map((t) => [t.name, t]));
  const oldNames = new Set(oldTools.map((t) => t.name));
  const unmatched = newTools.filter((t) => !oldNames.has(t.name));
  const pairs: ToolPairing["pairs"] = [];
  const removed: ToolContract[] = [];
  const taken = new Set<ToolContract>();
  for (const old of oldTools) {
    const same = newByName.get(old.name);
    if (same !== undefined) {
      pairs.push({ old, next: same, renamed: false });
      continue;
    }
    const successor = findSuccessor(old, unmatched, taken);
    if (successor === undefined) removed.push(old);
    else {
      taken.add(successor);
      pairs.push({ old, next: successor, renamed: true });
    }
  }
  return { pairs, removed, added: unmatched.filter((t) => !taken.has(t)) };
}

/** Every change between two tool lists, in a stable order (tool, severity, pointer, code). */
export interface DiffOptions {
  /**
   * Compare result outlines (default true). Only outlines that name every field can tell a
   * removed result field from one left out: compare them only when both sides have such.
   */
  results?: boolean;
}

export function diffContracts(
  oldContracts: ToolContract[],
  newContracts: ToolContract[],
  options: DiffOptions = {},
): ToolChange[] {
  const results = options.results !== false;
  const oldTools = results ? oldContracts : oldContracts.map(stripResults);
  const newTools = results ? newContracts : newContracts.map(stripResults);
  const { pairs, removed, added } = pairTools(oldTools, newTools);
  const changes: ToolChange[] = [];
  for (const old of removed)
    changes.push(createChange(old, "tool-removed", "", `tool \`${old.name}\` was removed`));
  for (const next of added) changes.push(createChange(next, "tool-added", "", `new tool \`${next.name}\``));
  for (const { old, next, renamed } of pairs) {
    if (renamed) {
      changes.push(
        createChange(next, "tool-renamed", "", `tool \`${old.name}\` was renamed to \`${next.name}\``),
      );
    }
    changes.push(...compareTools(old, next));
  }
  return sortChanges(changes);
}

/** diffContracts on the tools of two models. */
export function diffTools(oldTools: ToolNode[], newTools: ToolNode[]): ToolChange[] {
  return diffContracts(oldTools.map(describeContract), newTools.map(describeContract));
}

/** The tool that took the place of a vanished one: same operationId, else same method and path. */
function findSuccessor(
  old: ToolContract,
  candidates: ToolContract[],
  taken: Set<ToolContract>,
): ToolContract | undefined {
  const free = candidates.filter((c) => !taken.has(c));
  if (old.operationId !== undefined) {
    const byId = free.find((c) => c.operationId === old.operationId);
    if (byId !== undefined) return byId;
  }
  return free.find((c) => c.binding.method === old.binding.method && c.binding.path === old.binding.path);
}

export function sortChanges(changes: ToolChange[]): ToolChange[] {
  return [...changes].sort(
    (a, b) =>
      compareText(a.tool, b.tool) ||
      SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
      compareText(a.pointer, b.pointer) ||
      compareText(a.code, b.code) ||
      compareText(a.message, b.message),
  );
}

function createChange(tool: ToolContract, code: ChangeCode, pointer: string, message: string): ToolChange {
  return {
    tool: tool.name,
    operationId: tool.operationId ?? null,
    method: tool.binding.method.toUpperCase(),
    path: tool.binding.path,
    severity: CHANGE_RULES[code].severity,
    code,
    message,
    pointer,
  };
}

/** The changes between two versions of one tool (reported under the new one's name). */
function compareTools(old: ToolContract, next: ToolContract): ToolChange[] {
  const changes: ToolChange[] = [];
  const push = (code: ChangeCode, pointer: string, message: string) =>
    changes.push(createChange(next, code, pointer, message));
  const withFindings = (prefix: string, findings: SchemaFinding[]) => {
    for (const f of findings) push(f.code, `${prefix}${f.pointer}`, f.message);
  };
  const docs = old.docs !== undefined && next.docs !== undefined;
  if (docs) compareDocs(old, next, push);
  else if (old.docsDigest !== next.docsDigest) {
    push(
      "docs-changed",
      "",
      "the title, a description or an example changed (a catalog keeps only its digest)",
    );
  }
  if (next.deprecated && !old.deprecated) push("tool-deprecated", "", "the operation is deprecated");
  if (!next.deprecated && old.deprecated)
    push("tool-undeprecated", "", "the operation is no longer deprecated");
  compareAnnotations(old, next, push);
  if (old.binding.method !== next.binding.method || old.binding.path !== next.binding.path) {
    // Named by the operation that is gone, so that it can be found by the old method and path.
    const route = (b: ContractBinding) => `${b.method.toUpperCase()} ${b.path}`;
    changes.push({
      ...createChange(
        old,
        "operation-moved",
        "",
        `calls go to ${route(next.binding)} (was ${route(old.binding)})`,
      ),
      tool: next.name,
    });
  }
  compareBinding(old.binding, next.binding, push);
  compareSecurity(old.binding.security, next.binding.security, push);
  withFindings("/inputSchema", diffInputSchemas(old.inputSchema, next.inputSchema, { docs }));
  compareOutput(old, next, push, withFindings);
  const contractChanged = changes.some((c) => c.severity !== "docs");
  if (old.digest !== next.digest && !contractChanged && old.name === next.name) {
    push("contract-changed", "", `the contract digest changed (${old.digest} → ${next.digest})`);
  }
  return changes;
}

type Push = (code: ChangeCode, pointer: string, message: string) => void;

function compareDocs(old: ToolContract, next: ToolContract, push: Push): void {
  const before = old.docs!;
  const after = next.docs!;
  if (before.title !== after.title) push("title-changed", "/title", "the tool's title changed");
  if (before.description !== after.description)
    push("description-changed", "/description", "the tool's description changed");
  if (before.annotationTitle !== after.annotationTitle)
    push("title-changed", "/annotations/title", "the tool's annotation title changed");
}

function compareAnnotations(old: ToolContract, next: ToolContract, push: Push): void {
  const a = old.annotations;
  const b = next.annotations;
  if (a.readOnlyHint && !b.readOnlyHint)
    push("read-only-lost", "/annotations/readOnlyHint", "the tool is no longer read-only");
  if (!a.readOnlyHint && b.readOnlyHint)
    push("read-only-gained", "/annotations/readOnlyHint", "the tool is read-only now");
  if (!a.destructiveHint && b.destructiveHint)
    push("became-destructive", "/annotations/destructiveHint", "the tool is destructive now");
  if (a.destructiveHint && !b.destructiveHint)
    push("no-longer-destructive", "/annotations/destructiveHint", "the tool is no longer destructive");
  if (a.idempotentHint && !b.idempotentHint)
    push("idempotent-lost", "/annotations/idempotentHint", "the tool is no longer idempotent");
  if (!a.idempotentHint && b.idempotentHint)
    push("idempotent-gained", "/annotations/idempotentHint", "the tool is idempotent now");
  if (a.openWorldHint !== b.openWorldHint)
    push(
      "open-world-changed",
      "/annotations/openWorldHint",
      `openWorldHint: ${a.openWorldHint} → ${b.openWorldHint}`,
    );
}

/** Where one argument travels: a parameter (location, wire name, style) or the body. */
function describePlaces(binding: ContractBinding): Map<string, string> {
  const places = new Map<string, string>();
  for (const p of binding.parameters) {
    const style = `${p.style}${p.explode ? ", exploded" : ""}${p.allowReserved ? ", reserved allowed" : ""}`;
    places.set(
      p.argument,
      `${p.in} parameter "${p.name}" (${style}${p.contentType ? `, ${p.contentType}` : ""})`,
    );
  }
  const body = binding.body;
  if (body?.argument !== undefined) places.set(body.argument, "the whole body");
  for (const p of body?.properties ?? [])
    places.set(p.argument, `body field "${p.name}"${p.file ? " (a file part)" : ""}`);
  return places;
}

function compareBinding(old: ContractBinding, next: ContractBinding, push: Push): void {
  const before = describePlaces(old);
  const after = describePlaces(next);
  for (const [argument, place] of after) {
    const was = before.get(argument);
    if (was !== undefined && was !== place) {
      push(
        "binding-changed",
        `/inputSchema/properties/${escapePointerToken(argument)}`,
        `argument \`${argument}\` is sent as ${place} (was ${was})`,
      );
    }
  }
  for (const type of old.responseTypes) {
    if (!next.responseTypes.includes(type))
      push("response-type-removed", "", `success answers no longer come as ${type}`);
  }
  for (const type of next.responseTypes) {
    if (!old.responseTypes.includes(type))
      push("response-type-added", "", `success answers may also come as ${type}`);
  }
  if (old.body !== undefined && next.body !== undefined) {
    if (old.body.mediaType !== next.body.mediaType) {
      push(
        "body-media-type-changed",
        "",
        `the request body is sent as ${next.body.mediaType} (was ${old.body.mediaType})`,
      );
    } else if (old.body.required !== next.body.required) {
      push("binding-changed", "", `the request body is ${next.body.required ? "required" : "optional"} now`);
    } else if (
      old.body.kind !== next.body.kind ||
      JSON.stringify(old.body.encoding ?? null) !== JSON.stringify(next.body.encoding ?? null)
    ) {
      push("binding-changed", "", `the body's encoding changed (${old.body.kind} → ${next.body.kind})`);
    }
  }
}

/** `requirement` is met by a client that meets `held` (every scheme and scope it names is held). */
function isSatisfiedBy(requirement: SecurityRequirementNode, held: SecurityRequirementNode): boolean {
  return Object.entries(requirement).every(([scheme, scopes]) => {
    const heldScopes = held[scheme];
    return heldScopes !== undefined && scopes.every((s) => heldScopes.includes(s));
  });
}

function showRequirement(requirement: SecurityRequirementNode): string {
  const parts = Object.entries(requirement).map(([scheme, scopes]) =>
    scopes.length > 0 ? `${scheme} (${scopes.join(", ")})` : scheme,
  );
  return parts.length > 0 ? parts.join(" and ") : "no auth";
}

function compareSecurity(old: SecurityRequirementNode[], next: SecurityRequirementNode[], push: Push): void {
  // No requirement at all is one alternative that needs nothing.
  const before = old.length > 0 ? old : [{}];
  const after = next.length > 0 ? next : [{}];
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  const stranded = before.filter((held) => !after.some((needed) => isSatisfiedBy(needed, held)));
  if (stranded.length > 0) {
    push(
      "auth-added",
      "",
      `a caller with ${stranded.map(showRequirement).join(" or ")} is no longer enough: the call needs ${after.map(showRequirement).join(" or ")}`,
    );
  } else {
    push(
      "auth-relaxed",
      "",
      `the call needs ${after.map(showRequirement).join(" or ")} (was ${before.map(showRequirement).join(" or ")})`,
    );
  }
}

function compareOutput(
  old: ToolContract,
  next: ToolContract,
  push: Push,
  withFindings: (prefix: string, findings: SchemaFinding[]) => void,
): void {
  if (old.outputSchema !== undefined && next.outputSchema === undefined) {
    // Still answering in a JSON type it answered in: the outline went because other types came.
    const stillJson = old.binding.responseTypes.some(
      (type) => isJsonMediaType(type) && next.binding.responseTypes.includes(type),
    );
    if (stillJson) {
      push(
        "result-outline-unlisted",
        "/outputSchema",
        "the result's outline is left out: answers may also come in another media type (JSON answers stay)",
      );
    } else {
      push("result-outline-removed", "/outputSchema", "the result has no outline now (not one JSON schema)");
    }
    return;
  }
  if (old.outputSchema === undefined && next.outputSchema !== undefined) {
    push("result-outline-added", "/outputSchema", "the result has an outline now");
    return;
  }
  if (old.outputSchema === undefined || next.outputSchema === undefined) return;
  if (old.outputWrapped !== next.outputWrapped) {
    push(
      "result-field-retyped",
      "/outputSchema",
      `structuredContent ${next.outputWrapped ? "wraps the body as { result }" : "is the body itself"} now (was ${show(old.outputWrapped ? "{ result }" : "the body")})`,
    );
    return;
  }
  withFindings("/outputSchema", diffOutlines(old.outputSchema, next.outputSchema));
}

/** Counts per severity and per rule code. */
export function countChanges(changes: ToolChange[]): {
  bySeverity: Record<ChangeSeverity, number>;
  byCode: Partial<Record<ChangeCode, number>>;
} {
  const bySeverity: Record<ChangeSeverity, number> = { breaking: 0, compatible: 0, docs: 0 };
  const byCode: Partial<Record<ChangeCode, number>> = {};
  for (const c of changes) {
    bySeverity[c.severity] += 1;
    byCode[c.code] = (byCode[c.code] ?? 0) + 1;
  }
  return { bySeverity, byCode };
}
