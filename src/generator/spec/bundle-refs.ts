/**
 * External `$ref`s bundled into the document with json-schema-ref-parser (never dereferenced):
 * each externally referenced schema gets a component of its own first, so the planner can name
 * it. The ref parser only bundles: reading goes through this module's resolvers (the read
 * limits, the roots, the network policy) and parsing through the spec parser.
 */
import * as path from "node:path";
import type { ParserOptions } from "@apidevtools/json-schema-ref-parser";
import { isDiagnosticCode } from "../../model/diagnostic-codes.js";
import { BridgeError, createDiagnostic } from "../../model/diagnostics.js";
import { joinPointer, resolvePointer, splitPointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import { suggestNames } from "../../model/similarity.js";
import type { Diagnostic, SpecVersion } from "../../model/types.js";
import { parseSpecText } from "./parse-text.js";
import { locateInRoots, ReadRefusal, readFileWithin } from "./read-limits.js";
import { fetchText, isHttpUrl, type SourceText, TOO_LARGE_HINT } from "./read-source.js";
import {
  collectRefs,
  displayLocation,
  fileRefDiagnostic,
  findPointerReferrers,
  hashOf,
  locationOfFileUrl,
  networkRefDiagnostic,
  outsideRootDiagnostic,
  type RefContext,
  type RefSite,
  recordRefFailure,
  resolveRef,
} from "./ref-sites.js";
import { capDiagnostics, dedupe, errorCode, shortMessage } from "./spec-errors.js";

/**
 * Bundling inlines an external schema at the first place that references it, so the other
 * references point into `/paths/...` and the planner has no name for it. Give each externally
 * referenced schema a component of its own first (named after the ref's last pointer token or
 * the file name): `$ref: pet.yaml#/Pet` in a schema position becomes `#/components/schemas/Pet`
 * (`#/definitions/Pet` in 2.0), whose entry holds the external ref that bundling then inlines.
 * Mutates `doc`.
 */
export function nameExternalSchemas(
  doc: Record<string, unknown>,
  version: SpecVersion,
  sites: RefSite[],
  base: string,
): void {
  const containerPath = version === "2.0" ? ["definitions"] : ["components", "schemas"];
  const keyOf = (ref: string) => {
    const hash = ref.includes("#") ? ref.slice(ref.indexOf("#")) : "#";
    return `${resolveRef(ref, base).location}${hash}`;
  };
  const existing = resolvePointer(doc, joinPointer(...containerPath));
  const used = new Set(isRecord(existing) ? Object.keys(existing) : []);
  const names = new Map<string, string>();
  const componentPointer = (name: string) => joinPointer(...containerPath, name);
  // A component that is itself an external ref already names its target.
  for (const site of sites) {
    const tokens = splitPointer(site.pointer);
    if (tokens.length === containerPath.length + 1 && site.pointer === componentPointer(tokens.at(-1)!)) {
      if (!names.has(keyOf(site.ref))) names.set(keyOf(site.ref), tokens.at(-1)!);
    }
  }
  for (const site of sites) {
    const tokens = splitPointer(site.pointer);
    const inContainer = containerPath.every((t, i) => tokens[i] === t);
    if (inContainer && tokens.length === containerPath.length + 1) continue;
    if (!(inContainer || tokens.includes("schema"))) continue;
    const key = keyOf(site.ref);
    let name = names.get(key);
    if (name === undefined) {
      name = uniqueName(externalSchemaName(site.ref), used);
      names.set(key, name);
      let container: Record<string, unknown> = doc;
      for (const token of containerPath) {
        if (!isRecord(container[token])) container[token] = {};
        container = container[token] as Record<string, unknown>;
      }
      container[name] = { $ref: site.ref };
    }
    const node = resolvePointer(doc, site.pointer);
    if (isRecord(node)) node["$ref"] = `#${componentPointer(name)}`;
  }
}

function externalSchemaName(ref: string): string {
  const hash = ref.includes("#") ? ref.slice(ref.indexOf("#") + 1) : "";
  const tokens = hash === "" ? [] : splitPointer(`#${hash}`);
  let raw = tokens.at(-1) ?? "";
  if (raw === "" || /^\d+$/.test(raw)) {
    const file = ref.replace(/#.*$/, "").split(/[\\/]/).at(-1) ?? "";
    raw = file.replace(/\.(ya?ml|json)$/i, "");
  }
  return raw.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "") || "Schema";
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
  used.add(name);
  return name;
}

export async function bundleExternalRefs(
  doc: Record<string, unknown>,
  input: SourceText,
  ctx: RefContext,
): Promise<Record<string, unknown>> {
  const fileResolver = {
    order: 100,
    canRead: (file: { url: string }) => !isHttpUrl(file.url),
    read: async (file: { url: string }): Promise<Buffer> => {
      const location = locationOfFileUrl(file.url);
      if (!ctx.allowFile) {
        throw recordRefFailure(ctx, location, (site, from) => fileRefDiagnostic(site, from, ctx));
      }
      const place = await locateInRoots(location, ctx.refRoots);
      if (!place.inside) {
        throw recordRefFailure(ctx, location, (site, from) =>
          outsideRootDiagnostic(site, from, place.real, ctx),
        );
      }
      try {
        return await readFileWithin(location, ctx.budget, { regularOnly: true });
      } catch (error) {
        if (error instanceof ReadRefusal) {
          const tooLarge = error.reason === "too-large";
          throw recordRefFailure(ctx, location, (site, from) =>
            createDiagnostic(
              tooLarge ? "OMB_SPEC_TOO_LARGE" : "OMB_REF_NOT_FILE",
              `$ref "${site.ref}" refused: ${location}: ${error.message}`,
              {
                file: from,
                pointer: site.pointer,
                hint: tooLarge ? TOO_LARGE_HINT : "a $ref must name a spec document: a regular file",
              },
            ),
          );
        }
        const code = errorCode(error);
        const reason =
          code === "ENOENT" ? "file not found" : `cannot read it (${code ?? shortMessage(error)})`;
        throw recordRefFailure(ctx, location, (site, from) =>
          createDiagnostic("OMB_REF_UNRESOLVED", `$ref "${site.ref}": ${reason}: ${location}`, {
            file: from,
            pointer: site.pointer,
            ...(code === "ENOENT" ? { hint: RELATIVE_REF_HINT } : {}),
          }),
        );
      }
    },
  };
  const httpResolver = {
    order: 200,
    canRead: (file: { url: string }) => isHttpUrl(file.url),
    read: async (file: { url: string }): Promise<string> => {
      const location = file.url.replace(/#.*$/, "");
      if (!ctx.allowNetwork) {
        throw recordRefFailure(ctx, location, (site, from) => networkRefDiagnostic(site, from, location));
      }
      try {
        const fetched = await fetchText(location, {
          timeoutMs: ctx.timeoutMs,
          code: "OMB_REF_UNRESOLVED",
          file: location,
          budget: ctx.budget,
          redirects: "same-host",
        });
        return fetched.text;
      } catch (error) {
        const first = error instanceof BridgeError ? error.diagnostics[0] : undefined;
        const reason = first ? first.message : shortMessage(error);
        throw recordRefFailure(ctx, location, (site, from) =>
          createDiagnostic(
            first && isDiagnosticCode(first.code) ? first.code : "OMB_REF_UNRESOLVED",
            `$ref "${site.ref}": ${reason}`,
            {
              file: from,
              pointer: site.pointer,
              ...(first?.hint !== undefined ? { hint: first.hint } : {}),
            },
          ),
        );
      }
    },
  };
  const specParser = {
    order: 1,
    allowEmpty: false,
    canParse: true,
    parse: (file: { url: string; data: string | Buffer }): unknown => {
      const location = isHttpUrl(file.url) ? file.url.replace(/#.*$/, "") : locationOfFileUrl(file.url);
      const text = typeof file.data === "string" ? file.data : file.data.toString("utf8");
      try {
        const value = parseSpecText(text, displayLocation(location, ctx));
        ctx.loaded.set(location, { value, sites: collectRefs(value) });
        return value;
      } catch (error) {
        if (error instanceof BridgeError) ctx.failures.push(...error.diagnostics);
        throw error;
      }
    },
  };

  const options = {
    parse: { json: false, yaml: false, text: false, binary: false, spec: specParser },
    resolve: { external: true, file: fileResolver, http: httpResolver },
    dereference: { circular: true },
    mutateInputSchema: true,
    // Every file is read (each through the resolvers above, within the same limits) and every
    // ref tried, so that one run names every broken ref, not only the first.
    continueOnError: true,
  } satisfies ParserOptions;
  // The ref parser is loaded only for specs with external refs: most specs are one file.
  const { $RefParser } = await import("@apidevtools/json-schema-ref-parser");
  let bundled: Record<string, unknown> | undefined;
  let failure: unknown;
  try {
    bundled = (await $RefParser.bundle(input.location, doc, options)) as Record<string, unknown>;
  } catch (error) {
    failure = error;
  }
  if (failure !== undefined && ctx.failures.length === 0 && onlyRootMisses(failure, ctx)) {
    // The bundle is done (in place: mutateInputSchema) but for refs of the root to nothing in
    // the root: the loader reports those, or leaves them out when nothing reaches them.
    return doc;
  }
  // A file that could not be read or parsed fails the load even when only a part of another
  // file that nothing uses names it (the ref parser then goes on without a word).
  const problems = [...ctx.failures, ...(failure === undefined ? [] : pointerProblems(failure, ctx))];
  if (problems.length > 0)
    throw new BridgeError(capDiagnostics(sortProblems(dedupe(problems), ctx), MAX_REF_PROBLEMS));
  if (failure !== undefined || bundled === undefined) {
    throw new BridgeError([refErrorDiagnostic(failure, ctx)]);
  }
  return bundled;
}

/** Broken refs are each a fix of their own (unlike schema problems, which cascade): more are listed. */
const MAX_REF_PROBLEMS = 50;

const RELATIVE_REF_HINT = "a relative $ref is read from the folder of the file that holds it";

/**
 * The refs to a pointer that does not exist, from the ref parser's errors: one diagnostic per
 * place such a ref is written (the file that holds it and its pointer there), naming the target.
 * The parser's own location of an error is where the ref ended up in the bundle, not where it is
 * written; the places are found again from the refs as each file was parsed.
 */
function pointerProblems(error: unknown, ctx: RefContext): Diagnostic[] {
  const errors = isErrorGroup(error) ? error.errors : [error];
  const problems: Diagnostic[] = [];
  for (const e of errors) {
    const missing = missingPointerOf(e);
    if (missing !== undefined) {
      problems.push(...missingPointerDiagnostics(missing.location, missing.hash, ctx));
      continue;
    }
    const invalid = invalidPointerOf(e);
    if (invalid !== undefined) problems.push(...invalidPointerDiagnostics(invalid, ctx));
    // Anything else was a read or a parse, recorded in ctx.failures by the resolvers and the parser.
  }
  return problems;
}

/** True when every error is a local ref of the root (and only of the root) to nothing. */
function onlyRootMisses(error: unknown, ctx: RefContext): boolean {
  if (!isErrorGroup(error) || error.errors.length === 0) return false;
  return error.errors.every((e) => {
    const missing = missingPointerOf(e);
    if (missing === undefined || missing.location !== ctx.rootLocation) return false;
    const referrers = findPointerReferrers(missing.location, missing.hash, ctx);
    return referrers.length > 0 && referrers.every((r) => r.location === ctx.rootLocation);
  });
}

function isErrorGroup(error: unknown): error is { errors: unknown[] } {
  return (
    error !== null &&
    typeof error === "object" &&
    (error as { name?: unknown }).name === "JSONParserErrorGroup" &&
    Array.isArray((error as { errors?: unknown }).errors)
  );
}

/** A MissingPointerError's document (its `source`) and the fragment it did not find. */
function missingPointerOf(error: unknown): { location: string; hash: string } | undefined {
  const e = error as { name?: unknown; message?: unknown; source?: unknown };
  if (e === null || typeof e !== "object" || e.name !== "MissingPointerError") return undefined;
  const hash = /Missing \$ref pointer "([^"]*)"/.exec(String(e.message))?.[1];
  if (hash === undefined || typeof e.source !== "string") return undefined;
  return { location: locationOfErrorSource(e.source), hash };
}

/** The parser's `source`: a URL, a file URL or an absolute path, already URI-decoded. */
function locationOfErrorSource(source: string): string {
  if (isHttpUrl(source)) return source;
  if (/^file:/i.test(source)) return locationOfFileUrl(source);
  return path.resolve(source);
}

/** An InvalidPointerError's fragment (without `#`): its location is the bundle's, not usable. */
function invalidPointerOf(error: unknown): string | undefined {
  const e = error as { name?: unknown; message?: unknown };
  if (e === null || typeof e !== "object" || e.name !== "InvalidPointerError") return undefined;
  return /Invalid \$ref pointer "([^"]*)"/.exec(String(e.message))?.[1];
}

