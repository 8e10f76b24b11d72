/**
 * Repeated subschemas of one tool's input schema become one `$defs` entry each: a spec often
 * inlines the same object several times (GitHub's ruleset rules each carry the same
 * `parameters`, Stripe repeats its merchant categories), and a model reads every copy on every
 * request. A `$ref` to an identical subschema validates exactly as the copy did.
 *
 * Only subschemas below the arguments move (an argument itself stays where clients and the
 * runtime read its description and type), and only where the copies cost more than the
 * references that replace them.
 */
import { isRecord } from "../../model/records.js";
import type { JsonSchema } from "../../model/types.js";
import { forEachSubschema } from "./json-schema.js";

/** Subschemas shorter than this (as JSON) cost about what a `$ref` to them does. */
const MIN_SHARED_CHARS = 120;
/** Rounds of hoisting: each round moves the largest repeated subschema left. */
const MAX_ROUNDS = 32;

interface Occurrence {
  parent: Record<string, unknown> | unknown[];
  key: string | number;
  /** The property name (or keyword) it was found under: the start of its `$defs` name. */
  label: string;
}

/**
 * `schema` with each repeated subschema moved to `$defs` once and referenced where it was;
 * `schema` itself when nothing repeats enough to pay. The input is never changed (its `$defs`
 * entries are shared with other tools).
 */
export function shareRepeatedSchemas(schema: JsonSchema): JsonSchema {
  if (JSON.stringify(schema).length < MIN_SHARED_CHARS * 3) return schema;
  let copy: JsonSchema | undefined;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const target: JsonSchema = copy ?? schema;
    const repeated = findLargestRepeat(target);
    if (repeated === undefined) break;
    if (copy === undefined) {
      copy = structuredClone(schema);
      continue; // find it again in the copy, which is the one changed
    }
    const defs = (isRecord(copy.$defs) ? copy.$defs : {}) as Record<string, JsonSchema>;
    const name = freeName(defs, repeated.occurrences[0]!.label);
    defs[name] = JSON.parse(repeated.text) as JsonSchema;
    for (const { parent, key } of repeated.occurrences) {
      (parent as Record<string | number, unknown>)[key] = { $ref: `#/$defs/${escapeToken(name)}` };
    }
    copy.$defs = defs;
  }
  return copy ?? schema;
}

/** The largest subschema that occurs more than once where sharing it saves characters. */
function findLargestRepeat(schema: JsonSchema): { text: string; occurrences: Occurrence[] } | undefined {
  const byText = new Map<string, Occurrence[]>();
  const visit = (node: Record<string, unknown>, label: string, atRoot: boolean) => {
    forEachSubschema(node, (child, parent, key, keyword) => {
      const childLabel = typeof key === "string" && keyword !== "$defs" ? key : label;
      // The root's arguments and definitions stay where they are; what is under them may move.
      if (!atRoot || (keyword !== "properties" && keyword !== "$defs")) {
        const text = JSON.stringify(child);
        if (text.length >= MIN_SHARED_CHARS) {
          const list = byText.get(text);
          if (list) list.push({ parent, key, label: childLabel });
          else byText.set(text, [{ parent, key, label: childLabel }]);
        }
      }
      visit(child, keyword === "$defs" && typeof key === "string" ? key : childLabel, false);
    });
  };
  visit(schema, "shared", true);
  let best: { text: string; occurrences: Occurrence[] } | undefined;
  for (const [text, occurrences] of byText) {
    if (occurrences.length < 2) continue;
    const reference = `{"$ref":"#/$defs/${occurrences[0]!.label}"}`.length + 4;
    const saved = (occurrences.length - 1) * text.length - occurrences.length * reference;
    if (saved <= 0) continue;
    if (best === undefined || text.length > best.text.length) best = { text, occurrences };
  }
  return best;
}

function freeName(defs: Record<string, unknown>, label: string): string {
  const base = /^[A-Za-z0-9_.-]{1,40}$/.test(label) ? label : "shared";
  if (!Object.hasOwn(defs, base)) return base;
  for (let n = 2; ; n++) if (!Object.hasOwn(defs, `${base}-${n}`)) return `${base}-${n}`;
}

function escapeToken(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}
