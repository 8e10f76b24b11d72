/**
 * `--mode tools|discovery|auto` end to end: the built CLI served over stdio and over Streamable
 * HTTP, driven by a real SDK Client (with the elicitation capability), against a recording
 * upstream on 127.0.0.1. In discovery mode: search results, describe, call with valid and
 * invalid arguments (the same words as tools mode), access control and confirmation through
 * call_operation, and audit lines that name the operation. Plus what `tools` and `lint` report,
 * and tools mode on a spec whose tools/list is larger than one stdio message.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toLegacyListing } from "../../src/runtime/server/meta-keys.js";
import { CLI, listAllTools, ROOT, runCli, startHttpBridge, textOf } from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { TOY_PATHS } from "./safety-support.js";

let upstream: Upstream;
let dir: string;
let smallSpec: string;
let largeSpec: string;

/** TOY_PATHS plus `extra` GET operations `/things{i}` (tag `things`). */
function writeSpec(name: string, extra: number): string {
  const paths: Record<string, unknown> = { ...TOY_PATHS };
  for (let i = 0; i < extra; i++) {
    paths[`/things${i}`] = {
      get: { operationId: `getThing${i}`, tags: ["things"], responses: { "200": { description: "OK" } } },
    };
  }
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Toy", version: "1" },
      servers: [{ url: upstream.url }],
      paths,
    }),
  );
  return file;
}

