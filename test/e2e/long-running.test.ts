/**
 * Long-running operations through the built CLI (tasks/): a 202 with a status URL, in each
 * header style, answered with what to call next and finished by the documented status call
 * (every client, both protocol eras); as a task for a client that negotiated tasks (2025-11-25
 * through the 1.x SDK's task client, 2026-07-28 over the wire): status, result, cancel; upstream
 * failures and a poll budget spent become clear results.
 */
import { execFile } from "node:child_process";
import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectStdio,
  fixture,
  type HttpBridge,
  ROOT,
  runCli,
  type SpawnedConnected,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { type JobsApi, startJobsApi } from "../helpers/jobs-api.js";
import { readJsonRpcAnswer } from "../helpers/json-rpc-answer.js";
import { scratchDir } from "./generated-support.js";

const SPEC = fixture("long-running", "openapi.yaml");

let api: JobsApi;
let bridge: SpawnedConnected;

beforeAll(async () => {
  api = await startJobsApi();
  bridge = await connectStdio(SPEC, ["--base-url", `${api.url}/api`, "--auth", "key=sekrit-key-123"]);
});

afterAll(async () => {
  await bridge?.close();
  await api?.close();
});

function handleOf(result: { structuredContent?: unknown }): string {
  const operation = (result.structuredContent as { operation?: { handle?: string } } | undefined)?.operation;
  if (typeof operation?.handle !== "string") throw new Error(`no handle in ${JSON.stringify(result)}`);
  return operation.handle;
}

/** Calls the status until it is no longer running (at most `max` calls). */
async function follow(tool: string, handle: string, max = 6) {
  for (let i = 0; i < max; i++) {
    const result = await bridge.call(tool, { _operation: handle });
    if ((result.structuredContent as { operation?: unknown } | undefined)?.operation === undefined) {
      return { result, calls: i + 1 };
    }
    handle = handleOf(result);
  }
  throw new Error("still running");
}

describe("without tasks: the documented next call", () => {
  it("Location: accepted, then the status call returns the export", async () => {
    const accepted = await bridge.call("startExport", { name: "a" });
    expect(accepted.isError).toBeFalsy();
    expect(textOf(accepted)).toMatch(
      /accepted startExport .*call startExport again with only \{"_operation":/,
    );
    const { result, calls } = await follow("startExport", handleOf(accepted));
    expect(calls).toBe(3);
    expect(result.structuredContent ?? JSON.parse(textOf(result))).toMatchObject({ rows: 3 });
    // Status reads carry the credential, to the API's own origin.
    const reads = api.upstream.requests.filter((r) => r.rawPath.endsWith("/status"));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.header("x-api-key") === "sekrit-key-123")).toBe(true);
  });
});

