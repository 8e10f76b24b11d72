/**
 * The `$ref`s of a document: where each one is (a JSON pointer), what it resolves to, which the
 * options refuse (network, file), and local ones that point to nothing; each a located diagnostic.
 */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { BridgeError, createDiagnostic } from "../../model/diagnostics.js";
import { escapePointerToken, resolvePointer } from "../../model/pointer.js";
import type { Diagnostic } from "../../model/types.js";
import type { ReadBudget } from "./read-limits.js";
import { isHttpUrl } from "./read-source.js";
import { capDiagnostics } from "./spec-errors.js";

export interface RefSite {
  ref: string;
  /** Pointer of the object holding `$ref`. */
  pointer: string;
}

export interface RefContext {
  allowNetwork: boolean;
  allowFile: boolean;
  /** Folders (symlinks resolved) file refs may read from: the spec's own, then the operator's. */
  refRoots: string[];
  /** The byte caps of this load, and what was read so far. */
  budget: ReadBudget;
  timeoutMs: number;
  rootLocation: string;
  rootDisplay: string;
  root: unknown;
  /**
   * The root's refs as written (before any rewriting; local ones included), for naming where a
   * failed ref is.
   */
  rootSites: RefSite[];
  /** External documents parsed so far, by location (absolute path or URL without hash). */
  loaded: Map<string, LoadedRefDocument>;
  /** Diagnostics recorded by the resolvers and parser: their errors reach us wrapped. */
  failures: Diagnostic[];
}

/** An external document as parsed, with its refs as written (bundling rewrites them later). */
export interface LoadedRefDocument {
  value: unknown;
  sites: RefSite[];
}

/** Keys whose values are maps of names; their children are never data keywords. */
export const REF_NAME_MAPS = new Set([
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
  "paths",
  "webhooks",
  "content",
  "encoding",
  "variables",
]);

/** Keywords whose values are data (examples, defaults), where a `$ref` key is not a reference. */
export const REF_DATA_KEYS = new Set(["example", "default", "const", "enum", "value"]);

/** Every `$ref` string in a document, with the pointer of the object holding it. */
export function collectRefs(root: unknown): RefSite[] {
  const sites: RefSite[] = [];
  const tokens: string[] = [];
  walkRefs(root, tokens, (ref) => sites.push({ ref, pointer: fastPointer(tokens) }));
  return sites;
}

/**
 * Every distinct `$ref` string in a document: collectRefs without the cost of the pointers.
 * (document-scan.ts walks a parsed document the same way, beside its other checks.)
 */
export function collectRefStrings(root: unknown): Set<string> {
  const refs = new Set<string>();
  walkRefs(root, undefined, (ref) => refs.add(ref));
  return refs;
}

/** Calls `onRef` for each `$ref`; `tokens`, when given, holds the path to its object meanwhile. */
function walkRefs(root: unknown, tokens: string[] | undefined, onRef: (ref: string) => void): void {
  const visit = (node: unknown, parentKey: string | undefined): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child = node[i];
        if (child !== null && typeof child === "object") {
          tokens?.push(String(i));
          visit(child, undefined);
          tokens?.pop();
        }
      }
      return;
    }
    const record = node as Record<string, unknown>;
    const isNameMap = parentKey !== undefined && REF_NAME_MAPS.has(parentKey);
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (key === "$ref" && typeof child === "string") {
        onRef(child);
      } else if (child !== null && typeof child === "object" && (isNameMap || !REF_DATA_KEYS.has(key))) {
        tokens?.push(key);
        visit(child, key);
        tokens?.pop();
      }
    }
  };
  if (root !== null && typeof root === "object") visit(root, undefined);
}

/** joinPointer, without the replaceAll calls for the (usual) tokens that need no escaping. */
function fastPointer(tokens: string[]): string {
  let pointer = "";
  for (const token of tokens) {
    pointer += `/${token.includes("~") || token.includes("/") ? escapePointerToken(token) : token}`;
  }
  return pointer;
}

interface ResolvedRef {
  kind: "file" | "http" | "other";
  /** Absolute file path or URL, without the fragment. */
  location: string;
}

export function resolveRef(ref: string, base: string): ResolvedRef {
  try {
    const url = new URL(ref, isHttpUrl(base) ? base : pathToFileURL(base));
    url.hash = "";
    if (url.protocol === "file:") return { kind: "file", location: fileURLToPath(url) };
    if (url.protocol === "http:" || url.protocol === "https:") return { kind: "http", location: url.href };
    return { kind: "other", location: url.href };
  } catch {
    return { kind: "other", location: ref };
  }
}

export function displayLocation(location: string, ctx: RefContext): string {
  if (location === ctx.rootLocation) return ctx.rootDisplay;
  if (isHttpUrl(location)) return location;
  const relative = path.relative(process.cwd(), location);
  return relative.startsWith("..") || path.isAbsolute(relative) ? location : relative;
}

export function networkRefDiagnostic(site: RefSite, file: string, target: string): Diagnostic {
  return createDiagnostic("OMB_REF_NETWORK", `network $ref "${site.ref}" refused (resolves to ${target})`, {
    file,
    pointer: site.pointer,
    hint: "network references are off by default; pass --allow-network-refs (allowNetworkRefs: true) to fetch them",
  });
}

export function fileRefDiagnostic(site: RefSite, file: string, ctx: RefContext): Diagnostic {
  const why = isHttpUrl(ctx.rootLocation)
    ? "a spec fetched from a URL may not read local files"
    : "file references are disabled (allowFileRefs: false)";
  return createDiagnostic("OMB_REF_FILE", `file $ref "${site.ref}" refused: ${why}`, {
    file,
    pointer: site.pointer,
  });
}

