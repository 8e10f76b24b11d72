/**
 * The `slow` project's global setup: plans GitHub's spec once per source tree, with each set of
 * options its tests use, before any worker starts (test/helpers/planned-model.ts keeps the
 * models); the test files then read the saved models instead of each planning 1,223 operations.
 */
import { githubModel } from "./helpers/planned-model.js";

export default async function setup(): Promise<void> {
  await githubModel();
  await githubModel({ resultSchemas: true });
}
