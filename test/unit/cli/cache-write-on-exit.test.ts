/**
 * finishCacheWriteOnExit (cli/cache-write-on-exit.ts): a stdio session that ends while the first
 * start's cache write is pending lets the write finish, at once, before the signal takes effect.
 */
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { finishCacheWriteOnExit } from "../../../src/cli/cache-write-on-exit.js";

type Event = "SIGTERM" | "SIGINT" | "end" | "written";

/** Runs the events in order against fakes of the process and its input; what happened. */
async function play(events: Event[]) {
  const proc = Object.assign(new EventEmitter(), { pid: 4242, kills: [] as string[] });
  const kill = (pid: number, signal: NodeJS.Signals) => proc.kills.push(`${pid} ${signal}`);
  const input = new EventEmitter();
  const pace = { hurried: false };
  let settle = () => {};
  const written = new Promise<void>((resolve) => {
    settle = resolve;
  });
  finishCacheWriteOnExit(written, pace, input, Object.assign(proc, { kill }));
  const log: string[] = [];
  for (const event of events) {
    if (event === "written") settle();
    else if (event === "end") input.emit("end");
    else proc.emit(event, event);
    await new Promise((resolve) => setImmediate(resolve));
    log.push(`${event}: hurried ${pace.hurried}, killed [${proc.kills.join(", ")}]`);
  }
  const listeners = proc.listenerCount("SIGTERM") + proc.listenerCount("SIGINT") + input.listenerCount("end");
  return { log, listeners };
}

describe("finishCacheWriteOnExit", () => {
  it.each([
    {
      title: "SIGTERM while writing: hurried, and the same signal once the write settles",
      events: ["SIGTERM", "written"] as Event[],
      log: ["SIGTERM: hurried true, killed []", "written: hurried true, killed [4242 SIGTERM]"],
    },
    {
      title: "SIGINT while writing: the same, with SIGINT",
      events: ["SIGINT", "written"] as Event[],
      log: ["SIGINT: hurried true, killed []", "written: hurried true, killed [4242 SIGINT]"],
    },
    {
      title: "stdin ends while writing: hurried, nothing killed (the process ends when idle)",
      events: ["end", "written"] as Event[],
      log: ["end: hurried true, killed []", "written: hurried true, killed []"],
    },
    {
      title: "written before anything: every listener is gone, a later signal is not held",
      events: ["written"] as Event[],
      log: ["written: hurried false, killed []"],
    },
  ])("$title", async ({ events, log }) => {
    const played = await play(events);
    expect(played.log).toEqual(log);
    expect(played.listeners).toBe(0);
  });
});