function missingPointerDiagnostics(location: string, hash: string, ctx: RefContext): Diagnostic[] {
  const target = displayLocation(location, ctx);
  const hint = closestPointerHint(location, hash, ctx);
  const referrers = findPointerReferrers(location, hash, ctx);
  if (referrers.length === 0) {
    return [
      createDiagnostic("OMB_REF_UNRESOLVED", `pointer ${hash} does not exist in ${target}`, {
        file: target,
        ...(hint !== undefined ? { hint } : {}),
      }),
    ];
  }
  return referrers.map((referrer) =>
    createDiagnostic(
      "OMB_REF_UNRESOLVED",
      referrer.location === location
        ? `$ref "${referrer.site.ref}" points to nothing in this document`
        : `$ref "${referrer.site.ref}": pointer ${hash} does not exist in ${target}`,
      { file: referrer.file, pointer: referrer.site.pointer, ...(hint !== undefined ? { hint } : {}) },
    ),
  );
}

function invalidPointerDiagnostics(fragment: string, ctx: RefContext): Diagnostic[] {
  const message = (ref: string) =>
    `$ref "${ref}": the part after # must be a JSON pointer starting with "/" (#/${fragment})`;
  const documents: [string, RefSite[]][] = [
    [ctx.rootLocation, ctx.rootSites],
    ...[...ctx.loaded].map(([location, loaded]): [string, RefSite[]] => [location, loaded.sites]),
  ];
  const problems: Diagnostic[] = [];
  for (const [location, sites] of documents) {
    for (const site of sites) {
      if (hashOf(site.ref) !== `#${fragment}`) continue;
      problems.push(
        createDiagnostic("OMB_REF_UNRESOLVED", message(site.ref), {
          file: displayLocation(location, ctx),
          pointer: site.pointer,
        }),
      );
    }
  }
  if (problems.length > 0) return problems;
  return [createDiagnostic("OMB_REF_UNRESOLVED", message(`#${fragment}`), { file: ctx.rootDisplay })];
}

