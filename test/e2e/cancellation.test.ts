/**
 * Cancellation through the built CLI over stdio, as a client sends it (notifications/cancelled):
 * a held upstream call is aborted upstream, and a program stuck in `while (true)` is stopped (its
 * worker ended) long before its own time limit, each audited as cancelled.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/runtime/audit/audit-log.js";
import { connectStdio } from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

let upstream: Upstream;
let dir: string;
let specFile: string;
const held: { closed: Promise<void> }[] = [];
let arrived: (() => void) | undefined;

beforeAll(async () => {
  upstream = await startUpstream((req, res, incoming: IncomingMessage) => {
    if (req.rawPath.startsWith("/quick")) return sendJson(res, 200, { ok: true });
    held.push({ closed: new Promise((resolve) => incoming.socket.once("close", () => resolve())) });
    arrived?.();
  });
  dir = mkdtempSync(join(tmpdir(), "omb-cancel-"));
  specFile = join(dir, "api.json");
  const ok = {
    "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
  };
  writeFileSync(
    specFile,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Slow", version: "1" },
      servers: [{ url: upstream.url }],
      paths: {
        "/slow": { get: { operationId: "slow", responses: ok } },
        "/quick": { get: { operationId: "quick", responses: ok } },
      },
    }),
  );
});
afterAll(async () => {
  await upstream.close();
});

function whenHeld(count: number): Promise<void> {
  if (held.length >= count) return Promise.resolve();
  return new Promise((resolve) => {
    arrived = () => {
      if (held.length >= count) resolve();
    };
  });
}

/** The audit file's entries, once it holds `count` (each is written when its call ends). */
async function auditEntries(file: string, count: number): Promise<AuditEntry[]> {
  for (;;) {
    let lines: string[] = [];
    try {
      lines = readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line !== "");
    } catch {}
    if (lines.length >= count) return lines.map((line) => JSON.parse(line) as AuditEntry);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("a cancelled call over stdio", () => {
  it("aborts the upstream request: the API sees its connection close", async () => {
    const log = join(dir, "tools.jsonl");
    const bridge = await connectStdio(specFile, ["--mode", "tools", "--audit-log", log]);
    try {
      const cancel = new AbortController();
      const call = bridge.client.callTool({ name: "slow", arguments: {} }, undefined, {
        signal: cancel.signal,
      });
      const before = held.length;
      await whenHeld(before + 1);
      cancel.abort("not needed any more");
      await expect(call).rejects.toThrow();
      await held[before]!.closed;
      const [entry] = await auditEntries(log, 1);
      expect(entry).toMatchObject({ tool: "slow", outcome: "error", category: "cancelled" });
      // The bridge serves on.
      const quick = await bridge.call("quick", {});
      expect(quick.isError ?? false).toBe(false);
    } finally {
      await bridge.close();
    }
  });

  it("stops a program stuck in a loop long before its time limit", async () => {
    const log = join(dir, "code.jsonl");
    const bridge = await connectStdio(specFile, [
      "--mode",
      "code",
      "--code-timeout",
      "600000",
      "--audit-log",
      log,
    ]);
    try {
      const cancel = new AbortController();
      const before = held.length;
      const execute = bridge.client.callTool(
        { name: "execute", arguments: { program: "api.slow({}).catch(() => {}); while (true) {}" } },
        undefined,
        { signal: cancel.signal, timeout: 600_000 },
      );
      // The program is running: its call reached the API.
      await whenHeld(before + 1);
      cancel.abort("taking too long");
      await expect(execute).rejects.toThrow();
      // Written when the program ends: a loop that went on would end at its 10-minute limit.
      const entries = await auditEntries(log, 2);
      expect(entries.find((e) => e.tool === "execute")).toMatchObject({
        outcome: "error",
        category: "cancelled",
      });
      await held[before]!.closed;
      const after = await bridge.call("execute", { program: "return 42" });
      expect(after.isError ?? false).toBe(false);
    } finally {
      await bridge.close();
    }
  });
});
