/** The switch: nothing without an export asked for; with one, the hooks record until close(). */
import { describe, expect, it } from "vitest";
import { getTelemetry, startTelemetry } from "../../../../src/runtime/telemetry/telemetry.js";

describe("startTelemetry", () => {
  it("starts nothing when no export is asked for: the hooks stay no-ops", async () => {
    const before = getTelemetry();
    expect(await startTelemetry({})).toBeUndefined();
    expect(await startTelemetry({ metricsHost: "0.0.0.0", otlpProtocol: "http/json" })).toBeUndefined();
    expect(getTelemetry()).toBe(before);
    expect(
      await getTelemetry().traceToolCall({ tool: "t", mode: "tools" }, undefined, async (trace) => trace),
    ).toBe(undefined);
  });

  it("counts through the hooks while on, serves the counts, and is off again after close()", async () => {
    const off = getTelemetry();
    const running = await startTelemetry({ metricsPort: 0 });
    if (running === undefined) throw new Error("telemetry did not start");
    try {
      const url = /Prometheus metrics at (\S+)/.exec(running.describe)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(getTelemetry()).not.toBe(off);
      await getTelemetry().traceToolCall({ tool: "listPets", mode: "tools" }, undefined, async () => ({
        content: [],
      }));
      getTelemetry().countSandboxRun("returned");
      const text = await (await fetch(url as string)).text();
      expect(text).toMatch(/^omb_tool_calls_total\{tool="listPets",mode="tools",outcome="ok"[^}]*\} 1$/m);
      expect(text).toMatch(/^omb_sandbox_runs_total\{outcome="returned"[^}]*\} 1$/m);
    } finally {
      await running.close();
    }
    expect(getTelemetry()).toBe(off);
  });
});
