/**
 * `--destructive confirm` on the 2026-07-28 wire (multi-round-trip requests): the built CLI
 * answers a destructive call with an input-required result carrying the question and a signed
 * state; the v2 SDK client pinned to 2026-07-28 asks the user through its elicitation handler
 * and retries the call, over stdio and Streamable HTTP (sessionful and --stateless). Accepted,
 * the upstream receives the DELETE; declined, it receives nothing. Raw JSON rounds then try
 * what a client could do wrong on purpose: an altered state, a state for other arguments, a
 * replayed answer, an answer with no question; and two replicas sharing OPENAPI_MCP_CONFIRM_KEY.
 * Next to them in the same process, a 1.x SDK (2025-era) client is still asked through
 * elicitation/create, and refused on --stateless (access-control.test.ts has the rest of it).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, type ElicitResult, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ERROR_META_KEY } from "../../src/runtime/results/error-result.js";
import { toLegacyMetaKey } from "../../src/runtime/server/meta-keys.js";
import { CLI, fixture, type HttpBridge, ROOT, startHttpBridge, textOf } from "../helpers/bridge.js";
import { readJsonRpcAnswer } from "../helpers/json-rpc-answer.js";
import { hasRedisServer, type RedisServer, startRedisServer } from "../helpers/redis.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { WIRE_SPECS } from "./wire-cases.js";

const SPEC = fixture(WIRE_SPECS["3.1"]);
const MODERN = "2026-07-28";
/** The error key a 2026-07-28 client reads (2025-era clients get the old one, meta-keys.ts). */
const ERROR_KEY = ERROR_META_KEY;

let upstream: Upstream;
let dir: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.method === "DELETE") res.writeHead(204).end();
    else sendJson(res, 200, { id: 7, name: "Rex" });
  });
  dir = mkdtempSync(join(tmpdir(), "omb-mrtr-"));
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => upstream.reset());

function sent(): string[] {
  return upstream.requests.map((r) => `${r.method} ${r.rawPath}`);
}

function categoryOf(result: { _meta?: Record<string, unknown> }, key = ERROR_KEY): unknown {
  return (result._meta?.[key] as { category?: unknown } | undefined)?.category;
}