describe("without tasks: each header style and outcome", () => {
  it("Operation-Location: the status body's Running, then Succeeded with the result", async () => {
    const accepted = await bridge.call("startAnalysis", { text: "hello world" });
    const first = await bridge.call("startAnalysis", { _operation: handleOf(accepted) });
    expect(textOf(first)).toMatch(/status "Running", 50% done/);
    const { result } = await follow("startAnalysis", handleOf(first));
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toMatchObject({ status: "Succeeded", result: { words: 2 } });
  });

  it("Azure-AsyncOperation with final-state-via original-uri: the machine read from its own URL", async () => {
    api.upstream.reset();
    const accepted = await bridge.call("createVm", { name: "vm1", size: "small" });
    expect(textOf(accepted)).toMatch(/accepted createVm/);
    const { result } = await follow("createVm", handleOf(accepted));
    expect(JSON.parse(textOf(result))).toEqual({ name: "vm1", provisioningState: "Succeeded" });
    expect(api.upstream.requests.map((r) => `${r.method} ${r.rawPath}`).at(-1)).toBe("GET /api/vms/vm1");
  });

  it("an upstream failure status is a clear error result", async () => {
    const accepted = await bridge.call("startAnalysis", { text: "fail" });
    const { result } = await follow("startAnalysis", handleOf(accepted));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/startAnalysis ended failed \(status "Failed": quota exceeded\)/);
  });

  it("a 202 the spec did not announce is followed too", async () => {
    const accepted = await bridge.call("buildReport", {});
    const { result } = await follow("buildReport", handleOf(accepted));
    expect(JSON.parse(textOf(result))).toMatchObject({ rows: 3 });
  });

  it("says the API's Retry-After", async () => {
    const accepted = await bridge.call("startExport", { name: "wait" });
    expect(textOf(accepted)).toMatch(/again in about 7 s \(the API's Retry-After\)/);
    expect(accepted.structuredContent).toMatchObject({
      operation: { state: "running", retryAfterSeconds: 7 },
    });
  });

  it("a status on another origin is not followed, and says so", async () => {
    api.upstream.reset();
    const accepted = await bridge.call("startAnalysis", { text: "elsewhere" });
    expect(textOf(accepted)).toMatch(
      /its status is on another host \(http:\/\/localhost:\d+\), which this bridge does not call/,
    );
    expect(accepted.structuredContent).toBeUndefined();
    expect(api.upstream.requests).toHaveLength(1);
  });

  it("the handle is opaque; an altered or made-up one, or another operation's, is refused before anything is sent", async () => {
    const accepted = await bridge.call("startExport", { name: "b" });
    const handle = handleOf(accepted);
    // The status URL is not in the result, not even encoded.
    expect(textOf(accepted)).not.toMatch(/exports\/op\d+/);
    expect(Buffer.from(handle.slice(4), "base64url").toString("latin1")).not.toContain("exports");
    // The next-to-last character changed (to another one, whatever it was: a test that kept it would pass a good handle).
    const flipped = `${handle.slice(0, -2)}${handle.at(-2) === "A" ? "B" : "A"}${handle.slice(-1)}`;
    expect(flipped).not.toBe(handle);
    const madeUp = `op2.${Buffer.from(
      JSON.stringify({
        tool: "startExport",
        status: "http://169.254.169.254/latest/meta-data",
        header: "location",
        expires: 9e9,
      }),
    ).toString("base64url")}`;
    api.upstream.reset();
    for (const forged of [flipped, madeUp]) {
      const refused = await bridge.call("startExport", { _operation: forged });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/the handle was altered or was not made by this bridge/);
    }
    const other = await bridge.call("startAnalysis", { _operation: handle });
    expect(textOf(other)).toMatch(/the handle is of startExport, not of startAnalysis/);
    expect(api.upstream.requests).toHaveLength(0);
  });
});

