/**
 * OpenAPI Overlay 1.0.0 (https://spec.openapis.org/overlay/v1.0.0): a list of actions, each
 * selecting nodes of the spec document with an RFC 9535 JSONPath `target` and either merging
 * `update` into them or removing them. Applied in order to the loaded document (a Swagger 2.0
 * spec after its conversion to OpenAPI 3) before planning, so an overlay can add `x-mcp`,
 * rewrite descriptions or drop operations.
 *
 * Merging (Overlay 1.0 §4.4.3): the properties of `update` replace those of an object target
 * with the same name, objects are merged recursively, new properties are added; for an array
 * target, `update` is appended. A target that selects nothing is a warning.
 */
import { createRequire } from "node:module";
import type * as JsonPath from "jsonpath-rfc9535";
import type { JsonValue } from "jsonpath-rfc9535";
import { createDiagnostic, failWith } from "../../model/diagnostics.js";
import { isRecord } from "../../model/records.js";
import type { Diagnostic } from "../../model/types.js";

/**
 * The JSONPath engine (41 ES modules) is required only when an Overlay is used: every other run
 * from a spec would otherwise load it for nothing (its CommonJS build, the same code).
 */
const requireHere = createRequire(import.meta.url);
let jsonPath: typeof JsonPath | undefined;
function loadJsonPath(): typeof JsonPath {
  jsonPath ??= requireHere("jsonpath-rfc9535") as typeof JsonPath;
  return jsonPath;
}

export interface OverlayAction {
  target: string;
  description?: string;
  update?: unknown;
  remove?: boolean;
}

export interface OverlayDocument {
  overlay: string;
  info: { title: string; version: string };
  actions: OverlayAction[];
}

/** Checks an Overlay document's shape and every target's JSONPath syntax. */
export function parseOverlay(value: Record<string, unknown>, file: string): OverlayDocument {
  const fail = (pointer: string, message: string): never =>
    failWith("OMB_OVERLAY_INVALID", message, {
      file,
      pointer,
      hint: "an Overlay 1.0 document is { overlay: 1.0.0, info: { title, version }, actions: [{ target, update | remove }] }",
    });
  if (typeof value.overlay !== "string" || !/^1\.0\.\d+$/.test(value.overlay)) {
    fail("/overlay", `overlay must be the version string "1.0.0", got ${JSON.stringify(value.overlay)}`);
  }
  const info = value.info;
  if (!isRecord(info) || typeof info.title !== "string" || typeof info.version !== "string") {
    fail("/info", "info must be an object with a string title and version");
  }
  if (!Array.isArray(value.actions) || value.actions.length === 0) {
    fail("/actions", "actions must be a non-empty array");
  }
  const actions: OverlayAction[] = [];
  for (const [index, raw] of (value.actions as unknown[]).entries()) {
    const at = `/actions/${index}`;
    if (!isRecord(raw)) fail(at, "an action must be an object");
    const entry = raw as Record<string, unknown>;
    if (typeof entry.target !== "string" || entry.target === "") {
      fail(`${at}/target`, "target must be a JSONPath expression");
    }
    const target = entry.target as string;
    try {
      loadJsonPath().query({}, target);
    } catch (error) {
      fail(`${at}/target`, `target "${target}" is not a JSONPath (RFC 9535): ${(error as Error).message}`);
    }
    if (entry.remove !== undefined && typeof entry.remove !== "boolean") {
      fail(`${at}/remove`, "remove must be true or false");
    }
    if (entry.remove !== true && entry.update === undefined) {
      fail(at, "an action needs update or remove: true");
    }
    const action: OverlayAction = { target };
    if (typeof entry.description === "string") action.description = entry.description;
    if (entry.update !== undefined) action.update = entry.update;
    if (entry.remove === true) action.remove = true;
    actions.push(action);
  }
  return {
    overlay: value.overlay as string,
    info: { title: (info as { title: string }).title, version: (info as { version: string }).version },
    actions,
  };
}

/**
 * Applies the actions in order to a copy of the document and returns the copy; targets that
 * select nothing (or that an update cannot apply to) are warnings naming the action.
 */
export function applyOverlay(
  document: Record<string, unknown>,
  overlay: OverlayDocument,
  file: string,
  diagnostics: Diagnostic[],
): Record<string, unknown> {
  const root = structuredClone(document);
  overlay.actions.forEach((action, index) => {
    const pointer = `/actions/${index}/target`;
    const matches: { value: unknown; path: (string | number)[] }[] = [];
    loadJsonPath().exec(root as JsonValue, action.target, (value, path) => {
      matches.push({ value, path: [...path] });
    });
    if (matches.length === 0) {
      diagnostics.push(
        createDiagnostic("OMB_OVERLAY_UNMATCHED", `overlay target "${action.target}" selects nothing`, {
          file,
          pointer,
          hint: "check the JSONPath against the spec (Swagger 2.0 specs are matched after conversion to OpenAPI 3)",
        }),
      );
      return;
    }
    if (action.remove) {
      // Later array items first, so earlier indices stay valid.
      const ordered = [...matches].sort((a, b) => compareForRemoval(a.path, b.path));
      for (const match of ordered) removeAt(root, match.path);
      return;
    }
    for (const match of matches) {
      if (Array.isArray(match.value)) match.value.push(structuredClone(action.update));
      else if (isRecord(match.value) && isRecord(action.update)) mergeInto(match.value, action.update);
      else {
        diagnostics.push(
          createDiagnostic(
            "OMB_OVERLAY_UNAPPLIED",
            `overlay target "${action.target}" selects a ${match.value === null ? "null" : typeof match.value} at ${formatPath(match.path)}; update needs an object (or an array to append to)`,
            { file, pointer },
          ),
        );
      }
    }
  });
  return root;
}

function mergeInto(target: Record<string, unknown>, update: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(update)) {
    if (key === "__proto__") continue;
    const existing = target[key];
    if (isRecord(existing) && isRecord(value)) mergeInto(existing, value);
    else target[key] = structuredClone(value);
  }
}

function removeAt(root: unknown, path: (string | number)[]): void {
  if (path.length === 0) return; // the document itself cannot be removed
  let parent: unknown = root;
  for (const token of path.slice(0, -1)) {
    if (parent === null || typeof parent !== "object") return;
    parent = (parent as Record<string | number, unknown>)[token];
  }
  const last = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1);
  else if (isRecord(parent) && typeof last === "string") delete parent[last];
}

/** Deeper paths first, then higher array indices first. */
function compareForRemoval(a: (string | number)[], b: (string | number)[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return y - x;
    return 0;
  }
  return b.length - a.length;
}

function formatPath(path: (string | number)[]): string {
  return `$${path.map((p) => (typeof p === "number" ? `[${p}]` : `['${p}']`)).join("")}`;
}
