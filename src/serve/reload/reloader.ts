/**
 * Hot reload (`serve --watch`): each watched spec (spec-watch.ts) that changes is loaded and
 * planned again in the background, and the runtime that would serve it is made; if any of that
 * fails, the bridge keeps serving what it served and says why on stderr; otherwise the live
 * runtime swaps to the new one (live-runtime.ts), every session is told the tools changed, and
 * the diff's summary is logged (and written to the audit log when there is one). Reloads run
 * one at a time, in the order the changes came; a spec that changes again while it reloads is
 * reloaded once more after. Rolling back is saving the previous spec: it is reloaded like any.
 */

import { SEVERITY_ORDER } from "../../contracts/change-rules.js";
import { countChanges, type ToolChange } from "../../contracts/diff-tools.js";
import { BridgeError, createDiagnostic, formatDiagnostic } from "../../model/diagnostics.js";
import { messageOf } from "../../model/error-message.js";
import type { AuditEvent, AuditLog } from "../../runtime/audit/audit-log.js";
import type { ToolRuntime } from "../../runtime/engine/bridge-runtime.js";
import type { LiveRuntime } from "./live-runtime.js";
import { type SpecWatch, watchSpec } from "./spec-watch.js";

export interface ReloadTarget {
  /** The API's namespace in a bridge of several APIs (named in messages and audit lines). */
  api?: string;
  /** The spec file or URL watched. */
  source: string;
  /** How often a URL is polled. */
  intervalMs: number;
  /** Bytes of the spec read at the most. */
  maxBytes: number;
  /**
   * The spec read and planned again, and the runtime that serves it with the others as they
   * are; `retire` closes what the runtime it replaces holds alone, once its calls are done.
   */
  rebuild(): Promise<{ runtime: ToolRuntime; retire(): Promise<void> }>;
  /** Audit logs that get a line per reload (the API's, the bridge's). */
  audits: AuditLog[];
}

export interface ReloadOutcome {
  api?: string;
  ok: boolean;
  /** What the reload changed (absent when it failed). */
  changes?: ToolChange[];
  catalogVersion: string;
  durationMs: number;
}

export interface Reloads {
  /** Reloads one target now (as a change would), resolving when it is done. */
  reload(index: number): Promise<ReloadOutcome>;
  close(): void;
}

/** Breaking changes listed one per line after the summary, at most. */
const MAX_LISTED = 10;

