/** The lazy plan against the eager one (lazy-fields.test.ts and its slow twin). */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { type PlanOptions, planModel } from "../../../src/generator/compile/plan-model.js";
import { loadSpec } from "../../../src/generator/spec/load-spec.js";
import type { BridgeModel } from "../../../src/model/types.js";

/** The model's JSON after reading every lazy field, the last tool's first, each tool's last field first. */
export function readBackwards(model: BridgeModel): string {
  for (let i = model.tools.length - 1; i >= 0; i--) {
    const tool = model.tools[i]!;
    void tool.http.successFlags;
    void tool.http.xmlLists;
    void tool.http.accept;
    void tool.http.responses;
    void tool.resultFields;
    void tool.inputSchema;
    void tool.description;
  }
  return JSON.stringify(model);
}

/** The JSON and YAML specs right under (and one level below) a folder, sorted. */
export function listSpecs(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      for (const inner of readdirSync(path)) if (/\.(json|ya?ml)$/.test(inner)) files.push(join(path, inner));
    } else if (/\.(json|ya?ml)$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

/** Planned lazily (first: nothing remembered yet) and eagerly: the same JSON. */
export async function expectSameModel(file: string, options: PlanOptions = {}): Promise<void> {
  const loaded = await loadSpec(file, { validate: false });
  const lazy = planModel(loaded, { ...options, planLazily: true });
  const lazyText = readBackwards(lazy);
  expect(lazyText).toBe(JSON.stringify(planModel(loaded, options)));
}
