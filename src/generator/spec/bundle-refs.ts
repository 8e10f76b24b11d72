/**
 * External `$ref`s bundled into the document with json-schema-ref-parser (never dereferenced):
 * each externally referenced schema gets a component of its own first, so the planner can name
 * it. The ref parser only bundles: reading goes through this module's resolvers (the read
 * limits, the roots, the network policy) and parsing through the spec parser.
 */
import type { ParserOptions } from "@apidevtools/json-schema-ref-parser";
import { isDiagnosticCode } from "../../model/diagnostic-codes.js";
import { BridgeError, createDiagnostic } from "../../model/diagnostics.js";
import { joinPointer, resolvePointer, splitPointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { Diagnostic, SpecVersion } from "../../model/types.js";
import { parseSpecText } from "./parse-text.js";
import { locateInRoots, ReadRefusal, readFileWithin } from "./read-limits.js";
import { fetchText, isHttpUrl, type SourceText, TOO_LARGE_HINT } from "./read-source.js";
import {
  displayLocation,
  fileRefDiagnostic,
  findReferrers,
  locationOfFileUrl,
  locationOfRefTarget,
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
        ctx.loaded.set(location, value);
        return value;
      } catch (error) {
        if (error instanceof BridgeError) ctx.failures.push(...error.diagnostics);
        throw error;
      }
    },
  };

  try {
    const options = {
      parse: { json: false, yaml: false, text: false, binary: false, spec: specParser },
      resolve: { external: true, file: fileResolver, http: httpResolver },
      dereference: { circular: true },
      mutateInputSchema: true,
    } satisfies ParserOptions;
    // The ref parser is loaded only for specs with external refs: most specs are one file.
    const { $RefParser } = await import("@apidevtools/json-schema-ref-parser");
    return (await $RefParser.bundle(input.location, doc, options)) as Record<string, unknown>;
  } catch (error) {
    if (ctx.failures.length > 0) throw new BridgeError(capDiagnostics(dedupe(ctx.failures)));
    throw new BridgeError([refErrorDiagnostic(error, ctx)]);
  }
}

/** Maps a json-schema-ref-parser error that no resolver recorded (e.g. a missing pointer). */
function refErrorDiagnostic(error: unknown, ctx: RefContext): Diagnostic {
  const e = error as { name?: string; message?: string; targetRef?: string; source?: string };
  const message = shortMessage(error);
  if (e.name === "MissingPointerError" || /Missing \$ref pointer/.test(message)) {
    const target = e.targetRef ?? /"([^"]+)"/.exec(message)?.[1] ?? "";
    const hash = target.includes("#") ? target.slice(target.indexOf("#")) : "";
    const location = target.replace(/#.*$/, "");
    const resolved = location === "" ? ctx.rootLocation : locationOfRefTarget(location);
    const referrer = findReferrers(resolved, ctx).find((r) => hash === "" || r.site.ref.endsWith(hash));
    return createDiagnostic(
      "OMB_REF_UNRESOLVED",
      `$ref "${referrer?.site.ref ?? target}": pointer ${hash || "#"} does not exist in ${displayLocation(resolved, ctx)}`,
      referrer ? { file: referrer.file, pointer: referrer.site.pointer } : { file: ctx.rootDisplay },
    );
  }
  return createDiagnostic("OMB_REF_UNRESOLVED", `cannot resolve $refs: ${message}`, {
    file: ctx.rootDisplay,
  });
}
