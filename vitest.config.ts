import { defineConfig } from "vitest/config";

// CI (.ci/run) sets OMB_TEST_REPORT to get a JSON report it turns into one summary line.
const report = process.env.OMB_TEST_REPORT;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    reporters: report ? ["default", "json"] : ["default"],
    ...(report ? { outputFile: { json: report } } : {}),
  },
});