describe("discovery and code mode", () => {
  it("discovery: call_operation answers with the handle, and the same call with it finishes", async () => {
    const discovery = await connectStdio(SPEC, ["--base-url", `${api.url}/api`, "--mode", "discovery"]);
    try {
      const accepted = await discovery.call("call_operation", {
        name: "startExport",
        arguments: { name: "d" },
      });
      let handle = handleOf(accepted);
      let result = accepted;
      for (let i = 0; i < 6 && (result.structuredContent as { operation?: unknown })?.operation; i++) {
        result = await discovery.call("call_operation", {
          name: "startExport",
          arguments: { _operation: handle },
        });
        if ((result.structuredContent as { operation?: unknown })?.operation) handle = handleOf(result);
      }
      expect(JSON.parse(textOf(result))).toMatchObject({ rows: 3 });
    } finally {
      await discovery.close();
    }
  });

  it("code mode: a program's call waits through the polls and gets the result", async () => {
    const code = await connectStdio(SPEC, ["--base-url", `${api.url}/api`, "--mode", "code"]);
    api.upstream.reset();
    try {
      const result = await code.call("execute", {
        program: `const vm = await api.createVm({ name: "vm9", size: "s" });
const analysis = await api.startAnalysis({ text: "two words" });
return { vm, words: analysis.result.words };`,
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(textOf(result))).toEqual({
        vm: { name: "vm9", provisioningState: "Succeeded" },
        words: 2,
      });
      const polls = api.upstream.requests.filter((r) => r.rawPath.startsWith("/api/azops/"));
      expect(polls).toHaveLength(3);
    } finally {
      await code.close();
    }
  });

  it("code mode: past --operation-wait the program gets the handle, and a later call finishes", async () => {
    const code = await connectStdio(SPEC, [
      "--base-url",
      `${api.url}/api`,
      "--mode",
      "code",
      "--operation-wait",
      "1",
    ]);
    try {
      const started = await code.call("execute", {
        program: `const op = await api.startExport({ name: "e" }); return op;`,
      });
      const { operation } = JSON.parse(textOf(started)) as { operation: { state: string; handle: string } };
      expect(operation.state).toBe("running");
      const handle = operation.handle;
      api.upstream.reset();
      const finished = await code.call("execute", {
        program: `return await api.startExport({ _operation: ${JSON.stringify(handle)} });`,
      });
      expect(finished.isError).toBeFalsy();
      // The wait bound is 1 ms: the second program's call read the status once or more, then the file.
      expect(textOf(finished)).toMatch(/"rows":3|"state":"running"/);
    } finally {
      await code.close();
    }
  });
});

describe("tasks, 2025-11-25 (the 1.x SDK's task client)", () => {
  it("long-running tools say taskSupport optional, the others nothing", () => {
    const support = Object.fromEntries(bridge.tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toEqual({
      startExport: "optional",
      startAnalysis: "optional",
      createVm: "optional",
      getVm: undefined,
      cancelOperation: undefined,
      buildReport: undefined,
    });
  });

  it("a call as a task: created, working, then the result", async () => {
    const stream = bridge.client.experimental.tasks.callToolStream(
      { name: "startAnalysis", arguments: { text: "task words" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    let final: unknown;
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === "result") final = message.result;
      if (message.type === "error") throw message.error;
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(kinds.at(-1)).toBe("result");
    expect(JSON.parse(textOf(final as { content: { type: string }[] }))).toMatchObject({
      status: "Succeeded",
      result: { words: 2 },
    });
  });

  it("cancel: the task is cancelled, polling stops, and the spec's DELETE is sent", async () => {
    const operation = api.nextId();
    const created = await bridge.client.request(
      { method: "tools/call", params: { name: "startAnalysis", arguments: { text: "forever" }, task: {} } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    await api.polled(operation, 2);
    const cancelled = await bridge.client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe("cancelled");
    const deleted = await waitFor(() =>
      api.upstream.requests.find(
        (r) => r.method === "DELETE" && r.rawPath === `/api/operations/${operation}`,
      ),
    );
    expect(deleted?.header("x-api-key")).toBe("sekrit-key-123");
    const polls = api.polls.get(operation);
    const task = await bridge.client.experimental.tasks.getTask(taskId);
    expect(task.status).toBe("cancelled");
    expect(api.polls.get(operation)).toBe(polls);
    expect((await bridge.client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(taskId);
  });

  it("cancel of an operation the spec cannot cancel: polling stops, nothing is deleted", async () => {
    api.upstream.reset();
    const operation = api.nextId();
    const created = await bridge.client.request(
      { method: "tools/call", params: { name: "startExport", arguments: { name: "forever" }, task: {} } },
      CreateTaskResultSchema,
    );
    await api.polled(operation, 2);
    const cancelled = await bridge.client.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled.status).toBe("cancelled");
    const result = await bridge.client.experimental.tasks.getTaskResult(
      created.task.taskId,
      CallToolResultSchema,
    );
    expect(result.isError).toBe(true);
    expect(api.upstream.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  it("a poll budget spent is a clear result with the handle", async () => {
    const short = await connectStdio(SPEC, ["--base-url", `${api.url}/api`, "--operation-wait", "800"]);
    try {
      const created = await short.client.request(
        { method: "tools/call", params: { name: "startExport", arguments: { name: "forever" }, task: {} } },
        CreateTaskResultSchema,
      );
      const result = await short.client.experimental.tasks.getTaskResult(
        created.task.taskId,
        CallToolResultSchema,
      );
      expect(textOf(result)).toMatch(
        /The bridge stopped waiting after \d+ s \(its poll budget: 120 status reads, 1 s\)/,
      );
      expect(result.structuredContent).toMatchObject({ operation: { state: "running" } });
      const task = await short.client.experimental.tasks.getTask(created.task.taskId);
      expect(task.status).toBe("completed");
    } finally {
      await short.close();
    }
  });

  it("another connection cannot see or cancel the task", async () => {
    const created = await bridge.client.request(
      { method: "tools/call", params: { name: "startExport", arguments: { name: "x" }, task: {} } },
      CreateTaskResultSchema,
    );
    const other = await connectStdio(SPEC, ["--base-url", `${api.url}/api`]);
    try {
      await expect(other.client.experimental.tasks.getTask(created.task.taskId)).rejects.toThrow(
        /Unknown task/,
      );
    } finally {
      await other.close();
    }
  });
});

describe("2026-07-28", () => {
  const MODERN = "2026-07-28";
  let http: HttpBridge;

  beforeAll(async () => {
    http = await startHttpBridge(SPEC, ["--base-url", `${api.url}/api`, "--auth", "key=sekrit-key-123"]);
  }, 30_000);

  afterAll(async () => {
    await http?.stop();
  });

  const envelope = (extensions: Record<string, object>) => ({
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { extensions },
  });
  const TASKS = { "io.modelcontextprotocol/tasks": {} };

  /** One 2026-07-28 request on the wire; its JSON-RPC result or error. */
  async function send(
    method: string,
    params: Record<string, unknown>,
    name: string,
    headers: Record<string, string> = {},
  ): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
    const response = await fetch(http.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": method,
        "mcp-name": name,
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: envelope(TASKS) } }),
    });
    return (
      await readJsonRpcAnswer<{
        result?: Record<string, unknown>;
        error?: { code: number; message: string };
      }>(response)
    ).answer;
  }

  it("the server advertises the tasks extension", async () => {
    const discovered = await send("server/discover", {}, "");
    expect(discovered.result?.capabilities).toMatchObject({ extensions: TASKS });
  });

  it("a long-running call becomes a task; tasks/get gives its status, then its result inline", async () => {
    const created = await send("tools/call", { name: "createVm", arguments: { name: "vm2" } }, "createVm");
    expect(created.result).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000 });
    const taskId = created.result?.taskId as string;
    let task: Record<string, unknown> | undefined;
    for (let i = 0; i < 100; i++) {
      task = (await send("tasks/get", { taskId }, taskId)).result;
      if (task?.status !== "working") break;
      await new Promise((resolve) => setTimeout(resolve, Number(task?.pollIntervalMs) / 10));
    }
    expect(task).toMatchObject({ resultType: "complete", status: "completed" });
    const result = task?.result as { content: { type: string; text: string }[] };
    expect(JSON.parse(result.content[0]!.text)).toEqual({ name: "vm2", provisioningState: "Succeeded" });
  });

  it("a call the API answers at once is answered at once", async () => {
    const answered = await send("tools/call", { name: "getVm", arguments: { name: "vm3" } }, "getVm");
    expect(answered.result?.resultType).toBe("complete");
    expect(answered.result?.content).toEqual([
      { type: "text", text: '{"name":"vm3","provisioningState":"Succeeded"}' },
    ]);
  });

  it("tasks/cancel: acknowledged, the task is cancelled, and the spec's DELETE is sent", async () => {
    const operation = api.nextId();
    const created = await send(
      "tools/call",
      { name: "startAnalysis", arguments: { text: "forever" } },
      "startAnalysis",
    );
    const taskId = created.result?.taskId as string;
    await api.polled(operation, 1);
    const ack = await send("tasks/cancel", { taskId }, taskId);
    expect(ack.result).toMatchObject({ resultType: "complete" });
    expect(ack.result).not.toHaveProperty("taskId");
    expect((await send("tasks/get", { taskId }, taskId)).result?.status).toBe("cancelled");
    expect(
      await waitFor(() =>
        api.upstream.requests.find(
          (r) => r.method === "DELETE" && r.rawPath === `/api/operations/${operation}`,
        ),
      ),
    ).toBeDefined();
  });

  it("a task belongs to the credential of the stateless request that made it", async () => {
    const mine = { authorization: "Bearer user-a-token" };
    const created = await send(
      "tools/call",
      { name: "startExport", arguments: { name: "o" } },
      "startExport",
      mine,
    );
    const taskId = created.result?.taskId as string;
    expect((await send("tasks/get", { taskId }, taskId, mine)).result?.taskId).toBe(taskId);
    const theirs = await send("tasks/get", { taskId }, taskId, { authorization: "Bearer user-b-token" });
    expect(theirs.error?.message).toMatch(/Unknown task/);
    expect((await send("tasks/cancel", { taskId }, taskId)).error?.message).toMatch(/Unknown task/);
  });

  it("the task methods need the extension declared on the request (-32021)", async () => {
    const response = await fetch(http.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tasks/get",
        "mcp-name": "t1",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tasks/get",
        params: { taskId: "t1", _meta: envelope({}) },
      }),
    });
    const body = JSON.parse((await response.text()).replace(/^[\s\S]*?data: /, "").split("\n")[0]!) as {
      error?: { code: number };
    };
    expect(body.error?.code).toBe(-32021);
  });

  it("an unknown task is a JSON-RPC error", async () => {
    const answer = await send("tasks/get", { taskId: "nope" }, "nope");
    expect(answer.error?.message).toMatch(/Unknown task: nope/);
  });

  it("without the extension: the v2 SDK client finishes with the documented next call", async () => {
    const client = new Client(
      { name: "omb-lro-e2e", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(http.endpoint)));
    try {
      let result = await client.callTool({ name: "startExport", arguments: { name: "m" } });
      for (let i = 0; i < 6; i++) {
        const operation = (result.structuredContent as { operation?: { handle: string } } | undefined)
          ?.operation;
        if (operation === undefined) break;
        result = await client.callTool({ name: "startExport", arguments: { _operation: operation.handle } });
      }
      expect(JSON.parse(textOf(result as { content: { type: string }[] }))).toMatchObject({ rows: 3 });
    } finally {
      await client.close();
    }
  });
});