export function outsideRootDiagnostic(
  site: RefSite,
  file: string,
  real: string,
  ctx: RefContext,
): Diagnostic {
  const [own, ...extra] = ctx.refRoots;
  const where =
    extra.length === 0 ? `the spec's folder ${own}` : `the spec's folder ${own} and ${extra.join(", ")}`;
  return createDiagnostic(
    "OMB_REF_OUTSIDE_ROOT",
    `file $ref "${site.ref}" refused: it leads to ${real}, outside ${where}`,
    {
      file,
      pointer: site.pointer,
      hint: "a spec may only read files in its own folder tree; to allow another folder, name it with --ref-root DIR (refRoots)",
    },
  );
}

/** Refuses, all at once, the root document's refs that the options forbid. */
export function refuseForbiddenRefs(sites: RefSite[], ctx: RefContext): void {
  const problems: Diagnostic[] = [];
  for (const site of sites) {
    const target = resolveRef(site.ref, ctx.rootLocation);
    if (target.kind === "http" && !ctx.allowNetwork) {
      problems.push(networkRefDiagnostic(site, ctx.rootDisplay, target.location));
    } else if (target.kind === "file" && !ctx.allowFile) {
      problems.push(fileRefDiagnostic(site, ctx.rootDisplay, ctx));
    } else if (target.kind === "other") {
      problems.push(
        createDiagnostic("OMB_REF_UNRESOLVED", `$ref "${site.ref}" uses an unsupported scheme`, {
          file: ctx.rootDisplay,
          pointer: site.pointer,
        }),
      );
    }
  }
  if (problems.length > 0) throw new BridgeError(capDiagnostics(problems));
}

/** Where (in the root or an already loaded external file) a failed location is referenced. */
export function findReferrers(location: string, ctx: RefContext): { file: string; site: RefSite }[] {
  // A local ref never names a file: only external ones can be what failed to be read.
  return listReferrers(ctx, (site, target) => !site.ref.startsWith("#") && target === location);
}

/**
 * Where (in the root or a loaded external file) a ref to `hash` in the document at `location`
 * is written, local refs of that document included.
 */
export function findPointerReferrers(
  location: string,
  hash: string,
  ctx: RefContext,
): { file: string; location: string; site: RefSite }[] {
  const wanted = normaliseHash(hash);
  return listReferrers(
    ctx,
    (site, target) => target === location && normaliseHash(hashOf(site.ref)) === wanted,
  );
}

function listReferrers(
  ctx: RefContext,
  matches: (site: RefSite, target: string) => boolean,
): { file: string; location: string; site: RefSite }[] {
  const found: { file: string; location: string; site: RefSite }[] = [];
  const documents: [string, RefSite[]][] = [
    [ctx.rootLocation, ctx.rootSites],
    ...[...ctx.loaded].map(([location, loaded]): [string, RefSite[]] => [location, loaded.sites]),
  ];
  for (const [docLocation, sites] of documents) {
    for (const site of sites) {
      if (matches(site, resolveRef(site.ref, docLocation).location)) {
        found.push({ file: displayLocation(docLocation, ctx), location: docLocation, site });
      }
    }
  }
  return found;
}

/** The fragment of a ref, `#` included (`#` alone when it has none). */
export function hashOf(ref: string): string {
  const at = ref.indexOf("#");
  return at < 0 ? "#" : ref.slice(at);
}

/** A fragment compared as the ref parser reads it: URI-decoded. */
function normaliseHash(hash: string): string {
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash;
  }
}

/** Records one failure per place the location is referenced from, then returns an Error to throw. */
export function recordRefFailure(
  ctx: RefContext,
  location: string,
  make: (site: RefSite, file: string) => Diagnostic,
): Error {
  const referrers = findReferrers(location, ctx);
  if (referrers.length === 0) {
    ctx.failures.push(make({ ref: location, pointer: "" }, displayLocation(location, ctx)));
  }
  for (const { file, site } of referrers) ctx.failures.push(make(site, file));
  return new Error(`refused ${location}`);
}

export function locationOfFileUrl(url: string): string {
  if (/^file:/i.test(url)) return fileURLToPath(url);
  try {
    return path.resolve(decodeURIComponent(url));
  } catch {
    return path.resolve(url);
  }
}

export function locationOfRefTarget(target: string): string {
  return isHttpUrl(target) ? target : locationOfFileUrl(target);
}

/**
 * Every local `#/...` ref must point at something: checked here so the planner can trust them.
 * Each distinct ref is resolved once; only when some fail are the pointers of the places that
 * hold them computed (a second walk), for the messages.
 */
export function checkInternalRefs(doc: unknown, refs: Iterable<string>, file: string): void {
  const broken = findBrokenInternalRefs(doc, refs);
  if (broken.size === 0) return;
  const problems = collectRefs(doc)
    .filter((site) => broken.has(site.ref))
    .map((site) =>
      createDiagnostic("OMB_REF_UNRESOLVED", `$ref "${site.ref}" points to nothing in this document`, {
        file,
        pointer: site.pointer,
      }),
    );
  throw new BridgeError(capDiagnostics(problems));
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The local `#/...` refs of `refs` that point at nothing in `doc`. */
export function findBrokenInternalRefs(doc: unknown, refs: Iterable<string>): Set<string> {
  const broken = new Set<string>();
  for (const ref of refs) {
    if (ref !== "#" && !ref.startsWith("#/")) continue;
    if (resolvePointer(doc, ref) === undefined) broken.add(ref);
  }
  return broken;
}
