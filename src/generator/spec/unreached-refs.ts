/**
 * Which `$ref`s an operation can reach: from `paths` (and the rest of the document outside
 * `components`, Swagger 2.0's `definitions`, `parameters` and `responses`, and `x-` extensions),
 * following local refs to what they point at. A ref nothing reaches (in a vendor extension, in
 * an unused component) cannot change a tool; when it cannot be resolved, the lenient loader
 * leaves it out with a warning instead of refusing the spec (load-spec.ts). The limits on what a
 * ref may read are not touched: a ref left out is never read, and a reached one is resolved (or
 * refused) exactly as before.
 */
import { access } from "node:fs/promises";
import { createDiagnostic } from "../../model/diagnostics.js";
import { escapePointerToken, splitPointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { Diagnostic } from "../../model/types.js";
import { locateInRoots } from "./read-limits.js";
import { type RefContext, type RefSite, resolveRef } from "./ref-sites.js";

/** Root keys that hold reusable parts, reached only through refs (security schemes by name). */
const REUSABLE_ROOT_KEYS = new Set(["components", "definitions", "parameters", "responses"]);
/** Keys whose values are data (examples, defaults): a `$ref` inside is not a reference. */
const DATA_KEYS = new Set(["example", "default", "const", "enum", "value"]);

/**
 * The pointers of every object an operation can reach (each object holding a ref among them).
 * A local ref whose target lies beyond a ref (into an external document not yet bundled)
 * reaches the objects on its way that hold refs.
 */
export function collectReachedPointers(doc: unknown): Set<string> {
  const reached = new Set<string>();
  if (!isRecord(doc)) return reached;

  const followRef = (ref: string): void => {
    if (ref !== "#" && !ref.startsWith("#/")) return;
    let tokens: string[];
    try {
      tokens = splitPointer(ref);
    } catch {
      return;
    }
    let node: unknown = doc;
    let pointer = "";
    for (const token of tokens) {
      if (isRecord(node) && typeof node.$ref === "string") {
        // The rest of the path is inside what that ref names: it is reached as a whole.
        visit(node, pointer, undefined);
        return;
      }
      node = Array.isArray(node) ? node[Number(token)] : isRecord(node) ? node[token] : undefined;
      pointer += `/${escapePointerToken(token)}`;
      if (node === undefined) return;
    }
    visit(node, pointer, tokens.at(-2));
  };

  // Iterative: a deep document must not exhaust the stack (its depth is capped at parse time,
  // but a chain of refs adds up).
  const pending: { node: unknown; pointer: string; parentKey: string | undefined }[] = [];
  const visit = (node: unknown, pointer: string, parentKey: string | undefined) => {
    pending.push({ node, pointer, parentKey });
  };
  const drain = () => {
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { node, pointer, parentKey } = next;
      if (node === null || typeof node !== "object" || reached.has(pointer)) continue;
      reached.add(pointer);
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) visit(node[i], `${pointer}/${i}`, undefined);
        continue;
      }
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const child = record[key];
        if (key === "$ref" && typeof child === "string") {
          followRef(child);
          continue;
        }
        // Path items' extensions are extensions; other maps' keys are names (a property "x-id").
        const isName = parentKey !== undefined && parentKey !== "paths" && isNameMapKey(parentKey);
        if (!isName && (DATA_KEYS.has(key) || key.startsWith("x-"))) continue;
        visit(child, `${pointer}/${escapePointerToken(key)}`, key);
      }
    }
  };

  reached.add("");
  for (const key of Object.keys(doc)) {
    if (REUSABLE_ROOT_KEYS.has(key) || key.startsWith("x-")) continue;
    visit(doc[key], `/${escapePointerToken(key)}`, key);
  }
  // Security schemes are named by requirements, never by refs.
  const components = doc.components;
  if (isRecord(components) && components.securitySchemes !== undefined) {
    visit(components.securitySchemes, "/components/securitySchemes", "securitySchemes");
  }
  drain();
  return reached;
}

/** The refs of `sites` that no operation reaches. */
export function listUnreachedSites(sites: readonly RefSite[], reached: ReadonlySet<string>): RefSite[] {
  return sites.filter((site) => !reached.has(site.pointer));
}

/**
 * Deletes each site's `$ref` from the object holding it (its other keys stay), and says so,
 * one warning per ref with the reason it could not be resolved.
 */
export function leaveRefsOut(
  doc: unknown,
  sites: readonly { site: RefSite; reason: string }[],
  file: string,
): Diagnostic[] {
  return sites.map(({ site, reason }) => {
    const holder = resolveHolder(doc, site.pointer);
    if (holder !== undefined && holder.$ref === site.ref) delete holder.$ref;
    return createDiagnostic(
      "OMB_REF_LEFT_UNRESOLVED",
      `$ref "${site.ref}" left unresolved (${reason}); no operation reaches it, so no tool changes`,
      { file, pointer: site.pointer },
    );
  });
}

function resolveHolder(doc: unknown, pointer: string): Record<string, unknown> | undefined {
  let node: unknown = doc;
  for (const token of splitPointer(pointer)) {
    node = Array.isArray(node) ? node[Number(token)] : isRecord(node) ? node[token] : undefined;
  }
  return isRecord(node) ? node : undefined;
}

/** Maps whose keys are names (of schemas, properties, responses...), not keywords. */
function isNameMapKey(key: string): boolean {
  return NAME_MAP_KEYS.has(key);
}

const NAME_MAP_KEYS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "headers",
  "examples",
  "requestBodies",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "webhooks",
  "content",
  "encoding",
  "variables",
]);

/**
 * The external refs of `sites` that would be refused or that name a missing file, each with
 * the reason; only the file's place is looked up (symlinks resolved), nothing is read.
 */
export async function findUnresolvableRefs(
  sites: readonly RefSite[],
  ctx: RefContext,
): Promise<{ site: RefSite; reason: string }[]> {
  const found: { site: RefSite; reason: string }[] = [];
  for (const site of sites) {
    const target = resolveRef(site.ref, ctx.rootLocation);
    if (target.kind === "other") found.push({ site, reason: "an unsupported scheme" });
    else if (target.kind === "http" && !ctx.allowNetwork)
      found.push({ site, reason: "network references are off" });
    else if (target.kind === "file" && !ctx.allowFile)
      found.push({ site, reason: "file references are off" });
    else if (target.kind === "file") {
      const place = await locateInRoots(target.location, ctx.refRoots);
      if (!place.inside)
        found.push({ site, reason: `it leads to ${place.real}, outside the folders refs may read` });
      else if (!(await isPresent(place.real))) found.push({ site, reason: `file not found: ${place.real}` });
    }
  }
  return found;
}

async function isPresent(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
