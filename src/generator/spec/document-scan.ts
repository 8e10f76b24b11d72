/**
 * One walk over a parsed document for what loading asks of every node before validation: the
 * depth limit, the distinct `$ref` strings (ref-sites.ts's collectRefStrings) and the slips a
 * lenient load repairs (repair-slips.ts). Each was a walk of its own over millions of nodes
 * (Microsoft Graph beta's 45 MB: about 0.15 s, 0.1 s and 0.15 s, each in a process whose code is
 * not yet optimised); the one walk visits each node once and answers as the three did.
 *
 * Each concern keeps its own reach: the `$ref`s are not looked for under data keywords (outside
 * name maps), the slips neither under data keywords nor extensions (and `examples`), the depth
 * everywhere. A subtree neither of the first two enters is only measured.
 *
 * Only for a document straight from the parser (a tree: no object in two places).
 */
import { isDeeperThan } from "../../model/json-depth.js";
import type { SpecVersion } from "../../model/types.js";
import { REF_DATA_KEYS, REF_NAME_MAPS } from "./ref-sites.js";
import { createSlipFinder, SLIP_DATA_KEYS, SLIP_NAME_MAPS, type SlipFinder } from "./repair-slips.js";

export type DocumentScan =
  /** Objects and arrays nest deeper than the limit somewhere: nothing else was looked at. */
  | { tooDeep: true }
  | {
      tooDeep: false;
      /** Every distinct `$ref` string, in the order collectRefStrings gives them. */
      refStrings: Set<string>;
      /** The slips found (none made yet), when asked for. */
      slips?: SlipFinder;
    };

export interface ScanOptions {
  /** The depth limit, as checkDepth takes it (the top-level value is level 1). */
  limit: number;
  /** Look for slips, of a document of this version (lenient loading). */
  slipsOf?: SpecVersion;
}

export function scanDocument(doc: unknown, options: ScanOptions): DocumentScan {
  const { limit } = options;
  const refStrings = new Set<string>();
  const tokens: (string | number)[] = [];
  const slips = options.slipsOf === undefined ? undefined : createSlipFinder(options.slipsOf, tokens);
  const findsSlips = slips !== undefined;

  /**
   * False when something at or below `node` (at `depth`, the top level 0) is deeper than the
   * limit. `refKey`/`slipKey`: the key `node` is under, as each concern's walk names it
   * (undefined in an array, and for the slips under a name map); `refs`/`slipsHere`: whether
   * that concern looks here at all.
   */
  const visit = (
    node: object,
    depth: number,
    refs: boolean,
    refKey: string | undefined,
    slipsHere: boolean,
    slipKey: string | undefined,
  ): boolean => {
    if (depth >= limit) return false;
    const below = depth + 1;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (child === null || typeof child !== "object") continue;
        tokens.push(i);
        const fits = visit(child, below, refs, undefined, slipsHere, undefined);
        tokens.pop();
        if (!fits) return false;
      }
      return true;
    }
    const holder = node as Record<string, unknown>;
    const refMap = refs && refKey !== undefined && REF_NAME_MAPS.has(refKey);
    const slipMap = slipsHere && slipKey !== undefined && SLIP_NAME_MAPS.has(slipKey);
    const slipKeywords = slipsHere && !slipMap;
    if (slipKeywords) slips!.checkDefault(holder);
    for (const key of Object.keys(holder)) {
      const child = holder[key];
      const slipsUnder = slipsHere && (slipMap || !(SLIP_DATA_KEYS.has(key) || key.startsWith("x-")));
      if (typeof child === "string") {
        if (refs && key === "$ref") refStrings.add(child);
        if (slipKeywords && slipsUnder) slips!.checkEntry(holder, key, child);
        continue;
      }
      if (child === null || typeof child !== "object") continue;
      const refsUnder = refs && (refMap || !REF_DATA_KEYS.has(key));
      let fits: boolean;
      if (refsUnder || slipsUnder) {
        tokens.push(key);
        fits = visit(child, below, refsUnder, key, slipsUnder, slipMap ? undefined : key);
        tokens.pop();
      } else {
        fits = !isDeeperThan(child, limit - below);
      }
      if (!fits) return false;
    }
    return true;
  };

  if (doc !== null && typeof doc === "object" && !visit(doc, 0, true, undefined, findsSlips, undefined)) {
    return { tooDeep: true };
  }
  return slips === undefined ? { tooDeep: false, refStrings } : { tooDeep: false, refStrings, slips };
}