beforeAll(async () => {
  upstream = await startUpstream((req, res) => sendJson(res, 200, { method: req.method, path: req.rawPath }));
  dir = mkdtempSync(join(tmpdir(), "omb-discovery-"));
  smallSpec = writeSpec("small.json", 0);
  largeSpec = writeSpec("large.json", 140);
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => upstream.reset());

interface Session {
  client: Client;
  tools: Tool[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  stderr(): string;
  close(): Promise<void>;
}

type Transport = "stdio" | "http";

function collect(stream: Readable | null | undefined): () => string {
  let text = "";
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/** `serve spec ...args` over the transport, with a Client that answers elicitations with `elicit`. */
async function serve(
  transport: Transport,
  spec: string,
  args: string[],
  elicit?: (message: string) => ElicitResult,
  env: Record<string, string> = {},
): Promise<Session> {
  const client = new Client(
    { name: "discovery-e2e", version: "1.0.0" },
    elicit ? { capabilities: { elicitation: {} } } : {},
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  let stderr: () => string;
  let stop: () => Promise<void>;
  if (transport === "stdio") {
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", spec, ...args],
      env: { PATH: process.env.PATH ?? "", ...env },
      cwd: ROOT,
      stderr: "pipe",
    });
    stderr = collect(stdio.stderr as Readable | null);
    await client.connect(stdio);
    stop = () => client.close();
  } else {
    const bridge = await startHttpBridge(spec, args, env);
    stderr = bridge.stderr;
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
    stop = async () => {
      await client.close();
      await bridge.stop();
    };
  }
  const tools = await listAllTools(client);
  return {
    client,
    tools,
    call: async (name, callArgs = {}) =>
      (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    stderr,
    close: stop,
  };
}

const DISCOVERY_TOOLS = ["search_operations", "describe_operations", "call_operation"];
const TOY_NAMES = Object.values(TOY_PATHS).flatMap((item) =>
  Object.values(item)
    .map((op) => (op as { operationId?: string }).operationId)
    .filter((id): id is string => typeof id === "string"),
);

describe.each<Transport>(["stdio", "http"])("over %s", (transport) => {
  it.each<
    [string, () => string, string[], "tools" | "discovery", RegExp | undefined, Record<string, string>?]
  >([
    ["--mode tools on 150 operations: tools mode", () => largeSpec, ["--mode", "tools"], "tools", undefined],
    [
      "--mode discovery on 10 operations: discovery mode",
      () => smallSpec,
      ["--mode", "discovery"],
      "discovery",
      undefined,
    ],
    [
      "auto on 10 operations: tools mode",
      () => smallSpec,
      [],
      "tools",
      /tools mode \(--mode auto\): 10 tools, about/,
    ],
    [
      "auto on 150 operations: discovery mode",
      () => largeSpec,
      [],
      "discovery",
      /discovery mode \(--mode auto\): 150 tools: more than the 128 tools auto lists in full; .*\(--mode tools lists every tool\)/,
    ],
    [
      "OPENAPI_MCP_MODE=discovery: discovery mode",
      () => smallSpec,
      [],
      "discovery",
      undefined,
      { OPENAPI_MCP_MODE: "discovery" },
    ],
  ])("%s", { timeout: 60_000 }, async (_label, spec, args, want, line, env) => {
    const session = await serve(transport, spec(), args, undefined, env);
    try {
      const names = session.tools.map((t) => t.name);
      if (want === "discovery") expect(names).toEqual(DISCOVERY_TOOLS);
      else expect(names.slice(0, TOY_NAMES.length).sort()).toEqual([...TOY_NAMES].sort());
      const modeLines = session
        .stderr()
        .split("\n")
        .filter((l) => /mode \(--mode auto\)/.test(l));
      if (line === undefined) expect(modeLines).toEqual([]);
      else {
        expect(modeLines).toHaveLength(1);
        expect(modeLines[0]).toMatch(line);
      }
      const served =
        want === "discovery"
          ? /3 tools \(discovery mode, \d+ operations\) (over stdio|on http)/
          : /\d+ tools (over stdio|on http)/;
      expect(session.stderr()).toMatch(served);
    } finally {
      await session.close();
    }
  });

  describe("discovery mode", () => {
    let session: Session;
    let tools: Session;
    beforeAll(async () => {
      [session, tools] = await Promise.all([
        serve(transport, largeSpec, ["--mode", "discovery"]),
        serve(transport, largeSpec, ["--mode", "tools"]),
      ]);
    }, 60_000);
    afterAll(async () => {
      await session?.close();
      await tools?.close();
    });

    it("search_operations finds the operation, best first, as structured content and text", async () => {
      const result = await session.call("search_operations", { query: "delete pet" });
      expect(result.isError ?? false).toBe(false);
      const { results } = result.structuredContent as { results: Record<string, string>[] };
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(8);
      expect(results).toContainEqual({
        name: "deletePet",
        method: "DELETE",
        path: "/pets/{id}",
        summary: expect.any(String),
      });
      expect(textOf(result)).toContain("- deletePet: DELETE /pets/{id}");
      const nothing = await session.call("search_operations", { query: "zebra xylophone" });
      expect(textOf(nothing)).toContain('No operation of the Toy API matches "zebra xylophone"');
      expect(textOf(nothing)).toContain("things (140)");
    });

    it("describe_operations gives the same input schema and annotations the operation's tool has", async () => {
      const result = await session.call("describe_operations", { names: ["getPet"] });
      const [described] = (result.structuredContent as { operations: Record<string, unknown>[] }).operations;
      const tool = tools.tools.find((t) => t.name === "getPet")!;
      expect(described).toMatchObject({
        name: "getPet",
        method: "GET",
        path: "/pets/{id}",
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: {
          readOnlyHint: tool.annotations?.readOnlyHint,
          destructiveHint: tool.annotations?.destructiveHint,
          idempotentHint: tool.annotations?.idempotentHint,
        },
      });
      // Said once: no tags, no second title, confirmation only when the user is asked.
      expect(described).not.toHaveProperty("tags");
      expect(described).not.toHaveProperty("needsConfirmation");
      expect(described!.annotations).not.toHaveProperty("title");
    });

    it("call_operation gives the operation tool's result and request, valid or not", async () => {
      for (const args of [{ id: "42" }, {}, { id: "1", extra: true }]) {
        upstream.reset();
        const viaTool = await tools.call("getPet", args);
        const sentByTool = upstream.requests.map((r) => `${r.method} ${r.rawUrl}`);
        upstream.reset();
        const viaCall = await session.call("call_operation", { name: "getPet", arguments: args });
        expect(viaCall, JSON.stringify(args)).toEqual(viaTool);
        expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(sentByTool);
      }
      expect(upstream.requests.length).toBe(0); // the last one was invalid: nothing sent
      const unknown = await session.call("call_operation", { name: "getPets", arguments: {} });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toMatch(/^Unknown operation "getPets".*The closest: getPet/);
    });
  });

  it("discovery mode: --read-only bounds what search finds and call reaches", {
    timeout: 60_000,
  }, async () => {
    const session = await serve(transport, smallSpec, ["--mode", "discovery", "--read-only"]);
    try {
      const found = await session.call("search_operations", { query: "delete pet user", limit: 50 });
      const names = (found.structuredContent as { results: { name: string }[] }).results.map((r) => r.name);
      expect(names.some((n) => n.startsWith("delete"))).toBe(false);
      const refused = await session.call("call_operation", { name: "deletePet", arguments: { id: "1" } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('Unknown operation "deletePet"');
      expect(upstream.requests).toEqual([]);
      const call = session.tools.find((t) => t.name === "call_operation")!;
      expect(call.annotations?.readOnlyHint).toBe(true);
    } finally {
      await session.close();
    }
  });

  it("discovery mode: --destructive confirm asks the user through elicitation, and the audit log names the operation", {
    timeout: 60_000,
  }, async () => {
    const log = join(dir, `audit-${transport}.jsonl`);
    const asked: string[] = [];
    let answer: ElicitResult = { action: "decline" };
    const session = await serve(
      transport,
      smallSpec,
      ["--mode", "discovery", "--destructive", "confirm", "--audit-log", log],
      (message) => {
        asked.push(message);
        return answer;
      },
    );
    try {
      const declined = await session.call("call_operation", { name: "deletePet", arguments: { id: "9" } });
      expect(textOf(declined)).toMatch(
        /^Refused: the user did not allow deletePet \(DELETE \/pets\/\{id\}\)/,
      );
      expect(upstream.requests).toEqual([]);
      answer = { action: "accept", content: { confirm: true } };
      const accepted = await session.call("call_operation", { name: "deletePet", arguments: { id: "9" } });
      expect(accepted.isError ?? false, textOf(accepted)).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(["DELETE /pets/9"]);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toContain("deletePet (DELETE /pets/{id})");
      await session.call("call_operation", { name: "getPet", arguments: {} });
    } finally {
      await session.close();
    }
    const entries = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { tool: string; outcome: string; category?: string; arguments: unknown },
      );
    expect(entries.map((e) => [e.tool, e.outcome, e.category])).toEqual([
      ["deletePet", "error", "confirmation_declined"],
      ["deletePet", "ok", undefined],
      ["getPet", "error", "invalid_argument"],
    ]);
    expect(entries[0]!.arguments).toEqual({ id: "9" });
  });
});

describe("tools and lint", () => {
  it("tools SPEC reports the size and what auto serves; --json is tools/list in the mode given", async () => {
    const text = await runCli(["tools", largeSpec]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Toy 1: 3 tools \(discovery mode, 150 operations\)\n/);
    expect(text.stdout).toMatch(
      /--mode auto serves discovery mode: 150 tools, about [\d,]+ tokens .*128 tools/,
    );
    const json = await runCli(["tools", largeSpec, "--json", "--mode", "discovery"]);
    const listed = JSON.parse(json.stdout) as { tools: Tool[] };
    const session = await serve("stdio", largeSpec, ["--mode", "discovery"]);
    try {
      // `tools --json` prints the runtime's listing (the new _meta keys); the 2025-era client gets the old ones.
      expect(toLegacyListing(listed).tools).toEqual(session.tools);
    } finally {
      await session.close();
    }
    const all = JSON.parse((await runCli(["tools", largeSpec, "--json", "--mode", "tools"])).stdout) as {
      tools: Tool[];
    };
    expect(all.tools).toHaveLength(150);
    const small = await runCli(["tools", smallSpec, "--read-only"]);
    expect(small.stdout).toContain("Toy 1: 5 tools\n");
    expect(small.stdout).toMatch(
      /--mode auto serves tools mode: 5 tools, about \d+ tokens .*within auto's limits/,
    );
  });

  it("lint SPEC reports what auto serves", { timeout: 60_000 }, async () => {
    const result = await runCli(["lint", largeSpec]);
    expect(result.stdout).toMatch(/^--mode auto serves discovery mode: 150 tools/m);
    const json = JSON.parse((await runCli(["lint", largeSpec, "--json"])).stdout) as { mode: unknown };
    expect(json.mode).toMatchObject({ auto: "discovery", estimatedTokens: expect.any(Number) });
  });

  it("a bad --mode or OPENAPI_MCP_MODE is a usage error", async () => {
    const flag = await runCli(["serve", smallSpec, "--mode", "search"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(
      /^error OMB_OPTION_INVALID --mode: expected one of tools, discovery, code, auto, got "search"/,
    );
    const env = await runCli(["serve", smallSpec], { env: { OPENAPI_MCP_MODE: "all" } });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("OPENAPI_MCP_MODE (--mode): expected one of tools, discovery, code, auto");
  });
});

describe("tools mode on a spec larger than one stdio message", () => {
  it("pages tools/list as large as the stdio client reads, so the first page has all that fit", {
    timeout: 120_000,
  }, async () => {
    // 240 operations, each with an argument of 60,000 bytes of enum: about 14.4 MB of tools.
    const values = Array.from({ length: 5000 }, (_, i) => `choice-${String(i).padStart(4, "0")}`);
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 240; i++) {
      paths[`/big${i}`] = {
        get: {
          operationId: `big${i}`,
          parameters: [{ name: "pick", in: "query", schema: { $ref: "#/components/schemas/Choice" } }],
          responses: { "200": { description: "OK" } },
        },
      };
    }
    const spec = join(dir, "big.json");
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "Big", version: "1" },
        servers: [{ url: upstream.url }],
        paths,
        components: { schemas: { Choice: { type: "string", enum: values } } },
      }),
    );
    const session = await serve("stdio", spec, ["--mode", "tools"]);
    try {
      expect(session.tools).toHaveLength(240);
      const first = await session.client.listTools();
      const bytes = Buffer.byteLength(JSON.stringify(first));
      expect(first.nextCursor).toBeDefined();
      expect(bytes).toBeGreaterThan(9 * 1024 * 1024);
      expect(bytes).toBeLessThan(STDIO_DEFAULT_MAX_BUFFER_SIZE);
    } finally {
      await session.close();
    }
  });
});
