/**
 * Generated projects as a user gets them, driven by a real MCP SDK Client:
 * - petstore: `openapi-mcp-bridge generate`, then `npm install` and `npm run build` in the
 *   project, then `node dist/index.js` over stdio and over Streamable HTTP, configured by flags
 *   and by environment variables;
 * - parity: the generated server and `openapi-mcp-bridge serve` on the same spec, flags and
 *   calls against the same recording upstream give identical tools/list, identical results and
 *   identical requests on the wire (only the multipart boundary differs, and is normalised).
 *   On petstore (in tools, discovery and code mode: search, describe, call, execute) and on the whole wire
 *   table (every style/explode, body kind and security case).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/index.js";
import type { BridgeModel } from "../../src/model/types.js";
import { buildSearchIndex } from "../../src/runtime/discovery/search.js";
import {
  connectStdio,
  fixture,
  freePort,
  listAllTools,
  ROOT,
  runCli,
  type SpawnedConnected,
  textOf,
} from "../helpers/bridge.js";
import { type RecordedRequest, startUpstream, type Upstream } from "../helpers/upstream.js";
import { scratchDir } from "./generated-support.js";
import { REFUSED_CASES, WIRE_CASES, WIRE_SPECS, wireResponder } from "./wire-cases.js";

const run = promisify(execFile);
const PETSTORE = fixture("petstore", "petstore.openapi30.yaml");
const WIRE = fixture(WIRE_SPECS["3.1"]);

let scratch: string;
let petstoreDir: string;
let wireDir: string;
let upstream: Upstream;

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "SYSTEMROOT", "npm_config_cache"]) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, ...extra };
}

async function npm(args: string[], cwd: string): Promise<void> {
  try {
    await run("npm", args, { cwd, env: baseEnv(), maxBuffer: 16 * 1024 * 1024, timeout: 600_000 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}${e.stderr ?? e.message}`);
  }
}

async function generate(spec: string, dir: string, extra: string[] = []): Promise<void> {
  const result = await runCli(["generate", spec, "-o", dir, ...extra], { timeoutMs: 60_000 });
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  scratch = scratchDir("omb-generated");
  petstoreDir = join(scratch, "petstore");
  wireDir = join(scratch, "wire");
  upstream = await startUpstream(wireResponder);
  await generate(PETSTORE, petstoreDir);
  await generate(WIRE, wireDir);
  // The wire project borrows this repository's packages and builds while petstore installs its own.
  symlinkSync(join(ROOT, "node_modules"), join(wireDir, "node_modules"), "dir");
  await Promise.all([
    (async () => {
      await npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], petstoreDir);
      await npm(["run", "build", "--silent"], petstoreDir);
    })(),
    npm(["run", "build", "--silent"], wireDir),
  ]);
}, 900_000);

afterAll(async () => {
  await upstream?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function collect(stream: Readable | null | undefined): () => string {
  let text = "";
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/** The generated server (`node dist/index.js ...args`) over stdio with a real Client. */
async function connectGenerated(
  dir: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<SpawnedConnected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(dir, "dist", "index.js"), ...args],
    env: baseEnv(env),
    cwd: dir,
    stderr: "pipe",
  });
  const stderr = collect(transport.stderr as Readable | null);
  const client = new Client({ name: "openapi-mcp-bridge-e2e", version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`generated server did not start: ${String(error)}\nstderr:\n${stderr()}`);
  }
  const tools = await listAllTools(client);
  return {
    client,
    tools,
    stderr,
    call: async (name, callArgs = {}) =>
      (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    close: () => client.close(),
  };
}

