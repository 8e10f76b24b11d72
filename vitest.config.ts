import { defineConfig } from "vitest/config";

// CI (.ci/run) sets OMB_TEST_REPORT to get a JSON report it turns into one summary line.
const report = process.env.OMB_TEST_REPORT;

/**
 * Two projects: `unit` runs the sources as they are (no build, no dist/); `e2e` spawns the built
 * CLI and generated projects, so its global setup builds the package first. `npm run test:unit`
 * runs the first alone.
 */
export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    reporters: report ? ["default", "json"] : ["default"],
    ...(report ? { outputFile: { json: report } } : {}),
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
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
