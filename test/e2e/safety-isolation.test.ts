/**
 * No request may freeze the bridge (issue 25), end to end: the built CLI over Streamable HTTP in
 * discovery mode and in code mode, each attack from the attack pass run by one session while a
 * second session makes a plain call and a health check is asked for. Each attack must get its one
 * answer (a result, never a protocol error or a hang), the others theirs meanwhile, and the
 * process's peak RSS stays under 400 MB through all of them.
 *
 * Time bounds here are generous (2 s against the 4-39 s the attacks took before), so a busy
 * machine does not fail them; bench/results/isolation.md has the measured figures.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpBridge, startHttpBridge, textOf } from "../helpers/bridge.js";
import { SHOP_SPEC, shopResponder } from "../helpers/shop-api.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const GENEROUS_MS = 2000;
const MAX_RSS_BYTES = 400 * 1024 * 1024;
// An 8 MB answer: a list of products, as a real API's large page would be.
const BIG_ANSWER = Array.from({ length: 80_000 }, (_, i) => ({
  id: `p${i}`,
  name: `product ${i} ${"x".repeat(64)}`,
  price: i,
  stock: 1,
}));
// Printed with OMB_PRINT_TIMINGS=1, for bench/results/isolation.md.
const timings: string[] = [];

let upstream: Upstream;
let dir: string;

interface Sessions {
  bridge: HttpBridge;
  attacker: Client;
  other: Client;
}

async function startSessions(mode: string): Promise<Sessions> {
  const spec = join(dir, "shop.json");
  // No attack here loops until the limit; the largest (50 answers of 8 MB) takes ~4 s alone and
  // went past a 10 s limit on a machine at load 6-8, so the limit leaves it room.
  const bridge = await startHttpBridge(spec, ["--mode", mode, "--code-timeout", "30000"]);
  const attacker = new Client({ name: "attacker", version: "1.0.0" });
  const other = new Client({ name: "other", version: "1.0.0" });
  await attacker.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
  await other.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
  return { bridge, attacker, other };
}

async function stopSessions(sessions: Sessions | undefined): Promise<void> {
  await sessions?.attacker.close();
  await sessions?.other.close();
  await sessions?.bridge.stop();
}

function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return client.callTool({ name, arguments: args }, undefined, {
    timeout: 60_000,
  }) as Promise<CallToolResult>;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

/** The peak resident set of a process on Linux (VmHWM), in bytes. */
function readPeakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (match === null) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) * 1024;
}

/**
 * Runs `attack` in one session; until it has answered, the other session's plain call and a
 * health check are asked for again and again, and each must answer within the bound. Returns
 * the attack's result.
 */
async function expectIsolated(
  label: string,
  sessions: Sessions,
  attack: () => Promise<CallToolResult>,
  plain: () => Promise<CallToolResult>,
  checkPlain: (result: CallToolResult) => void,
): Promise<CallToolResult> {
  const started = performance.now();
  let done = false;
  const attacking = attack().finally(() => {
    done = true;
  });
  const healthMs: number[] = [];
  const plainMs: number[] = [];
  do {
    const [health, ms] = await timed(() => fetch(`http://127.0.0.1:${sessions.bridge.port}/healthz`));
    expect(health.status).toBe(200);
    healthMs.push(ms);
    const [answer, answerMs] = await timed(plain);
    checkPlain(answer);
    plainMs.push(answerMs);
  } while (!done);
  const result = await attacking;
  const attackMs = performance.now() - started;
  const worst = (values: number[]) => Math.max(...values);
  timings.push(
    `| ${label} | ${healthMs.length} | ${worst(healthMs).toFixed(0)} ms | ${worst(plainMs).toFixed(0)} ms | ${attackMs.toFixed(0)} ms |`,
  );
  expect(worst(healthMs)).toBeLessThan(GENEROUS_MS);
  expect(worst(plainMs)).toBeLessThan(GENEROUS_MS);
  // One answer, in words: never a stack trace.
  expect(textOf(result)).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  return result;
}

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.rawUrl.startsWith("/v1/products?")) return sendJson(res, 200, BIG_ANSWER);
    shopResponder(req, res);
  });
  dir = mkdtempSync(join(tmpdir(), "omb-isolation-"));
  writeFileSync(
    join(dir, "shop.json"),
    JSON.stringify({ ...SHOP_SPEC, servers: [{ url: `${upstream.url}/v1` }] }),
  );
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
  if (process.env.OMB_PRINT_TIMINGS === "1") process.stderr.write(`${timings.join("\n")}\n`);
});