export function startReloads(
  live: LiveRuntime,
  targets: readonly ReloadTarget[],
  options: { say(line: string): void; onReloaded?(outcome: ReloadOutcome): void },
): Reloads {
  let queue: Promise<unknown> = Promise.resolve();
  /** Targets waiting in the queue: a change while waiting adds nothing. */
  const waiting = new Set<number>();

  const run = async (index: number): Promise<ReloadOutcome> => {
    const target = targets[index]!;
    waiting.delete(index);
    const started = performance.now();
    const previous = live.contracts.catalogVersion;
    let next: { runtime: ToolRuntime; retire(): Promise<void> };
    try {
      next = await target.rebuild();
    } catch (error) {
      const outcome = {
        ...(target.api !== undefined ? { api: target.api } : {}),
        ok: false,
        catalogVersion: previous,
        durationMs: Math.round(performance.now() - started),
      };
      reportFailure(target, error, previous, options.say);
      writeAudit(target, { event: "reload_failed", error: describeError(error), catalogVersion: previous });
      options.onReloaded?.(outcome);
      return outcome;
    }
    const { step, drained } = live.swap(next.runtime);
    void drained
      .then(next.retire)
      .catch((error: unknown) => options.say(`closing the replaced tools: ${messageOf(error)}`));
    const durationMs = Math.round(performance.now() - started);
    const counts = countChanges(step.changes).bySeverity;
    if (!step.changed) {
      options.say(
        `${prefixOf(target)}${target.source} changed but its tools did not (catalog ${step.catalogVersion}); serving it`,
      );
    } else {
      // One write: the summary, then the breaking changes (what clients that do not list again feel).
      const lines = [
        `reloaded ${target.api !== undefined ? `api ${target.api} from ` : ""}${target.source} in ${durationMs} ms: catalog ${step.previousVersion} → ${step.catalogVersion} (${SEVERITY_ORDER.map((s) => `${counts[s]} ${s}`).join(", ")}); sessions told to list the tools again`,
      ];
      const breaking = step.changes.filter((c) => c.severity === "breaking");
      for (const change of breaking.slice(0, MAX_LISTED)) {
        lines.push(`  breaking ${change.code} ${change.tool}${change.pointer}: ${change.message}`);
      }
      if (breaking.length > MAX_LISTED)
        lines.push(`  … and ${breaking.length - MAX_LISTED} more breaking changes`);
      options.say(lines.join("\n"));
    }
    writeAudit(target, {
      event: "reload",
      previousVersion: step.previousVersion,
      catalogVersion: step.catalogVersion,
      changes: counts,
      broken: [...step.broken.keys()],
    });
    const outcome = {
      ...(target.api !== undefined ? { api: target.api } : {}),
      ok: true,
      changes: step.changes,
      catalogVersion: step.catalogVersion,
      durationMs,
    };
    options.onReloaded?.(outcome);
    return outcome;
  };

  const reload = (index: number): Promise<ReloadOutcome> => {
    waiting.add(index);
    const done = queue.then(() => run(index));
    queue = done.catch(() => undefined);
    return done;
  };

  const watches: SpecWatch[] = targets.map((target, index) =>
    watchSpec({
      source: target.source,
      intervalMs: target.intervalMs,
      maxBytes: target.maxBytes,
      onChange: () => {
        if (!waiting.has(index)) void reload(index);
      },
      onProblem: (message) =>
        options.say(`${prefixOf(target)}${message}; still serving catalog ${live.contracts.catalogVersion}`),
    }),
  );
  return {
    reload,
    close() {
      for (const watch of watches) watch.close();
    },
  };
}

/** `api erp: ` in a bridge of several APIs; nothing in a bridge of one. */
function prefixOf(target: ReloadTarget): string {
  return target.api !== undefined ? `api ${target.api}: ` : "";
}

function writeAudit(target: ReloadTarget, event: Omit<AuditEvent, "time" | "api" | "source">): void {
  const line: AuditEvent = {
    time: new Date().toISOString(),
    ...event,
    ...(target.api !== undefined ? { api: target.api } : {}),
    source: target.source,
  };
  for (const audit of new Set(target.audits)) audit.writeEvent?.(line);
}

function describeError(error: unknown): string {
  if (error instanceof BridgeError) return error.diagnostics.map((d) => `${d.code} ${d.message}`).join("; ");
  return messageOf(error);
}

/**
 * `warning OMB_RELOAD_FAILED ...: the changed spec was not served: ...`, then the spec's own
 * errors, in one write (a log reader never sees the headline without its errors).
 */
function reportFailure(
  target: ReloadTarget,
  error: unknown,
  catalogVersion: string,
  say: (line: string) => void,
): void {
  const lines = [
    formatDiagnostic(
      createDiagnostic(
        "OMB_RELOAD_FAILED",
        `${prefixOf(target)}the changed spec ${target.source} is not served (still serving catalog ${catalogVersion}): ${error instanceof BridgeError ? `${error.diagnostics.length} error(s) below` : messageOf(error)}`,
        { hint: "fix the spec and save it again; the next change is loaded" },
      ),
    ),
  ];
  if (error instanceof BridgeError) {
    for (const d of error.diagnostics.filter((d) => d.severity === "error").slice(0, MAX_LISTED)) {
      lines.push(`  ${formatDiagnostic(d)}`);
    }
  }
  say(lines.join("\n"));
}
