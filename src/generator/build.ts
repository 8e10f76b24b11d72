/** Spec source → BridgeModel in one call (load, validate, normalise, plan). */
import type { BridgeModel } from "../model/types.js";
import { type LoadOptions, loadSpec } from "./load.js";
import { type PlanOptions, planModel } from "./plan.js";

export type BuildOptions = LoadOptions & PlanOptions;

/**
 * Plans while a large spec is still being validated (in a worker thread), then waits for the
 * validation: an invalid spec fails here, before anything is served or generated.
 */
export async function buildModel(source: string, options: BuildOptions = {}): Promise<BridgeModel> {
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
