import { configDefaults, defineConfig } from "vitest/config";

// CI (.ci/run) sets OMB_TEST_REPORT to get a JSON report it turns into one summary line.
const report = process.env.OMB_TEST_REPORT;

/** Checks too slow for the everyday loop: they sit beside their unit file, named `*.slow.test.ts`. */
const SLOW = "test/unit/**/*.slow.test.ts";

/**
 * The unit and slow files import the sources once per worker, not once per file (isolate:
 * false): importing them again for each of 76 files was most of the unit suite's time. Their
 * tests put back what they change (process.env, spies, timers); a shuffled run
 * (`--sequence.shuffle`) shows a file that does not.
 */
const SHARED_MODULES = { isolate: false };

/**
 * Three projects: `unit` runs the sources as they are (no build, no dist/), fast, the everyday
 * loop (`npm run test:unit`); `slow` runs the sources too, for the checks that cost seconds each
 * (the real tokenizer, the full regex differential, the largest real specs, planned once by its
 * global setup into a cached model, see test/helpers/planned-model.ts; `npm run test:slow`);
 * `e2e` spawns the built CLI and generated projects, so its global setup builds the package
 * first. `npm test` (and CI) runs all three.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    reporters: report ? ["default", "json"] : ["default"],
    ...(report ? { outputFile: { json: report } } : {}),
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          ...SHARED_MODULES,
          include: ["test/unit/**/*.test.ts"],
          exclude: [...configDefaults.exclude, SLOW],
        },
      },
      {
        extends: true,
        test: {
          name: "slow",
          ...SHARED_MODULES,
          include: [SLOW],
          globalSetup: ["test/slow-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", "test/corpus/**/*.test.ts"],
          globalSetup: ["test/global-setup.ts"],
        },
      },
    ],
  },
});
