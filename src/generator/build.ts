/** Spec source → BridgeModel in one call (load, validate, normalise, plan). */
import type { BridgeModel } from "../model/types.js";
import { type LoadOptions, loadSpec } from "./load.js";
import { type PlanOptions, planModel } from "./plan.js";

export type BuildOptions = LoadOptions & PlanOptions;

export async function buildModel(source: string, options: BuildOptions = {}): Promise<BridgeModel> {
  const loaded = await loadSpec(source, options);
  return planModel(loaded, options);
}
