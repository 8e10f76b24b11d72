/**
 * The hooks the rest of the runtime calls to be traced and measured, and the switch that turns
 * them on. Off (the default), every hook is a no-op and no OpenTelemetry package is loaded:
 * this module imports none, and otel-telemetry.ts (which does) is imported only by
 * startTelemetry once an OTLP endpoint or a metrics port is given. One telemetry per process,
 * as OpenTelemetry's own providers are: every API and session of a bridge reports to it.
 */
import type { DiagnosticCode } from "../../model/diagnostic-codes.js";
import { failWith } from "../../model/diagnostics.js";
import type { Telemetry, TelemetryBackend } from "./telemetry-hooks.js";
import { resolveTelemetryOptions, type TelemetryOptions } from "./telemetry-options.js";

/** The code of telemetry asked for without its packages installed. */
export const TELEMETRY_UNAVAILABLE: DiagnosticCode = "OMB_TELEMETRY_UNAVAILABLE";

const NOOP: Telemetry = {
  traceRequest: (_facts, parent, run) => run(parent),
  traceToolCall: (_facts, parent, run) => run(parent),
  startAttempt: () => undefined,
  countSandboxRun: () => {},
};

let active: Telemetry = NOOP;

/** The process's telemetry: the no-op one unless startTelemetry turned it on. */
export function getTelemetry(): Telemetry {
  return active;
}

/** Telemetry that runs: what the start-up line says, and its stop (which flushes what is pending). */
export interface RunningTelemetry {
  describe: string;
  close(): Promise<void>;
}

/**
 * Turns telemetry on when the options ask for any export, loading OpenTelemetry then (and only
 * then); undefined, with nothing loaded, when they ask for none.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<RunningTelemetry | undefined> {
  const resolved = resolveTelemetryOptions(options);
  if (resolved === undefined) return undefined;
  let backend: TelemetryBackend;
  try {
    const { createOtelTelemetry } = await import("./otel-telemetry.js");
    backend = await createOtelTelemetry(resolved);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const missing = /@opentelemetry\/[a-z-]+/.exec((error as Error).message ?? "")?.[0];
    if ((code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && missing !== undefined) {
      return failWith(TELEMETRY_UNAVAILABLE, `telemetry needs ${missing}, which is not installed`, {
        hint: "install the bridge with its dependencies (npm install without --omit), or turn telemetry off",
      });
    }
    throw error;
  }
  active = backend.telemetry;
  let closing: Promise<void> | undefined;
  return {
    describe: backend.describe,
    close: () => {
      closing ??= (async () => {
        active = NOOP;
        await backend.shutdown();
      })();
      return closing;
    },
  };
}