/** The audit file's lines, once there are `count` of them (the log is written as calls end). */
async function auditLines(file: string, count: number): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {}
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    if (lines.length >= count) return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    if (Date.now() > deadline) throw new Error(`audit log has ${lines.length} lines, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A v2 client pinned to 2026-07-28 that asks "the user" through `answer` and records the questions. */
function modernClient(questions: string[], answer: () => ElicitResult): Client {
  const client = new Client(
    { name: "omb-mrtr-e2e", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler("elicitation/create", async (request) => {
    questions.push(request.params.message);
    return answer();
  });
  return client;
}

function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

interface Served {
  connect(client: Client): Promise<void>;
  close(): Promise<void>;
}

const transports: [string, (args: string[]) => Promise<Served>][] = [
  [
    "stdio",
    async (args) => ({
      connect: (client) =>
        client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [CLI, "serve", SPEC, ...args],
            env: childEnv(),
            cwd: ROOT,
            stderr: "ignore",
          }),
        ),
      close: async () => {},
    }),
  ],
  ...(["sessionful", "stateless"] as const).map((mode): [string, (args: string[]) => Promise<Served>] => [
    `Streamable HTTP, ${mode}`,
    async (args) => {
      const bridge = await startHttpBridge(SPEC, [...(mode === "stateless" ? ["--stateless"] : []), ...args]);
      return {
        connect: (client) => client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint))),
        close: () => bridge.stop(),
      };
    },
  ]),
];

describe.each(transports)("confirmation on the 2026-07-28 wire over %s", (name, open) => {
  let served: Served;
  let answer: ElicitResult;
  const questions: string[] = [];
  let client: Client;
  const audit = () => join(dir, `${name.replace(/\W+/g, "-")}.jsonl`);

  beforeAll(async () => {
    served = await open(["--destructive", "confirm", "--base-url", upstream.url, "--audit-log", audit()]);
    client = modernClient(questions, () => answer);
    await served.connect(client);
  }, 30_000);

  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  beforeEach(() => {
    questions.length = 0;
  });

  it("asks through an input-required result and sends the DELETE once the user accepts", async () => {
    expect(client.getProtocolEra()).toBe("modern");
    answer = { action: "accept", content: { confirm: true } };
    const result = await client.callTool({ name: "deletePet", arguments: { petId: 7 } });
    expect(result.isError ?? false).toBe(false);
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain("deletePet (DELETE /pets/{petId})");
    expect(questions[0]).toContain('{"petId":7}');
    expect(sent()).toEqual(["DELETE /pets/7"]);
    const lines = await auditLines(audit(), 2);
    expect(lines.slice(0, 2).map((l) => [l["tool"], l["outcome"], l["confirmation"], l["status"]])).toEqual([
      ["deletePet", "pending", "asked", undefined],
      ["deletePet", "ok", "accepted", 204],
    ]);
  });

  it.each([
    ["declines", { action: "decline" } as ElicitResult],
    ["cancels", { action: "cancel" } as ElicitResult],
    ["accepts without ticking the box", { action: "accept", content: { confirm: false } } as ElicitResult],
  ])("sends nothing when the user %s", async (_how, given) => {
    answer = given;
    const result = await client.callTool({ name: "deletePet", arguments: { petId: 8 } });
    expect(result.isError).toBe(true);
    expect(categoryOf(result)).toBe("confirmation_declined");
    expect(textOf(result)).toContain("the user did not allow deletePet");
    expect(questions).toHaveLength(1);
    expect(sent()).toEqual([]);
  });

  it("writes asked, then declined, to the audit log", async () => {
    // Two lines of the first test, two for each of the three declines.
    const lines = await auditLines(audit(), 8);
    expect(lines.slice(2).map((l) => [l["outcome"], l["confirmation"], l["category"]])).toEqual([
      ["pending", "asked", undefined],
      ["error", "declined", "confirmation_declined"],
      ["pending", "asked", undefined],
      ["error", "declined", "confirmation_declined"],
      ["pending", "asked", undefined],
      ["error", "declined", "confirmation_declined"],
    ]);
  });

  it("does not ask for a call that needs no confirmation", async () => {
    const result = await client.callTool({ name: "getPet", arguments: { petId: 7 } });
    expect(result.isError ?? false).toBe(false);
    expect(questions).toEqual([]);
    expect(sent()).toEqual(["GET /pets/7"]);
  });
});

describe("a 2025-era client of the same process", () => {
  it.each([
    ["sessionful", "asked through elicitation/create", [], ["DELETE /pets/7"]],
    ["stateless", "refused: no session to ask through", ["--stateless"], []],
  ] as const)("over %s HTTP is %s", async (mode, _what, extra, expected) => {
    const bridge = await startHttpBridge(SPEC, [
      "--destructive",
      "confirm",
      "--base-url",
      upstream.url,
      ...extra,
    ]);
    const questions: string[] = [];
    const client = new LegacyClient(
      { name: "omb-2025", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      questions.push(request.params.message);
      return { action: "accept", content: { confirm: true } };
    });
    try {
      await client.connect(new LegacyHttpTransport(new URL(bridge.endpoint)));
      const result = (await client.callTool({ name: "deletePet", arguments: { petId: 7 } })) as {
        isError?: boolean;
        _meta?: Record<string, unknown>;
      };
      expect(sent()).toEqual(expected);
      if (mode === "sessionful") {
        expect(result.isError ?? false).toBe(false);
        expect(questions).toHaveLength(1);
        expect(questions[0]).toContain("deletePet (DELETE /pets/{petId})");
      } else {
        // A 2025-era client gets the old key (meta-keys.ts).
        expect(categoryOf(result, toLegacyMetaKey(ERROR_KEY))).toBe("confirmation_unavailable");
        expect(questions).toEqual([]);
      }
    } finally {
      await client.close();
      await bridge.stop();
    }
  });
});

describe("discovery mode on the 2026-07-28 wire", () => {
  it("asks before call_operation runs a destructive operation", async () => {
    const bridge = await startHttpBridge(SPEC, [
      "--destructive",
      "confirm",
      "--mode",
      "discovery",
      "--stateless",
      "--base-url",
      upstream.url,
    ]);
    const questions: string[] = [];
    const client = modernClient(questions, () => ({ action: "accept", content: { confirm: true } }));
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
      const result = await client.callTool({
        name: "call_operation",
        arguments: { name: "deletePet", arguments: { petId: 7 } },
      });
      expect(result.isError ?? false).toBe(false);
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain("deletePet (DELETE /pets/{petId})");
      expect(sent()).toEqual(["DELETE /pets/7"]);
    } finally {
      await client.close();
      await bridge.stop();
    }
  });
});

describe("a 2026-07-28 client that cannot show a form", () => {
  it("is refused as before, and nothing is sent", async () => {
    const bridge = await startHttpBridge(SPEC, ["--destructive", "confirm", "--base-url", upstream.url]);
    const client = new Client(
      { name: "no-forms", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
      const result = await client.callTool({ name: "deletePet", arguments: { petId: 7 } });
      expect(result.isError).toBe(true);
      expect(categoryOf(result)).toBe("confirmation_unavailable");
      expect(sent()).toEqual([]);
    } finally {
      await client.close();
      await bridge.stop();
    }
  });
});

describe("code mode on the 2026-07-28 wire", () => {
  it("refuses a destructive call inside a program instead of asking (a retry would rerun the program)", async () => {
    const bridge = await startHttpBridge(SPEC, [
      "--destructive",
      "confirm",
      "--mode",
      "code",
      "--base-url",
      upstream.url,
    ]);
    const questions: string[] = [];
    const client = modernClient(questions, () => ({ action: "accept", content: { confirm: true } }));
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
      const result = await client.callTool({
        name: "execute",
        arguments: {
          program:
            "const pet = await api.getPet({ petId: 7 });\nreturn await api.deletePet({ petId: pet.id });",
        },
      });
      expect(textOf(result)).toContain("a program cannot be paused for it");
      expect(questions).toEqual([]);
      expect(sent()).toEqual(["GET /pets/7"]);
    } finally {
      await client.close();
      await bridge.stop();
    }
  });
});

/** The raw 2026-07-28 rounds, as a client that does what it likes would send them. */
const RAW_ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};
const RAW_ACCEPT = { confirm: { action: "accept", content: { confirm: true } } };

/** One tools/call round of deletePet in raw JSON over HTTP; the JSON-RPC result (a JSON answer or the one event of an SSE one). */
async function rawCall(
  bridge: HttpBridge,
  args: Record<string, unknown>,
  retry: { requestState?: string; inputResponses?: Record<string, unknown> } = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(bridge.endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/call",
      "mcp-name": "deletePet",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "deletePet", arguments: args, ...retry, _meta: RAW_ENVELOPE },
    }),
  });
  const { text, answer } = await readJsonRpcAnswer(response);
  const body = (answer ?? {}) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`no result: ${text}`);
  return body.result;
}

describe("the rounds in raw JSON over HTTP", () => {
  const KEY = "a shared key for the two replicas, 32 bytes or more";
  let first: HttpBridge;
  let second: HttpBridge;
  let other: HttpBridge;

  beforeAll(async () => {
    const args = ["--destructive", "confirm", "--base-url", upstream.url, "--stateless"];
    [first, second, other] = await Promise.all([
      startHttpBridge(SPEC, args, { OPENAPI_MCP_CONFIRM_KEY: KEY }),
      startHttpBridge(SPEC, args, { OPENAPI_MCP_CONFIRM_KEY: KEY }),
      startHttpBridge(SPEC, args),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop(), other?.stop()]);
  });

  /** The first round: the question and the state. */
  async function ask(bridge: HttpBridge, args: Record<string, unknown>): Promise<string> {
    const asked = await rawCall(bridge, args);
    expect(asked["resultType"]).toBe("input_required");
    const requests = asked["inputRequests"] as Record<
      string,
      { method: string; params: { message: string } }
    >;
    expect(requests["confirm"]?.method).toBe("elicitation/create");
    expect(requests["confirm"]?.params.message).toContain("deletePet");
    expect(typeof asked["requestState"]).toBe("string");
    expect(sent()).toEqual([]);
    return asked["requestState"] as string;
  }

  it("runs the call when the retry brings the state and the ticked box, once", async () => {
    const state = await ask(first, { petId: 7 });
    const done = await rawCall(first, { petId: 7 }, { requestState: state, inputResponses: RAW_ACCEPT });
    expect(done["isError"] ?? false).toBe(false);
    expect(sent()).toEqual(["DELETE /pets/7"]);
    const again = await rawCall(first, { petId: 7 }, { requestState: state, inputResponses: RAW_ACCEPT });
    expect(again["isError"]).toBe(true);
    expect(categoryOf(again)).toBe("confirmation_invalid");
    expect(JSON.stringify(again["content"])).toContain("already used");
    expect(sent()).toEqual(["DELETE /pets/7"]);
  });

  it("refuses a state that was altered", async () => {
    const state = await ask(first, { petId: 7 });
    const [prefix, body, mac] = state.split(".") as [string, string, string];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as { p: { tool: string } };
    payload.p.tool = "getPet";
    const altered = `${prefix}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${mac}`;
    const flipped = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
    for (const bad of [altered, flipped, "v1.not-a-state", "garbage"]) {
      const result = await rawCall(first, { petId: 7 }, { requestState: bad, inputResponses: RAW_ACCEPT });
      expect(result["isError"]).toBe(true);
      expect(categoryOf(result)).toBe("confirmation_invalid");
    }
    const result = await rawCall(first, { petId: 7 }, { requestState: altered, inputResponses: RAW_ACCEPT });
    expect(JSON.stringify(result["content"])).toContain("its signature does not match");
    expect(sent()).toEqual([]);
  });

  it("refuses a state asked for other arguments", async () => {
    const state = await ask(first, { petId: 7 });
    const result = await rawCall(first, { petId: 8 }, { requestState: state, inputResponses: RAW_ACCEPT });
    expect(result["isError"]).toBe(true);
    expect(categoryOf(result)).toBe("confirmation_invalid");
    expect(JSON.stringify(result["content"])).toContain("asked for another call");
    expect(sent()).toEqual([]);
  });

  it("asks again when an answer comes without the state of a question", async () => {
    const result = await rawCall(first, { petId: 7 }, { inputResponses: RAW_ACCEPT });
    expect(result["resultType"]).toBe("input_required");
    expect(sent()).toEqual([]);
  });

  it("lets a replica with the same OPENAPI_MCP_CONFIRM_KEY take the answer, and not one with its own key", async () => {
    const state = await ask(first, { petId: 7 });
    const elsewhere = await rawCall(other, { petId: 7 }, { requestState: state, inputResponses: RAW_ACCEPT });
    expect(categoryOf(elsewhere)).toBe("confirmation_invalid");
    expect(sent()).toEqual([]);
    const done = await rawCall(second, { petId: 7 }, { requestState: state, inputResponses: RAW_ACCEPT });
    expect(done["isError"] ?? false).toBe(false);
    expect(sent()).toEqual(["DELETE /pets/7"]);
  });
});

describe.skipIf(!hasRedisServer("confirm-mrtr e2e: replicas sharing the used numbers in Redis"))(
  "replicas that share --token-store redis://",
  () => {
    const KEY = "a shared key for the two replicas, 32 bytes or more";
    let redis: RedisServer | undefined;
    let first: HttpBridge;
    let second: HttpBridge;

    beforeAll(async () => {
      redis = await startRedisServer();
      const args = ["--destructive", "confirm", "--base-url", upstream.url, "--stateless"];
      const env = { OPENAPI_MCP_CONFIRM_KEY: KEY, OPENAPI_MCP_TOKEN_STORE: redis.url };
      [first, second] = await Promise.all([
        startHttpBridge(SPEC, args, env),
        startHttpBridge(SPEC, args, env),
      ]);
    }, 30_000);

    afterAll(async () => {
      await Promise.all([first?.stop(), second?.stop()]);
      redis?.stop();
    });

    it("refuses an answer replayed to the other replica: the DELETE is sent once", async () => {
      const asked = await rawCall(first, { petId: 9 });
      const state = asked["requestState"] as string;
      expect(typeof state).toBe("string");
      const done = await rawCall(first, { petId: 9 }, { requestState: state, inputResponses: RAW_ACCEPT });
      expect(done["isError"] ?? false).toBe(false);
      expect(sent()).toEqual(["DELETE /pets/9"]);
      const replayed = await rawCall(
        second,
        { petId: 9 },
        { requestState: state, inputResponses: RAW_ACCEPT },
      );
      expect(replayed["isError"]).toBe(true);
      expect(categoryOf(replayed)).toBe("confirmation_invalid");
      expect(JSON.stringify(replayed["content"])).toContain("already used");
      expect(sent()).toEqual(["DELETE /pets/9"]);
    });

    it("lets the other replica take a fresh answer", async () => {
      const state = (await rawCall(first, { petId: 10 }))["requestState"] as string;
      const done = await rawCall(second, { petId: 10 }, { requestState: state, inputResponses: RAW_ACCEPT });
      expect(done["isError"] ?? false).toBe(false);
      expect(sent()).toEqual(["DELETE /pets/10"]);
    });
  },
);