/** Polls a condition on events the test already caused (no fixed sleep before a check). */
async function waitFor<T>(find: () => T | undefined, timeoutMs = 5_000): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("two APIs in one bridge", () => {
  it("namespaced long-running tools: task support, the next call and a task", async () => {
    const second = await startJobsApi();
    const both = await connectStdio(SPEC, [SPEC, "--namespace", "one,two"], {
      OPENAPI_MCP_ONE__BASE_URL: `${api.url}/api`,
      OPENAPI_MCP_ONE__AUTH_KEY: "sekrit-key-123",
      OPENAPI_MCP_TWO__BASE_URL: `${second.url}/api`,
      OPENAPI_MCP_TWO__AUTH_KEY: "other-key-456",
    });
    try {
      const support = both.tools.filter((t) => t.execution?.taskSupport === "optional").map((t) => t.name);
      expect(support).toEqual(expect.arrayContaining(["one__startExport", "two__createVm"]));
      let result = await both.call("two__startExport", { name: "n" });
      for (let i = 0; i < 6; i++) {
        const operation = (result.structuredContent as { operation?: { handle: string } } | undefined)
          ?.operation;
        if (operation === undefined) break;
        result = await both.call("two__startExport", { _operation: operation.handle });
      }
      expect(JSON.parse(textOf(result))).toMatchObject({ rows: 3 });
      expect(second.upstream.requests.every((r) => r.header("x-api-key") === "other-key-456")).toBe(true);
      const created = await both.client.request(
        { method: "tools/call", params: { name: "one__createVm", arguments: { name: "vm5" }, task: {} } },
        CreateTaskResultSchema,
      );
      const final = await both.client.experimental.tasks.getTaskResult(
        created.task.taskId,
        CallToolResultSchema,
      );
      expect(JSON.parse(textOf(final))).toEqual({ name: "vm5", provisioningState: "Succeeded" });
    } finally {
      await both.close();
      await second.close();
    }
  });
});

