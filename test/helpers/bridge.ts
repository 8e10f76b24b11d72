/**
 * Connects a real MCP SDK Client to the bridge three ways: in memory (library), over stdio (the
 * built CLI as a child process) and over Streamable HTTP (the built CLI listening on a port).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, resolve } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { BridgeModel } from "../../src/model/types.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = resolve(ROOT, "dist/cli/main.js");

export function fixture(...segments: string[]): string {
  return resolve(ROOT, "fixtures", ...segments);
}

export interface BridgeOptions {
  baseUrl?: string;
  auth?: Record<string, string>;
  headers?: Record<string, string>;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  mode?: "tools" | "discovery" | "code" | "auto";
  allowCredentialArguments?: string[];
}

export interface Connected {
  client: Client;
  /** Every tool, all pages of tools/list (listing also primes the client's outputSchema checks). */
  tools: Tool[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

type Library = typeof import("../../src/index.js");

/** The library, imported lazily so files that only spawn the CLI do not depend on it. */
export async function library(): Promise<Library> {
  return import("../../src/index.js");
}

function newClient(): Client {
  return new Client({ name: "openapi-mcp-bridge-e2e", version: "1.0.0" });
}

export async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  throw new Error("tools/list never ended");
}

function callVia(client: Client) {
  return async (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A real Client connected in memory to `createBridgeServer(model, options)`. */
export async function connectModel(model: BridgeModel, options: BridgeOptions = {}): Promise<Connected> {
  const { createBridgeServer } = await library();
  const server = createBridgeServer(model, options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = newClient();
  await client.connect(clientTransport);
  const tools = await listAllTools(client);
  return {
    client,
    tools,
    call: callVia(client),
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** `buildModel(spec)` then {@link connectModel}. */
export async function connectSpec(
  spec: string,
  options: BridgeOptions = {},
  build: { outputSchemas?: boolean } = {},
): Promise<Connected> {
  const { buildModel } = await library();
  const model = await buildModel(spec, build);
  return connectModel(model, options);
}

function collect(stream: Readable | null | undefined): () => string {
  let text = "";
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

export interface SpawnedConnected extends Connected {
  stderr(): string;
}

/** Only the variables a child needs, plus `env`; the test runner's OPENAPI_MCP_AUTH_* never leak in. */
function childEnv(env: Record<string, string> = {}): Record<string, string> {
  const base: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "SYSTEMROOT"]) {
    const value = process.env[key];
    if (value !== undefined) base[key] = value;
  }
  return { ...base, ...env };
}

/** The built CLI serving `spec` over stdio, with a real Client on the other end. */
export async function connectStdio(
  spec: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<SpawnedConnected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", spec, ...args],
    env: childEnv(env),
    cwd: ROOT,
    stderr: "pipe",
  });
  const stderr = collect(transport.stderr as Readable | null);
  const client = newClient();
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`stdio bridge did not start: ${String(error)}\nstderr:\n${stderr()}`);
  }
  const tools = await listAllTools(client);
  return { client, tools, call: callVia(client), stderr, close: () => client.close() };
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface HttpBridge {
  port: number;
  /** `http://127.0.0.1:PORT/mcp` */
  endpoint: string;
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `serve spec --transport http --port N ...args` and waits until the endpoint answers;
 * `port` when the arguments must name it (a free one otherwise).
 */
export async function startHttpBridge(
  spec: string,
  args: string[] = [],
  env: Record<string, string> = {},
  port: number | undefined = undefined,
): Promise<HttpBridge> {
  port ??= await freePort();
  const child = spawn(
    process.execPath,
    [CLI, "serve", spec, "--transport", "http", "--port", String(port), ...args],
    {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolveExit) =>
    child.once("exit", (code) => {
      exited = code;
      resolveExit();
    }),
  );
  const endpoint = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`http bridge exited with ${exited}\nstderr:\n${stderr()}`);
    try {
      await fetch(endpoint, { method: "GET", signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`http bridge never answered on ${endpoint}\nstderr:\n${stderr()}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    port,
    endpoint,
    process: child,
    stdout,
    stderr,
    async stop() {
      if (exited === undefined) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
        await exit;
        clearTimeout(timer);
      }
    },
  };
}

export interface HttpConnected extends Connected {
  transport: StreamableHTTPClientTransport;
}

/** A real Client over Streamable HTTP; `headers` are sent on every request to the bridge. */
export async function connectHttp(
  bridge: HttpBridge,
  headers?: Record<string, string>,
): Promise<HttpConnected> {
  const transport = new StreamableHTTPClientTransport(
    new URL(bridge.endpoint),
    headers === undefined ? undefined : { requestInit: { headers } },
  );
  const client = newClient();
  await client.connect(transport);
  const tools = await listAllTools(client);
  return { client, transport, tools, call: callVia(client), close: () => client.close() };
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI to completion (killed after `timeoutMs`); `uid` runs it as another user
 * (with the same number as its group), which only root may ask for.
 */
export function runCli(
  args: string[],
  options: { stdin?: string; env?: Record<string, string>; timeoutMs?: number; uid?: number } = {},
): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: childEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
      ...(options.uid !== undefined ? { uid: options.uid, gid: options.uid } : {}),
    });
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 15_000);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout: stdout(), stderr: stderr() });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin ?? "");
  });
}

/**
 * All text content of a tool result, joined by newlines: of a result from the 1.x client or
 * from the runtime (the v2 SDK's type, whose structuredContent is any JSON).
 */
export function textOf(result: { content: ReadonlyArray<{ type: string }> }): string {
  return result.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

/** A Node stack-trace line, which must never reach a user. */
export const STACK_LINE = /^\s+at .+[:(].*\d+:\d+\)?$/m;