describe("the generated petstore project", () => {
  it("was installed and built with npm install && npm run build", () => {
    for (const file of [
      "dist/index.js",
      "dist/api.js",
      "dist/tools/get-pet-by-id.js",
      "dist/runtime/server/mcp-server.js",
    ]) {
      expect(existsSync(join(petstoreDir, file)), file).toBe(true);
    }
    expect(existsSync(join(petstoreDir, "node_modules", "@modelcontextprotocol", "server"))).toBe(true);
    expect(existsSync(join(petstoreDir, "node_modules", "@modelcontextprotocol", "node"))).toBe(true);
    expect(existsSync(join(petstoreDir, "node_modules", "openapi-mcp-bridge"))).toBe(false);
  });

  it("carries its tools' search index in its model, as serve builds it for the same tools", async () => {
    const { model } = (await import(pathToFileURL(join(petstoreDir, "dist", "api.js")).href)) as {
      model: BridgeModel;
    };
    const built = await buildModel(PETSTORE);
    expect(model.searchIndex).toEqual(buildSearchIndex(built.tools));
  });

  it("serves over stdio, configured by environment variables", { timeout: 60_000 }, async () => {
    upstream.reset();
    const server = await connectGenerated(petstoreDir, [], {
      OPENAPI_MCP_BASE_URL: `${upstream.url}/v2`,
      OPENAPI_MCP_AUTH_API_KEY: "key-from-env",
      OPENAPI_MCP_HEADERS: '{"X-Tenant": "acme"}',
    });
    try {
      expect(server.tools.map((t) => t.name)).toContain("getPetById");
      expect(server.tools).toHaveLength(20);
      const result = await server.call("getPetById", { petId: 7 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(
        upstream.requests.map((r) => [r.method, r.rawUrl, r.header("api_key"), r.header("x-tenant")]),
      ).toEqual([["GET", "/v2/pet/7", "key-from-env", "acme"]]);
      const invalid = await server.call("getPetById", { petId: "seven" });
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toContain("petId");
      expect(server.stderr()).toContain("Swagger Petstore: 20 tools over stdio");
    } finally {
      await server.close();
    }
  });

  it("serves Prometheus metrics with --metrics-port, its OpenTelemetry packages installed with it", {
    timeout: 60_000,
  }, async () => {
    expect(existsSync(join(petstoreDir, "node_modules", "@opentelemetry", "sdk-metrics"))).toBe(true);
    const metricsPort = await freePort();
    const server = await connectGenerated(petstoreDir, ["--metrics-port", String(metricsPort)], {
      OPENAPI_MCP_BASE_URL: `${upstream.url}/v2`,
    });
    try {
      const result = await server.call("getPetById", { petId: 7 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(server.stderr()).toContain(`Prometheus metrics at http://127.0.0.1:${metricsPort}/metrics`);
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(text).toMatch(/^omb_tool_calls_total\{tool="getPetById",mode="tools",outcome="ok"[^}]*\} 1$/m);
    } finally {
      await server.close();
    }
  });

  it("selects tools at start-up like serve: --read-only, OPENAPI_MCP_DESTRUCTIVE", {
    timeout: 60_000,
  }, async () => {
    const readOnly = await connectGenerated(petstoreDir, ["--read-only", "--base-url", upstream.url]);
    const refusing = await connectGenerated(petstoreDir, ["--include-tags", "pet"], {
      OPENAPI_MCP_DESTRUCTIVE: "refuse",
      OPENAPI_MCP_BASE_URL: upstream.url,
    });
    try {
      expect(readOnly.tools.map((t) => t.name).sort()).toEqual([
        "findPetsByStatus",
        "findPetsByTags",
        "getInventory",
        "getOrderById",
        "getPetById",
        "getUserByName",
        "loginUser",
        "logoutUser",
      ]);
      expect(refusing.tools.map((t) => t.name)).toEqual([
        "addPet",
        "findPetsByStatus",
        "findPetsByTags",
        "getPetById",
        "updatePetWithForm",
        "uploadFile",
      ]);
      await expect(readOnly.call("deletePet", { petId: 1 })).rejects.toThrow(/Unknown tool/);
    } finally {
      await readOnly.close();
      await refusing.close();
    }
  });

  it("serves over Streamable HTTP with --transport http --port, behind OPENAPI_MCP_HTTP_TOKEN", {
    timeout: 60_000,
  }, async () => {
    upstream.reset();
    const port = await freePort();
    const child: ChildProcess = spawn(
      process.execPath,
      [
        join(petstoreDir, "dist", "index.js"),
        "--transport",
        "http",
        "--port",
        String(port),
        "--base-url",
        upstream.url,
      ],
      {
        cwd: petstoreDir,
        env: baseEnv({ OPENAPI_MCP_HTTP_TOKEN: "bridge-token-1" }),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const stderr = collect(child.stderr);
    try {
      const deadline = Date.now() + 20_000;
      while (!stderr().includes("tools on http://")) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no HTTP server:\n${stderr()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const endpoint = new URL(`http://127.0.0.1:${port}/mcp`);
      const anonymous = new Client({ name: "openapi-mcp-bridge-e2e", version: "1.0.0" });
      await expect(anonymous.connect(new StreamableHTTPClientTransport(endpoint))).rejects.toThrow();
      const client = new Client({ name: "openapi-mcp-bridge-e2e", version: "1.0.0" });
      const headers = { authorization: "Bearer bridge-token-1" };
      await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
      try {
        expect(await listAllTools(client)).toHaveLength(20);
        const result = (await client.callTool({ name: "getInventory", arguments: {} })) as CallToolResult;
        expect(result.isError ?? false, textOf(result)).toBe(false);
        expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/store/inventory"]);
      } finally {
        await client.close();
      }
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("explains its flags and refuses bad ones", { timeout: 60_000 }, async () => {
    const help = await run(process.execPath, [join(petstoreDir, "dist", "index.js"), "--help"], {
      env: baseEnv(),
    });
    expect(help.stderr).toContain("OPENAPI_MCP_BASE_URL");
    // Rendered from the same table as serve's options: every flag and variable serve takes.
    expect(help.stderr).toContain("--auth-config FILE");
    expect(help.stderr).toContain("JSON or YAML");
    expect(help.stderr).toContain("[OPENAPI_MCP_MAX_BODY_BYTES]");
    const version = await run(process.execPath, [join(petstoreDir, "dist", "index.js"), "--version"], {
      env: baseEnv(),
    });
    expect(version.stderr).toMatch(/^Swagger Petstore 1\.0\.0 \([a-z-]+ \d+\.\d+\.\d+\)\n$/);
    expect(version.stdout).toBe("");
    for (const [args, code] of [
      [["--transport", "carrier-pigeon"], "OMB_OPTION_INVALID --transport: expected one of stdio, http"],
      [["--port", "abc"], "OMB_OPTION_INVALID --port: expected a port number from 0 to 65535"],
      [["--base-url", "ftp://x"], "OMB_BASE_URL --base-url:"],
      [["--no-such-flag"], "OMB_OPTION_UNKNOWN unknown option --no-such-flag"],
    ] as const) {
      const failed = await run(process.execPath, [join(petstoreDir, "dist", "index.js"), ...args], {
        env: baseEnv(),
      }).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failed?.code, args.join(" ")).toBe(2);
      expect(failed?.stderr).toMatch(new RegExp(`^error ${code}`));
      expect(failed?.stderr).toContain("\n  hint: ");
    }
  });

  it("reads a YAML --auth-config, as serve does", { timeout: 60_000 }, async () => {
    upstream.reset();
    const config = join(scratch, "auth.yaml");
    writeFileSync(config, "auth:\n  api_key: { env: PETSTORE_KEY }\n");
    const server = await connectGenerated(
      petstoreDir,
      ["--auth-config", config, "--base-url", `${upstream.url}/v2`],
      {
        PETSTORE_KEY: "key-from-yaml",
      },
    );
    try {
      const result = await server.call("getPetById", { petId: 3 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => r.header("api_key"))).toEqual(["key-from-yaml"]);
    } finally {
      await server.close();
    }
  });

  it("stops with OMB_PORT_IN_USE and exit code 1 on a port another process holds", {
    timeout: 60_000,
  }, async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const failed = await run(
        process.execPath,
        [join(petstoreDir, "dist", "index.js"), "--transport", "http", "--port", String(port)],
        { env: baseEnv() },
      ).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(`error OMB_PORT_IN_USE cannot listen on 127.0.0.1:${port}`);
      expect(failed?.stderr).toContain("hint: ");
    } finally {
      busy.close();
    }
  });
});

/** Request facts that must match between the two servers, with the multipart boundary normalised. */
function wireView(request: RecordedRequest): unknown {
  const boundary = /boundary=([^;\s]+)/.exec(request.header("content-type") ?? "")?.[1];
  const normalise = (text: string) => (boundary ? text.split(boundary).join("BOUNDARY") : text);
  return {
    method: request.method,
    url: request.rawUrl,
    headers: request.rawHeaders.map(([name, value]) => [name, normalise(value)]),
    body: normalise(request.body.toString("latin1")),
  };
}

function resultView(result: CallToolResult, requests: RecordedRequest[]): string {
  let text = JSON.stringify(result);
  for (const request of requests) {
    const boundary = /boundary=([^;\s]+)/.exec(request.header("content-type") ?? "")?.[1];
    if (boundary) {
      text = text.split(boundary).join("BOUNDARY");
      // The echo carries the body as base64; re-encode with the boundary replaced.
      const body = request.body.toString("latin1");
      const base64 = Buffer.from(body, "latin1").toString("base64");
      text = text
        .split(base64)
        .join(Buffer.from(body.split(boundary).join("BOUNDARY"), "latin1").toString("base64"));
    }
  }
  return text;
}

interface Pair {
  serve: SpawnedConnected;
  generated: SpawnedConnected;
}

async function connectPair(
  spec: string,
  dir: string,
  args: string[],
  env: Record<string, string>,
): Promise<Pair> {
  const serve = await connectStdio(spec, args, env);
  const generated = await connectGenerated(dir, args, env);
  return { serve, generated };
}

async function expectSameCall(pair: Pair, name: string, args: Record<string, unknown>): Promise<void> {
  const outcome = async (server: SpawnedConnected) => {
    upstream.reset();
    const result = await server
      .call(name, args)
      .catch((error: unknown) => ({ protocolError: String(error) }));
    const requests = [...upstream.requests];
    return {
      result: "protocolError" in result ? JSON.stringify(result) : resultView(result, requests),
      requests: requests.map(wireView),
    };
  };
  const fromServe = await outcome(pair.serve);
  const fromGenerated = await outcome(pair.generated);
  expect(fromGenerated.requests, `${name}: requests`).toEqual(fromServe.requests);
  expect(fromGenerated.result, `${name}: result`).toBe(fromServe.result);
}

function sortedTools(tools: Tool[]): Tool[] {
  return [...tools].sort((a, b) => (a.name < b.name ? -1 : 1));
}

describe("parity: the generated server and serve", () => {
  describe("petstore", () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await connectPair(
        PETSTORE,
        petstoreDir,
        ["--base-url", `${upstream.url}/v2`, "--auth", "api_key=k-123"],
        {
          OPENAPI_MCP_AUTH_PETSTORE_AUTH: "oauth-token-456",
        },
      );
    }, 60_000);
    afterAll(async () => {
      await pair?.serve.close();
      await pair?.generated.close();
    });

    it("list the same tools, in the same order, and introduce themselves the same way", () => {
      expect(pair.generated.tools).toEqual(pair.serve.tools);
      // ... under its own name: the generated server is the project's package, serve is the bridge.
      const pkg = JSON.parse(readFileSync(join(petstoreDir, "package.json"), "utf8")) as {
        name: string;
        version: string;
      };
      expect(pkg.name).toBe("swagger-petstore");
      expect(pair.generated.client.getServerVersion()).toEqual({
        ...pair.serve.client.getServerVersion(),
        name: pkg.name,
        version: pkg.version,
      });
      expect(pair.generated.client.getInstructions()).toBe(pair.serve.client.getInstructions());
    });

    it("serve the same resources: the MCP Apps result view, byte for byte", async () => {
      const uri = "ui://openapi-mcp-bridge/result-view";
      expect(pair.generated.client.getServerCapabilities()?.resources).toEqual(
        pair.serve.client.getServerCapabilities()?.resources,
      );
      expect(await pair.generated.client.listResources()).toEqual(await pair.serve.client.listResources());
      const fromServe = await pair.serve.client.readResource({ uri });
      expect(fromServe.contents[0]?.mimeType).toBe("text/html;profile=mcp-app");
      expect(await pair.generated.client.readResource({ uri })).toEqual(fromServe);
    });

    it.each<[string, Record<string, unknown>]>([
      ["getPetById", { petId: 1 }],
      ["findPetsByStatus", { status: ["available", "sold"] }],
      ["findPetsByTags", { tags: "one" }],
      [
        "addPet",
        { name: "Rex", photoUrls: ["https://x/1.png"], tags: [{ id: 1, name: "good" }], status: "pending" },
      ],
      ["updatePetWithForm", { petId: 3, name: "Max", status: "sold" }],
      [
        "uploadFile",
        { petId: 3, additionalMetadata: "meta", file: { base64: "aGVsbG8=", filename: "a.txt" } },
      ],
      ["deletePet", { petId: 4, api_key: "header-key" }],
      ["getInventory", {}],
      ["loginUser", { username: "u", password: "p w&d" }],
      ["createUsersWithArrayInput", { body: [{ username: "a" }, { username: "b" }] }],
      ["getPetById", { petId: "not a number" }],
      ["noSuchTool", {}],
    ])("%s %j: same result, same requests", async (name, args) => {
      await expectSameCall(pair, name, args);
    });
  });

  describe("petstore in discovery mode", () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await connectPair(
        PETSTORE,
        petstoreDir,
        ["--mode", "discovery", "--base-url", `${upstream.url}/v2`, "--auth", "api_key=k-123"],
        {},
      );
    }, 60_000);
    afterAll(async () => {
      await pair?.serve.close();
      await pair?.generated.close();
    });

    it("list the same three tools and give the same instructions", () => {
      expect(pair.generated.tools.map((t) => t.name)).toEqual([
        "search_operations",
        "describe_operations",
        "call_operation",
      ]);
      expect(pair.generated.tools).toEqual(pair.serve.tools);
      expect(pair.generated.client.getInstructions()).toBe(pair.serve.client.getInstructions());
    });

    it.each<[string, Record<string, unknown>]>([
      ["search_operations", { query: "find pet by id" }],
      ["search_operations", { query: "place an order for a pet", limit: 3 }],
      ["search_operations", { query: "user", tag: "user", method: "get" }],
      ["search_operations", { query: "nothing like this at all" }],
      ["describe_operations", { names: ["getPetById", "addPet", "noSuchOperation"] }],
      ["describe_operations", { names: ["noSuchOperation"] }],
      ["call_operation", { name: "getPetById", arguments: { petId: 1 } }],
      ["call_operation", { name: "getPetById", arguments: { petId: "not a number" } }],
      ["call_operation", { name: "deletePet", arguments: { petId: 4, api_key: "header-key" } }],
      ["call_operation", { name: "getPetByID", arguments: {} }],
      ["call_operation", { arguments: {} }],
    ])("%s %j: same result, same requests", async (name, args) => {
      await expectSameCall(pair, name, args);
    });
  });

  describe("petstore in code mode", () => {
    let pair: Pair;
    beforeAll(async () => {
      // Generated with the result outlines that serve --mode code plans itself.
      const codeDir = join(scratch, "petstore-code");
      await generate(PETSTORE, codeDir, ["--result-schemas"]);
      symlinkSync(join(ROOT, "node_modules"), join(codeDir, "node_modules"), "dir");
      await npm(["run", "build", "--silent"], codeDir);
      pair = await connectPair(
        PETSTORE,
        codeDir,
        ["--mode", "code", "--base-url", `${upstream.url}/v2`, "--auth", "api_key=k-123"],
        {},
      );
    }, 300_000);
    afterAll(async () => {
      await pair?.serve.close();
      await pair?.generated.close();
    });

    it("list the same three tools and give the same instructions", () => {
      expect(pair.generated.tools.map((t) => t.name)).toEqual([
        "search_operations",
        "describe_operations",
        "execute",
      ]);
      expect(pair.generated.tools).toEqual(pair.serve.tools);
      expect(pair.generated.client.getInstructions()).toBe(pair.serve.client.getInstructions());
    });

    it.each<[string, Record<string, unknown>]>([
      ["search_operations", { query: "find pet by id" }],
      ["describe_operations", { names: ["getPetById", "addPet", "noSuchOperation"] }],
      ["execute", { program: "return await api.getPetById({ petId: 1 });" }],
      [
        "execute",
        {
          program:
            'const pets = await api.findPetsByStatus({ status: ["available"] });\nconst first = await api.getPetById({ petId: 2 });\nconsole.log(typeof pets);\nreturn { first, kind: typeof pets };',
        },
      ],
      [
        "execute",
        {
          program:
            'try { await api.getPetById({ petId: "x" }); } catch (e) { return [e.category, e.message]; }',
        },
      ],
      ["execute", { program: 'await api.deletePet({ petId: 4, api_key: "header-key" });\nreturn null;' }],
      ["execute", { program: "await api.getPetByID({});" }],
      ["execute", { program: "const x: number = 1;\nreturn x + 1;" }],
      ["execute", { program: "for (;;) {" }],
    ])("%s %j: same result, same requests", async (name, args) => {
      await expectSameCall(pair, name, args);
    });
  });

  describe("the wire table (OpenAPI 3.1)", () => {
    let pair: Pair;
    beforeAll(async () => {
      pair = await connectPair(
        WIRE,
        wireDir,
        [
          "--base-url",
          `${upstream.url}/base`,
          "--auth",
          "bearerAuth=tok-cli-123",
          "--auth",
          "basicAuth=alice:s3cret",
          "--header",
          "X-Tenant: acme",
        ],
        { OPENAPI_MCP_AUTH_APIKEYHEADER: "env-key-456" },
      );
    }, 60_000);
    afterAll(async () => {
      await pair?.serve.close();
      await pair?.generated.close();
    });

    it("list the same tools", () => {
      expect(sortedTools(pair.generated.tools)).toEqual(sortedTools(pair.serve.tools));
      expect(pair.generated.tools.map((t) => t.name)).toEqual(pair.serve.tools.map((t) => t.name));
    });

    const cases = [
      ...WIRE_CASES.filter((c) => c.versions.includes("3.1")).map((c) => [c.name, c.tool, c.args] as const),
      ...REFUSED_CASES.map((c) => [c.name, c.tool, c.args] as const),
    ];
    it.each(cases)("%s: same result, same requests", async (_name, tool, args) => {
      await expectSameCall(pair, tool, args);
    });
  });
});