describe("a generated project", () => {
  let dir: string;
  let generated: SpawnedConnected;

  beforeAll(async () => {
    dir = scratchDir("omb-long-running");
    const made = await runCli(["generate", SPEC, "-o", dir], { timeoutMs: 60_000 });
    expect(made.code, made.stderr).toBe(0);
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    await promisify(execFile)("npm", ["run", "build", "--silent"], { cwd: dir, timeout: 300_000 });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(dir, "dist", "index.js"), "--base-url", `${api.url}/api`, "--operation-wait", "60000"],
      env: { PATH: process.env.PATH ?? "", OPENAPI_MCP_AUTH_KEY: "sekrit-key-123" },
      cwd: dir,
      stderr: "ignore",
    });
    const client = new LegacyClient({ name: "omb-lro-generated", version: "1.0.0" });
    await client.connect(transport);
    const tools = (await client.listTools()).tools;
    generated = {
      client,
      tools,
      stderr: () => "",
      call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
      close: () => client.close(),
    };
  }, 400_000);

  afterAll(async () => {
    await generated?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("lists the same tools as serve, task support included", () => {
    expect(generated.tools).toEqual(bridge.tools);
  });

  it("follows an operation with the documented next call, and runs one as a task", async () => {
    let result = await generated.call("createVm", { name: "vm7" });
    for (let i = 0; i < 6; i++) {
      const operation = (result.structuredContent as { operation?: { handle: string } } | undefined)
        ?.operation;
      if (operation === undefined) break;
      result = await generated.call("createVm", { _operation: operation.handle });
    }
    expect(JSON.parse(textOf(result))).toEqual({ name: "vm7", provisioningState: "Succeeded" });
    const created = await generated.client.request(
      { method: "tools/call", params: { name: "startAnalysis", arguments: { text: "g" }, task: {} } },
      CreateTaskResultSchema,
    );
    const final = await generated.client.experimental.tasks.getTaskResult(
      created.task.taskId,
      CallToolResultSchema,
    );
    expect(JSON.parse(textOf(final))).toMatchObject({ status: "Succeeded", result: { words: 2 } });
  });
});
