/**
 * The tasks of this process (MCP tasks: 2025-11-25's `tasks` and the 2026-07-28
 * `io.modelcontextprotocol/tasks` extension): each runs one tool call in the background, belongs
 * to who created it (a session, an OAuth subject, the credential of a stateless request; none on
 * stdio, where the one client holds the unguessable ids), and is kept a while after it ends. The
 * store is bounded: at most `maxRunning` tasks run at once (past that, the call is answered
 * without a task) and at most `maxKept` are kept; the oldest ended ones go first.
 */
import { randomBytes } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/server";

export const TASK_LIMITS = {
  /** Tasks running at once in this process. */
  maxRunning: 64,
  /** Tasks kept (running and ended). */
  maxKept: 512,
  /** How long a task is kept from its creation: an hour, then its result is gone. */
  ttlMs: 60 * 60_000,
  /** The poll interval suggested to clients. */
  pollIntervalMs: 1_000,
};

export type TaskStatus = "working" | "completed" | "failed" | "cancelled";

export interface TaskRecord {
  id: string;
  owner: string | undefined;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  /** The tool call's result (completed). */
  result?: CallToolResult;
  /** The call's protocol error (failed): what the request would have answered. */
  error?: { code: number; message: string };
  /** Settles when the task ends (any terminal status). */
  ended: Promise<void>;
}

export interface TaskStore {
  /** A running task for `run`, or undefined when as many tasks run as the limit allows. */
  create(
    owner: string | undefined,
    run: (task: TaskControl) => Promise<CallToolResult>,
  ): TaskRecord | undefined;
  /** The owner's task (undefined: unknown, expired or someone else's). */
  get(owner: string | undefined, id: string): TaskRecord | undefined;
  list(owner: string | undefined): TaskRecord[];
  /** Cancels a running task: it is `cancelled` at once and its call is aborted. */
  cancel(owner: string | undefined, id: string): TaskRecord | undefined;
  /** Whether another task may start now. */
  hasRoom(): boolean;
}

/** What the running call may do to its task. */
export interface TaskControl {
  signal: AbortSignal;
  /** A word on how far it got (the status message). */
  report(message: string): void;
}

interface Entry {
  record: TaskRecord;
  abort: AbortController;
  /** Settles `record.ended`. */
  end(): void;
}

export function createTaskStore(
  limits: typeof TASK_LIMITS = TASK_LIMITS,
  now: () => number = Date.now,
  makeAbortReason: () => unknown = () => undefined,
): TaskStore {
  const entries = new Map<string, Entry>();
  const running = () => [...entries.values()].filter((e) => e.record.status === "working").length;
  const expire = () => {
    const time = now();
    for (const [id, entry] of entries) {
      if (entry.record.status !== "working" && entry.record.createdAt + entry.record.ttlMs <= time) {
        entries.delete(id);
      }
    }
    // Over the room kept: the oldest ended tasks go (running ones are bounded by maxRunning).
    for (const [id, entry] of entries) {
      if (entries.size <= limits.maxKept) break;
      if (entry.record.status !== "working") entries.delete(id);
    }
  };
  const find = (owner: string | undefined, id: string) => {
    expire();
    const entry = entries.get(id);
    return entry !== undefined && entry.record.owner === owner ? entry : undefined;
  };
  const settle = (record: TaskRecord, change: Partial<TaskRecord>) => {
    if (record.status !== "working") return; // terminal states never change
    Object.assign(record, change, { lastUpdatedAt: now() });
  };
  return {
    hasRoom: () => {
      expire();
      return running() < limits.maxRunning;
    },
    create(owner, run) {
      expire();
      if (running() >= limits.maxRunning) return undefined;
      const abort = new AbortController();
      const created = now();
      let end: () => void = () => {};
      const record: TaskRecord = {
        id: randomBytes(18).toString("base64url"),
        owner,
        status: "working",
        createdAt: created,
        lastUpdatedAt: created,
        ttlMs: limits.ttlMs,
        ended: new Promise<void>((resolve) => {
          end = resolve;
        }),
      };
      entries.set(record.id, { record, abort, end: () => end() });
      const control: TaskControl = {
        signal: abort.signal,
        report: (message) => {
          if (record.status === "working")
            Object.assign(record, { statusMessage: message, lastUpdatedAt: now() });
        },
      };
      void run(control).then(
        (result) => {
          settle(record, {
            status: "completed",
            result,
            statusMessage: result.isError ? "ended with an error" : "done",
          });
          end();
        },
        (error: unknown) => {
          const code =
            typeof (error as { code?: unknown })?.code === "number"
              ? (error as { code: number }).code
              : -32603;
          const message = error instanceof Error ? error.message : String(error);
          settle(record, { status: "failed", error: { code, message }, statusMessage: message });
          end();
        },
      );
      return record;
    },
    get: (owner, id) => find(owner, id)?.record,
    list(owner) {
      expire();
      return [...entries.values()].map((e) => e.record).filter((r) => r.owner === owner);
    },
    cancel(owner, id) {
      const entry = find(owner, id);
      if (entry === undefined) return undefined;
      if (entry.record.status === "working") {
        settle(entry.record, { status: "cancelled", statusMessage: "cancelled by request" });
        entry.abort.abort(makeAbortReason());
        entry.end();
      }
      return entry.record;
    },
  };
}
