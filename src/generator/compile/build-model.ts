/** Spec source → BridgeModel in one call (load, validate, normalise, overlay, plan, profile). */
import { createDiagnostic } from "../../model/diagnostics.js";
import type { BridgeModel } from "../../model/types.js";
import { readOrBuildSearchIndex } from "../../runtime/discovery/search.js";
import { runInSlices, SLICE_MS } from "../../runtime/engine/run-in-slices.js";
import type { LoadOptions } from "../spec/load-spec.js";
import type { OpenApiDocument } from "../spec/openapi-document.js";
import type { FileBytes } from "../spec/read-limits.js";
import { hasPendingFields, settleFieldsSteps } from "./lazy-fields.js";
import { type DeferredCacheWrite, openModelCache } from "./model-cache.js";
import type { LoadedOverrides, OverridesInput } from "./overrides.js";
import type { PlanOptions } from "./plan-model.js";
import { applyProfile, DEFAULT_CLIENT_PROFILE, type ProfileOptions } from "./profile.js";

export type BuildOptions = LoadOptions &
  Omit<PlanOptions, "overrides"> &
  ProfileOptions & {
    /** Reuse the model planned at an earlier start for the same spec file (default true). */
    cache?: boolean;
    /**
     * An override file (JSON or YAML: an OpenAPI Overlay 1.0 document, or a map of operationId
     * or `METHOD /path` to `{ name, description, title, hidden, annotations }`), or such a
     * document as an object.
     */
    overrides?: OverridesInput;
    /** Told each step as it starts: `cache` (when there is one), then on a miss `load`, `plan`, `validate`. */
    onStep?: (step: string) => void;
    /**
     * On a cache miss, handed the cache's write instead of awaiting it: buildModel returns once
     * the model is planned, and the caller runs the write when it suits it (`serve`: once it
     * answers requests, as Graph beta's write is seconds of a cold start). The write makes its
     * file in slices that leave the event loop free, saves the search index with the model, and
     * writes the file whole or not at all.
     */
    deferCacheWrite?: (write: DeferredCacheWrite) => void;
  };

/**
 * Plans while a large spec is still being validated (in a worker thread), then waits for the
 * validation: an invalid spec fails here, before anything is served or generated.
 */
export async function buildModel(source: string, options: BuildOptions = {}): Promise<BridgeModel> {
  const overrides =
    options.overrides === undefined
      ? undefined
      : await (await import("./overrides.js")).loadOverrides(options.overrides);
  const cache =
    options.cache === false
      ? undefined
      : await openModelCache(source, {
          validate: options.validate !== false,
          // Only when set, so entries cached before --strict existed stay valid.
          ...(options.strict === true ? { strict: true } : {}),
          allowNetworkRefs: options.allowNetworkRefs === true,
          allowFileRefs: options.allowFileRefs !== false,
          descriptionBudget: options.descriptionBudget ?? null,
          argumentDescriptionBudget: options.argumentDescriptionBudget ?? null,
          outputSchemas: options.outputSchemas === true,
          ...(options.resultSchemas === true ? { resultSchemas: true } : {}),
          // Only when set, so entries cached without them stay valid.
          ...(options.outlineFields !== undefined ? { outlineFields: options.outlineFields } : {}),
          ...(overrides ? { overrides: `${overrides.file}\n${overrides.text}` } : {}),
          ...(options.profile !== undefined && options.profile !== DEFAULT_CLIENT_PROFILE
            ? { profile: options.profile }
            : {}),
          ...(options.serverName !== undefined ? { serverName: options.serverName } : {}),
        });
  if (cache !== undefined) options.onStep?.("cache");
  const cached = await cache?.read();
  if (cached !== undefined && "model" in cached) return cached.model;
  const planned = applyProfile(
    await planFromSpec(source, options, overrides, cache?.takeSpecBytes()),
    options,
  );
  if (cache === undefined) return planned;
  let model = planned;
  if (options.deferCacheWrite !== undefined) {
    // The search builds its own index from the tools, a step at a time, when discovery warms it.
    // Fields planned lazily (lazy-fields.ts) are made first, a tool a step, so that the write's
    // own steps (which read every tool whole) stay short.
    options.deferCacheWrite(async (pace, extras) => {
      try {
        if (hasPendingFields(planned.tools))
          await runInSlices(settleFieldsSteps(planned.tools), SLICE_MS, pace);
      } catch {
        // Not expected (lazy-fields.ts); the write meets the same field and, as any write that
        // fails, leaves no entry.
      }
      await cache.write(planned, pace, extras);
    });
  } else {
    // The cache keeps the search index (discovery's first search at the next start reads the
    // saved terms); the model returned carries it too, as a cached one does, so this start's
    // search does not build it a second time (1.2 s of Graph beta's cold start).
    model = { ...planned, searchIndex: readOrBuildSearchIndex(planned) };
    await cache.write(model);
  }
  if (cached?.miss !== "unusable") return model;
  // Said once, beside the plan's own diagnostics; the entry written replaces the bad one.
  const warning = createDiagnostic("OMB_MODEL_CACHE_UNUSABLE", `${cached.why}; planned again from the spec`, {
    file: source,
  });
  return { ...model, diagnostics: [...model.diagnostics, warning] };
}

async function planFromSpec(
  source: string,
  options: BuildOptions,
  overrides: LoadedOverrides | undefined,
  specBytes: FileBytes | undefined,
): Promise<BridgeModel> {
  options.onStep?.("load");
  // Loaded on a cache miss only: a start from the cache does without the loader and the planner
  // (test/e2e/bundled-cli.test.ts checks the command's static imports hold neither).
  const [{ loadSpec }, { applyOverlay }, { planModel }] = await Promise.all([
    import("../spec/load-spec.js"),
    import("../spec/overlay.js"),
    import("./plan-model.js"),
  ]);
  let loaded = await loadSpec(source, { ...options, deferValidation: true }, specBytes);
  let model: BridgeModel;
  try {
    if (overrides?.kind === "overlay") {
      const diagnostics = [...loaded.diagnostics];
      const document = applyOverlay(loaded.document, overrides.overlay, overrides.file, diagnostics);
      // An overlay may change any field: the planner checks each value it reads (as it must for
      // a spec loaded without validation).
      loaded = { ...loaded, document: document as OpenApiDocument, diagnostics };
    }
    const { overrides: _input, onStep, deferCacheWrite: _write, ...planOptions } = options;
    onStep?.("plan");
    model = planModel(loaded, {
      ...planOptions,
      ...(overrides?.kind === "map" ? { overrides: overrides.map } : {}),
    });
  } catch (error) {
    // Planning may trip over an invalid document: its schema problems explain it better.
    await loaded.validation;
    throw error;
  }
  options.onStep?.("validate");
  const warnings = (await loaded.validation) ?? [];
  if (warnings.length > 0) model.diagnostics.unshift(...warnings);
  return model;
}
