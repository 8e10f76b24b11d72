/**
 * Cancellation through the built CLI, as each client sends it, in both protocol eras: over
 * stdio (notifications/cancelled), over Streamable HTTP with a session or `--stateless`
 * (notifications/cancelled posted beside the call; stateless, with nothing but the caller and
 * the request id to tie it to the call) and in the 2026-07-28 era over HTTP (the client closes the call's
 * response stream). A held upstream call is aborted upstream and its only concurrency slot is
 * free again; a program stuck in `while (true)` is stopped long before its own time limit; each
 * is audited as cancelled.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/runtime/audit/audit-log.js";
import { CLI, connectHttp, connectStdio, ROOT, startHttpBridge, textOf } from "../helpers/bridge.js";
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

interface CallResult {
  isError?: boolean;
  content: ReadonlyArray<{ type: string }>;
}

/** One client of one era on one transport, as the tests drive it. */
interface Session {
  call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult>;
  close(): Promise<void>;
}

const LONG = 600_000;

function modernClient(): Client {
  return new Client(
    { name: "omb-cancel-e2e", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
}

function viaModern(client: Client, close: () => Promise<void>): Session {
  return {
    call: (name, args, signal) =>
      client.callTool({ name, arguments: args }, { ...(signal ? { signal } : {}), timeout: LONG }),
    close,
  };
}

type Open = (args: string[]) => Promise<Session>;

const sessions: [string, Open][] = [
  [
    "stdio, 2025-11-25 (1.x client)",
    async (args) => {
      const bridge = await connectStdio(specFile, args);
      return {
        call: (name, args, signal) =>
          bridge.client.callTool({ name, arguments: args }, undefined, {
            ...(signal ? { signal } : {}),
            timeout: LONG,
          }) as Promise<CallResult>,
        close: () => bridge.close(),
      };
    },
  ],
  [
    "stdio, 2026-07-28 (v2 client)",
    async (args) => {
      const client = modernClient();
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, "serve", specFile, ...args],
          env: { PATH: process.env.PATH ?? "" },
          cwd: ROOT,
          stderr: "ignore",
        }),
      );
      return viaModern(client, () => client.close());
    },
  ],
  ...(["", "--stateless"] as const).map((flag): [string, Open] => [
    `Streamable HTTP ${flag ? "--stateless (its cancel is a POST of its own)" : "with a session"}, 2025-11-25 (1.x client)`,
    async (args) => {
      const server = await startHttpBridge(specFile, [...(flag ? [flag] : []), ...args]);
      const bridge = await connectHttp(server);
      return {
        call: (name, args, signal) =>
          bridge.client.callTool({ name, arguments: args }, undefined, {
            ...(signal ? { signal } : {}),
            timeout: LONG,
          }) as Promise<CallResult>,
        close: async () => {
          await bridge.close();
          await server.stop();
        },
      };
    },
  ]),
  ...(["", "--stateless"] as const).map((flag): [string, Open] => [
    `Streamable HTTP${flag ? " --stateless" : ""}, 2026-07-28 (v2 client)`,
    async (args) => {
      const server = await startHttpBridge(specFile, [...(flag ? [flag] : []), ...args]);
      const client = modernClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
      return viaModern(client, async () => {
        await client.close();
        await server.stop();
      });
    },
  ]),
];

describe.each(sessions)("cancellation over %s", (_name, open) => {
  it("aborts the upstream request, frees the only concurrency slot and audits the call as cancelled", async () => {
    const log = join(dir, `tools-${held.length}.jsonl`);
    const session = await open(["--mode", "tools", "--max-concurrency", "1", "--audit-log", log]);
    try {
      const cancel = new AbortController();
      const before = held.length;
      const call = session.call("slow", {}, cancel.signal);
      await whenHeld(before + 1);
      cancel.abort("not needed any more");
      await expect(call).rejects.toThrow();
      // The API sees its connection close: the request was aborted, not left to run out.
      await held[before]!.closed;
      const [entry] = await auditEntries(log, 1);
      expect(entry).toMatchObject({ tool: "slow", outcome: "error", category: "cancelled" });
      // The one slot (--max-concurrency 1) is free: a call that would wait for it runs now.
      const quick = await session.call("quick", {});
      expect(quick.isError ?? false, textOf(quick)).toBe(false);
    } finally {
      await session.close();
    }
  });

  it("stops a program stuck in a loop long before its time limit", async () => {
    const log = join(dir, `code-${held.length}.jsonl`);
    const session = await open(["--mode", "code", "--code-timeout", String(LONG), "--audit-log", log]);
    try {
      const cancel = new AbortController();
      const before = held.length;
      const execute = session.call(
        "execute",
        { program: "api.slow({}).catch(() => {}); while (true) {}" },
        cancel.signal,
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
      const after = await session.call("execute", { program: "return 42" });
      expect(after.isError ?? false, textOf(after)).toBe(false);
    } finally {
      await session.close();
    }
  });
});