/**
 * "did you mean" for the first token of `hash` that the document lacks, among the names of the
 * object that would hold it (the pointer's way is followed as written: through no `$ref`).
 */
function closestPointerHint(location: string, hash: string, ctx: RefContext): string | undefined {
  const value = location === ctx.rootLocation ? ctx.root : ctx.loaded.get(location)?.value;
  let tokens: string[];
  try {
    tokens = splitPointer(hash);
  } catch {
    return undefined;
  }
  let node: unknown = value;
  for (const [i, token] of tokens.entries()) {
    if (!isRecord(node)) return undefined;
    if (Object.hasOwn(node, token)) {
      node = node[token];
      continue;
    }
    const near = suggestNames(token, Object.keys(node), 3);
    if (near.length === 0) return undefined;
    const pointers = near.map((name) => `#${joinPointer(...tokens.slice(0, i), name)}`);
    return `did you mean ${pointers.join(" or ")}?`;
  }
  return undefined;
}

/** The root's problems first, then each file's, each in the order of its places. */
function sortProblems(problems: Diagnostic[], ctx: RefContext): Diagnostic[] {
  const rank = (d: Diagnostic) => (d.file === ctx.rootDisplay ? 0 : 1);
  return problems
    .map((d, i) => ({ d, i }))
    .sort(
      (a, b) =>
        rank(a.d) - rank(b.d) ||
        (a.d.file ?? "").localeCompare(b.d.file ?? "") ||
        (a.d.pointer ?? "").localeCompare(b.d.pointer ?? "") ||
        a.i - b.i,
    )
    .map(({ d }) => d);
}

/** Maps a json-schema-ref-parser error that no resolver recorded and that names no ref. */
function refErrorDiagnostic(error: unknown, ctx: RefContext): Diagnostic {
  return createDiagnostic("OMB_REF_UNRESOLVED", `cannot resolve $refs: ${shortMessage(error)}`, {
    file: ctx.rootDisplay,
  });
}
