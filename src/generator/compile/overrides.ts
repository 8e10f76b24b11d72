/**
 * Overrides: fixes for a spec that users cannot edit. Two sources with one meaning:
 *
 * - the `x-mcp` extension on an operation or a path item (the path item's applies to each of
 *   its operations; the operation's wins field by field);
 * - an override file: either an OpenAPI Overlay 1.0 document (applied to the spec document
 *   before planning, see overlay.ts) or a map `{ "<operationId or METHOD /path>": X }`, where X
 *   has the shape of `x-mcp` and wins over both.
 *
 * `x-mcp` = `{ name, description, title, hidden, annotations: { title, readOnlyHint,
 * destructiveHint, idempotentHint, openWorldHint }, mcpHeaders: { <header parameter>: <name> |
 * true | false } }`, every field optional. `mcpHeaders` mirrors header parameters into
 * `Mcp-Param-<name>` HTTP headers of MCP 2026-07-28 clients (mcp-headers.ts): `true` keeps the
 * parameter's own name, `false` undoes a spec's `x-mcp-header`.
 */
import { readFile } from "node:fs/promises";
import { createDiagnostic, failWith } from "../../model/diagnostics.js";
import { isHttpMethod } from "../../model/http-methods.js";
import { joinPointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { Diagnostic, HttpMethod, ToolAnnotationsNode } from "../../model/types.js";
import { type OverlayDocument, parseOverlay } from "../spec/overlay.js";
import { parseSpecText } from "../spec/parse-text.js";

export type AnnotationHints = Omit<ToolAnnotationsNode, "title">;

/** What `x-mcp` (or an entry of an override map) may say about one operation. */
export interface McpOverride {
  name?: string;
  description?: string;
  title?: string;
  hidden?: boolean;
  annotations?: Partial<ToolAnnotationsNode>;
  /** Header parameter name → the `Mcp-Param-` name to mirror it under (true: its own; false: never). */
  mcpHeaders?: Record<string, string | boolean>;
}

/** An override and where each of its fields was written, for diagnostics. */
export interface LocatedOverride {
  override: McpOverride;
  /** File (or spec source) the override came from. */
  file: string;
  /** JSON pointer of the override object in that file. */
  pointer: string;
}

/** An override map keyed by operationId or `METHOD /path` (method upper-cased). */
export interface OverrideMap {
  file: string;
  entries: Map<string, LocatedOverride & { key: string }>;
}

/** The override file as the planner uses it. */
export type LoadedOverrides =
  | { kind: "overlay"; file: string; overlay: OverlayDocument; text: string }
  | { kind: "map"; file: string; map: OverrideMap; text: string };

/** A file path, or the parsed document itself (an Overlay or a map) in the library. */
export type OverridesInput = string | Record<string, unknown>;

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
const STRING_FIELDS = ["name", "description", "title"] as const;
const FIELDS = new Set<string>([...STRING_FIELDS, "hidden", "annotations", "mcpHeaders"]);

export interface OverrideProblem {
  pointer: string;
  message: string;
}

/**
 * Reads an `x-mcp`-shaped value. Fields of the wrong type are left out and reported as
 * problems (with the JSON pointer of the field, under `pointer`).
 */
export function parseMcpOverride(
  value: unknown,
  pointer: string,
): { override: McpOverride; problems: OverrideProblem[] } {
  const problems: OverrideProblem[] = [];
  const override: McpOverride = {};
  if (!isRecord(value)) {
    problems.push({ pointer, message: `expected an object, got ${describe(value)}` });
    return { override, problems };
  }
  for (const [key, field] of Object.entries(value)) {
    const at = `${pointer}${joinPointer(key)}`;
    if (!FIELDS.has(key)) {
      problems.push({
        pointer: at,
        message: `unknown field "${key}" (known: name, description, title, hidden, annotations, mcpHeaders)`,
      });
      continue;
    }
    if (key === "hidden") {
      if (typeof field === "boolean") override.hidden = field;
      else problems.push({ pointer: at, message: `hidden must be true or false, got ${describe(field)}` });
      continue;
    }
    if (key === "annotations") {
      const annotations = parseAnnotations(field, at, problems);
      if (annotations) override.annotations = annotations;
      continue;
    }
    if (key === "mcpHeaders") {
      const mcpHeaders = parseMcpHeaders(field, at, problems);
      if (mcpHeaders) override.mcpHeaders = mcpHeaders;
      continue;
    }
    if (typeof field === "string" && (key !== "name" || field !== "")) {
      override[key as (typeof STRING_FIELDS)[number]] = field;
    } else
      problems.push({ pointer: at, message: `${key} must be a non-empty string, got ${describe(field)}` });
  }
  return { override, problems };
}

function parseAnnotations(
  value: unknown,
  pointer: string,
  problems: OverrideProblem[],
): Partial<ToolAnnotationsNode> | undefined {
  if (!isRecord(value)) {
    problems.push({ pointer, message: `annotations must be an object, got ${describe(value)}` });
    return undefined;
  }
  const result: Partial<ToolAnnotationsNode> = {};
  for (const [key, field] of Object.entries(value)) {
    const at = `${pointer}${joinPointer(key)}`;
    if ((HINTS as readonly string[]).includes(key)) {
      if (typeof field === "boolean") result[key as (typeof HINTS)[number]] = field;
      else problems.push({ pointer: at, message: `${key} must be true or false, got ${describe(field)}` });
    } else if (key === "title") {
      if (typeof field === "string") result.title = field;
      else problems.push({ pointer: at, message: `title must be a string, got ${describe(field)}` });
    } else {
      problems.push({
        pointer: at,
        message: `unknown annotation "${key}" (known: title, ${HINTS.join(", ")})`,
      });
    }
  }
  return result;
}

/** `mcpHeaders`: header parameter names (as the spec writes them) → a name, true or false. */
function parseMcpHeaders(
  value: unknown,
  pointer: string,
  problems: OverrideProblem[],
): Record<string, string | boolean> | undefined {
  if (!isRecord(value)) {
    problems.push({ pointer, message: `mcpHeaders must be an object, got ${describe(value)}` });
    return undefined;
  }
  const result: Record<string, string | boolean> = {};
  for (const [name, field] of Object.entries(value)) {
    if (typeof field === "boolean" || (typeof field === "string" && field !== "")) result[name] = field;
    else {
      problems.push({
        pointer: `${pointer}${joinPointer(name)}`,
        message: `mcpHeaders.${name} must be a header name, true or false, got ${describe(field)}`,
      });
    }
  }
  return result;
}

/** Later overrides win field by field; annotations are merged hint by hint, mcpHeaders header by header. */
export function mergeOverrides(...overrides: (McpOverride | undefined)[]): McpOverride {
  const result: McpOverride = {};
  for (const override of overrides) {
    if (!override) continue;
    const { annotations, mcpHeaders, ...rest } = override;
    Object.assign(result, rest);
    if (annotations) result.annotations = { ...result.annotations, ...annotations };
    if (mcpHeaders) result.mcpHeaders = { ...result.mcpHeaders, ...mcpHeaders };
  }
  return result;
}

/** `get /pets` → `GET /pets`; anything else is taken as an operationId. */
export function normalizeOverrideKey(key: string): string {
  const match = /^([A-Za-z]+)\s+(\/.*)$/.exec(key.trim());
  if (match && isHttpMethod(match[1]!.toLowerCase())) return `${match[1]!.toUpperCase()} ${match[2]}`;
  return key;
}

/** The key of an operation in an override map by route. */
export function routeKey(method: HttpMethod, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

/**
 * Reads an override file (JSON or YAML) or takes a document given as an object. A malformed
 * file is a BridgeError naming the file and the JSON pointer of the bad entry.
 */
export async function loadOverrides(input: OverridesInput): Promise<LoadedOverrides> {
  let file: string;
  let value: unknown;
  let text: string;
  if (typeof input === "string") {
    file = input;
    try {
      text = await readFile(input, "utf8");
    } catch (error) {
      failWith("OMB_OVERRIDES_READ", `cannot read the override file: ${(error as Error).message}`, {
        file,
      });
    }
    value = parseSpecText(text, file);
  } else {
    file = "<overrides>";
    value = input;
    text = JSON.stringify(input);
  }
  return parseOverridesDocument(value, file, text);
}

/** An override document already parsed from JSON or YAML. */
export function parseOverridesDocument(value: unknown, file: string, text: string): LoadedOverrides {
  if (!isRecord(value)) {
    failWith("OMB_OVERRIDES_INVALID", `the override file must be an object, got ${describe(value)}`, {
      file,
      pointer: "",
      hint: "write an OpenAPI Overlay 1.0 document or a map of operationId → { name, description, hidden, title, annotations, mcpHeaders }",
    });
  }
  if ("overlay" in value) return { kind: "overlay", file, overlay: parseOverlay(value, file), text };
  const entries: OverrideMap["entries"] = new Map();
  for (const [key, raw] of Object.entries(value)) {
    const pointer = joinPointer(key);
    const { override, problems } = parseMcpOverride(raw, pointer);
    if (problems.length > 0) {
      const first = problems[0]!;
      failWith("OMB_OVERRIDES_INVALID", `override "${key}": ${first.message}`, {
        file,
        pointer: first.pointer,
        hint: "each entry is { name, description, title, hidden, annotations: { readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title }, mcpHeaders: { <header>: <name> | true | false } }",
      });
    }
    const normalized = normalizeOverrideKey(key);
    if (entries.has(normalized)) {
      failWith("OMB_OVERRIDES_INVALID", `override "${key}" repeats "${entries.get(normalized)!.key}"`, {
        file,
        pointer,
      });
    }
    entries.set(normalized, { key, override, file, pointer });
  }
  return { kind: "map", file, map: { file, entries }, text };
}

/**
 * Finds the overrides of one operation: path item `x-mcp`, operation `x-mcp`, then the map's
 * entry by operationId and by route (both may exist; the route's wins). Malformed `x-mcp`
 * fields are reported and left out. Map keys used are added to `used`.
 */
export function collectOverrides(input: {
  pathItem: Record<string, unknown>;
  operation: Record<string, unknown>;
  pathPointer: string;
  pointer: string;
  method: HttpMethod;
  path: string;
  source: string;
  map: OverrideMap | undefined;
  used: Set<string>;
  diagnostics: Diagnostic[];
}): {
  override: McpOverride;
  nameAt?: { file: string; pointer: string };
  hiddenAt?: { file: string; pointer: string };
  /** The hints the override file (the operator) sets, which the spec's x-mcp cannot outvote. */
  operatorHints: Partial<AnnotationHints>;
} {
  const located: LocatedOverride[] = [];
  for (const [owner, at] of [
    [input.pathItem, `${input.pathPointer}/x-mcp`],
    [input.operation, `${input.pointer}/x-mcp`],
  ] as const) {
    if (!("x-mcp" in owner)) continue;
    const { override, problems } = parseMcpOverride(owner["x-mcp"], at);
    for (const problem of problems) {
      input.diagnostics.push(
        createDiagnostic("OMB_XMCP_INVALID", `x-mcp: ${problem.message}; the field is ignored`, {
          file: input.source,
          pointer: problem.pointer,
        }),
      );
    }
    located.push({ override, file: input.source, pointer: at });
  }
  const fromSpec = located.length;
  if (input.map) {
    const operationId = typeof input.operation.operationId === "string" ? input.operation.operationId : "";
    for (const key of [operationId, routeKey(input.method, input.path)]) {
      const entry = key === "" ? undefined : input.map.entries.get(key);
      if (!entry) continue;
      input.used.add(key);
      located.push(entry);
    }
  }
  const override = mergeOverrides(...located.map((l) => l.override));
  const operatorHints: Partial<AnnotationHints> = {};
  for (const entry of located.slice(fromSpec)) {
    for (const hint of HINTS) {
      const value = entry.override.annotations?.[hint];
      if (value !== undefined) operatorHints[hint] = value;
    }
  }
  const last = (field: keyof McpOverride) => {
    const from = [...located].reverse().find((l) => l.override[field] !== undefined);
    return from ? { file: from.file, pointer: `${from.pointer}/${field}` } : undefined;
  };
  const nameAt = last("name");
  const hiddenAt = last("hidden");
  return {
    override,
    ...(nameAt ? { nameAt } : {}),
    ...(hiddenAt ? { hiddenAt } : {}),
    operatorHints,
  };
}

/**
 * Hints that would make a write look safer than its method, and so defeat the operator's
 * `--destructive refuse|confirm` or a client's auto-approval of read-only tools: the spec's
 * `x-mcp` cannot mark PUT, PATCH or DELETE read-only or non-destructive; the operator's
 * override file may mark a PUT or PATCH non-destructive (their call), but nothing makes a DELETE
 * non-destructive or any of the three read-only. Returns the hints to keep and what was undone.
 */
export function limitAnnotationHints(
  method: HttpMethod,
  hints: AnnotationHints,
  derived: AnnotationHints,
  operatorHints: Partial<AnnotationHints>,
): { hints: AnnotationHints; undone: string[] } {
  if (method !== "put" && method !== "patch" && method !== "delete") return { hints, undone: [] };
  const result = { ...hints };
  const undone: string[] = [];
  if (result.readOnlyHint) {
    result.readOnlyHint = false;
    undone.push("readOnlyHint: true");
  }
  const operatorSaysSafe = operatorHints.destructiveHint === false && method !== "delete";
  if (!result.destructiveHint && derived.destructiveHint && !operatorSaysSafe) {
    result.destructiveHint = true;
    undone.push("destructiveHint: false");
  }
  return { hints: result, undone };
}

/** Map keys that matched no operation: a likely typo, never silently ignored. */
export function reportUnusedOverrides(map: OverrideMap, used: Set<string>, diagnostics: Diagnostic[]): void {
  for (const [normalized, entry] of map.entries) {
    if (used.has(normalized)) continue;
    diagnostics.push(
      createDiagnostic(
        "OMB_OVERRIDE_UNMATCHED",
        `override "${entry.key}" matches no operation (neither an operationId nor METHOD /path of the spec)`,
        {
          file: map.file,
          pointer: entry.pointer,
          hint: 'key entries by operationId or by method and path template, e.g. "GET /pets/{petId}"',
        },
      ),
    );
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `"${value.slice(0, 40)}"`;
  return typeof value;
}
