/**
 * The result half of the diff: compares two output outlines (generator/compile/output-schema:
 * types and field names, null always allowed, no refs). The direction is the reverse of the
 * input's: a client reads results, so a field that is gone or holds another type breaks it,
 * and a new field or fewer types do not.
 */
import { escapePointerToken } from "../model/pointer.js";
import { isRecord } from "../model/records.js";
import { joinPath } from "../runtime/arguments/schema-context.js";
import type { SchemaFinding } from "./schema-diff.js";
import { typesWithin } from "./schema-diff.js";

/** Every difference between two outlines (pointers without the `/outputSchema` prefix). */
export function diffOutlines(oldOutline: unknown, newOutline: unknown): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  compareOutline(findings, oldOutline, newOutline, "", "");
  return findings;
}

function readOutlineTypes(node: unknown): Set<string> | undefined {
  if (!isRecord(node)) return undefined;
  if (typeof node.type === "string") return new Set([node.type]);
  if (Array.isArray(node.type)) return new Set(node.type.filter((t): t is string => typeof t === "string"));
  return undefined;
}

function showTypes(types: Set<string> | undefined): string {
  return types === undefined
    ? "a value"
    : [...types]
        .filter((t) => t !== "null")
        .sort()
        .join(" | ") || "null";
}

function labelField(path: string): string {
  return path === "" ? "the result" : `result field \`${path}\``;
}

function compareOutline(
  findings: SchemaFinding[],
  before: unknown,
  after: unknown,
  path: string,
  pointer: string,
): void {
  const oldTypes = readOutlineTypes(before);
  const newTypes = readOutlineTypes(after);
  const sameTypes =
    (oldTypes === undefined && newTypes === undefined) ||
    (oldTypes !== undefined &&
      newTypes !== undefined &&
      typesWithin(oldTypes, newTypes) &&
      typesWithin(newTypes, oldTypes));
  if (!sameTypes) {
    const change = `${showTypes(oldTypes)} → ${showTypes(newTypes)}`;
    if (oldTypes !== undefined && newTypes !== undefined && typesWithin(newTypes, oldTypes)) {
      findings.push({
        code: "result-field-narrowed",
        pointer: `${pointer}/type`,
        message: `${labelField(path)} has fewer types: ${change}`,
      });
    } else {
      findings.push({
        code: "result-field-retyped",
        pointer: `${pointer}/type`,
        message: `${labelField(path)} changed type: ${change}`,
      });
      return;
    }
  }
  const oldProps = isRecord(before) && isRecord(before.properties) ? before.properties : {};
  const newProps = isRecord(after) && isRecord(after.properties) ? after.properties : {};
  for (const key of Object.keys(oldProps)) {
    if (Object.hasOwn(newProps, key)) continue;
    findings.push({
      code: "result-field-removed",
      pointer: `${pointer}/properties/${escapePointerToken(key)}`,
      message: `${labelField(joinPath(path, key))} was removed`,
    });
  }
  for (const key of Object.keys(newProps)) {
    const at = `${pointer}/properties/${escapePointerToken(key)}`;
    if (!Object.hasOwn(oldProps, key)) {
      findings.push({
        code: "result-field-added",
        pointer: at,
        message: `new ${labelField(joinPath(path, key))}`,
      });
      continue;
    }
    compareOutline(findings, oldProps[key], newProps[key], joinPath(path, key), at);
  }
  const oldItems = isRecord(before) ? before.items : undefined;
  const newItems = isRecord(after) ? after.items : undefined;
  if (oldItems !== undefined && newItems !== undefined) {
    compareOutline(findings, oldItems, newItems, `${path}[]`, `${pointer}/items`);
  }
}
