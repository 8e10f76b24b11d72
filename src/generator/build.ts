/** Spec source → BridgeModel in one call (load, validate, normalise, plan). */
import type { BridgeModel } from "../model/types.js";
import { type LoadOptions, loadSpec } from "./load.js";
import { openModelCache } from "./model-cache.js";
import { type PlanOptions, planModel } from "./plan.js";

export type BuildOptions = LoadOptions &
  PlanOptions & {
    /** Reuse the model planned at an earlier start for the same spec file (default true). */
    cache?: boolean;
  };

/**
 * Plans while a large spec is still being validated (in a worker thread), then waits for the
 * validation: an invalid spec fails here, before anything is served or generated.
 */
export async function buildModel(source: string, options: BuildOptions = {}): Promise<BridgeModel> {
  const cache =
    options.cache === false
      ? undefined
      : await openModelCache(source, {
          validate: options.validate !== false,
          allowNetworkRefs: options.allowNetworkRefs === true,
          allowFileRefs: options.allowFileRefs !== false,
          descriptionBudget: options.descriptionBudget ?? null,
          argumentDescriptionBudget: options.argumentDescriptionBudget ?? null,
          outputSchemas: options.outputSchemas !== false,
        });
  const cached = await cache?.read();
  if (cached) return cached;
  const model = await planFromSpec(source, options);
  await cache?.write(model);
  return model;
}

async function planFromSpec(source: string, options: BuildOptions): Promise<BridgeModel> {
  const loaded = await loadSpec(source, { ...options, deferValidation: true });
  let model: BridgeModel;
  try {
    model = planModel(loaded, options);
  } catch (error) {
    // Planning may trip over an invalid document: its schema problems explain it better.
    await loaded.validation;
    throw error;
  }
  await loaded.validation;
  return model;
}