describe("discovery mode: a hostile session cannot freeze the others", () => {
  let sessions: Sessions | undefined;
  beforeAll(async () => {
    sessions = await startSessions("discovery");
  }, 30_000);
  afterAll(() => stopSessions(sessions));

  const plainSearch = () => call(sessions!.other, "search_operations", { query: "get an order" });
  const checkSearch = (result: CallToolResult) => expect(textOf(result)).toContain("getOrder");

  it.each<[string, () => Record<string, unknown>, string]>([
    ["a run of 120,000 U+201C quotes", () => ({ query: "\u201c".repeat(120_000) }), "search_operations"],
    ['"my " 25,000 times', () => ({ query: "my ".repeat(25_000) }), "search_operations"],
    [
      "a 3 MB query of words",
      () => ({ query: "find my order please ".repeat(150_000) }),
      "search_operations",
    ],
    [
      "50 names of 70,000 characters",
      () => ({ names: Array.from({ length: 50 }, (_, i) => `${"getOrdr".repeat(10_000)}${i}`) }),
      "describe_operations",
    ],
    ["a 2 MB name", () => ({ name: "getOrdr".repeat(300_000), arguments: {} }), "call_operation"],
  ])("%s", { timeout: 60_000 }, async (label, args, tool) => {
    const result = await expectIsolated(
      `discovery: ${label}`,
      sessions!,
      () => call(sessions!.attacker, tool, args()),
      plainSearch,
      checkSearch,
    );
    // A search answers what it can; a name nobody has is an error result naming what to do.
    if (tool !== "search_operations") expect(result.isError).toBe(true);
  });

  it("stays under 400 MB of RSS through every attack", () => {
    expect(readPeakRss(sessions!.bridge.process.pid!)).toBeLessThan(MAX_RSS_BYTES);
  });
});

describe("code mode: a hostile program cannot freeze the others", () => {
  let sessions: Sessions | undefined;
  beforeAll(async () => {
    sessions = await startSessions("code");
  }, 30_000);
  afterAll(() => stopSessions(sessions));

  const plainProgram = () => call(sessions!.other, "execute", { program: "return 42;" });
  const checkProgram = (result: CallToolResult) => expect(result.structuredContent).toEqual({ result: 42 });

  it.each<[string, string, (result: CallToolResult) => void]>([
    [
      "50 calls through names of 100,000 characters",
      `const failed = [];
       for (let i = 0; i < 50; i++) {
         try { await api["getOrdr".repeat(14000) + i]({}); } catch (e) { failed.push(e.message.length); }
       }
       return failed.length;`,
      (result) => expect(result.structuredContent).toEqual({ result: 50 }),
    ],
    [
      "50 answers of 8 MB",
      `let handed = 0; let refused = 0;
       for (let i = 0; i < 50; i++) {
         try { const page = await api.searchProducts({ q: "all" }); handed += page.length; }
         catch (e) { refused++; }
       }
       return { handed, refused };`,
      (result) => {
        // Over the per-answer budget (4 MiB), each 8 MB answer is refused inside the program.
        expect(result.structuredContent).toEqual({ handed: 0, refused: 50 });
      },
    ],
  ])("%s", { timeout: 120_000 }, async (label, program, check) => {
    const result = await expectIsolated(
      `code: ${label}`,
      sessions!,
      () => call(sessions!.attacker, "execute", { program }),
      plainProgram,
      checkProgram,
    );
    check(result);
  });

  it("a search with signatures for a query of 120,000 U+201C quotes and 'my ' runs", {
    timeout: 60_000,
  }, async () => {
    await expectIsolated(
      "code: search_operations, hostile query",
      sessions!,
      () =>
        call(sessions!.attacker, "search_operations", {
          query: `${"\u201c".repeat(60_000)}${"my ".repeat(20_000)}`,
        }),
      plainProgram,
      checkProgram,
    );
  });

  it("stays under 400 MB of RSS through every attack", () => {
    expect(readPeakRss(sessions!.bridge.process.pid!)).toBeLessThan(MAX_RSS_BYTES);
  });
});
