/**
 * The built CLI over stdio: `openapi-mcp-bridge serve SPEC` with a real SDK Client on the other
 * end of the pipes. Same calls as in memory, flags instead of options, nothing but JSON-RPC on
 * stdout, and `tools --json` equal to tools/list.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toLegacyListing } from "../../src/runtime/server/meta-keys.js";
import {
  CLI,
  connectStdio,
  fixture,
  ROOT,
  runCli,
  type SpawnedConnected,
  STACK_LINE,
  textOf,
} from "../helpers/bridge.js";
import { mediaType, parseMultipart, startUpstream, type Upstream } from "../helpers/upstream.js";
import { PNG_BYTES, WIRE_SPECS, wireResponder } from "./wire-cases.js";

const SPEC = fixture(WIRE_SPECS["3.1"]);
const SECRETS = ["tok-cli-123", "env-key-456", "alice:s3cret"];

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream(wireResponder);
});

afterAll(async () => {
  await upstream.close();
});

describe("serve over stdio", () => {
  let bridge: SpawnedConnected;

  beforeAll(async () => {
    bridge = await connectStdio(
      SPEC,
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
  });

  afterAll(async () => {
    await bridge?.close();
  });

  beforeEach(() => {
    upstream.reset();
  });

  it("lists the wire API's tools", () => {
    const names = bridge.tools.map((t) => t.name);
    for (const name of ["pathMatrixExplode", "createPet", "uploadPetPhoto", "secureBearer"]) {
      expect(names).toContain(name);
    }
  });

  it("serialises matrix path parameters", async () => {
    const result = await bridge.call("pathMatrixExplode", {
      prim: 5,
      arr: [3, 4, 5],
      obj: { R: 100, G: 200, B: 150 },
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests.map((r) => r.rawUrl)).toEqual([
      "/base/path/matrix-explode/;prim=5/;arr=3;arr=4;arr=5/;R=100;G=200;B=150",
    ]);
  });

  it("sends a JSON body with a query parameter and the static header, and returns structuredContent", async () => {
    const result = await bridge.call("createPet", { dryRun: false, name: "Rex", age: 3 });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(result.structuredContent).toEqual({ id: 1, name: "Rex" });
    const req = upstream.requests[0]!;
    expect(`${req.method} ${req.rawUrl}`).toBe("POST /base/pets?dryRun=false");
    expect(mediaType(req.header("content-type"))).toBe("application/json");
    expect(req.json()).toEqual({ name: "Rex", age: 3 });
    expect(req.header("x-tenant")).toBe("acme");
    expect(req.header("authorization")).toBeUndefined();
    expect(req.header("x-api-key")).toBeUndefined();
  });

  it("sends a multipart upload", async () => {
    const result = await bridge.call("uploadPetPhoto", {
      petId: 4,
      photo: { base64: PNG_BYTES.toString("base64"), filename: "p.png", contentType: "image/png" },
      caption: "hi",
    });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    const req = upstream.requests[0]!;
    const parts = parseMultipart(req.body, req.header("content-type") ?? "");
    expect(parts.map((p) => p.name)).toEqual(["photo", "caption"]);
    expect(parts[0]!.filename).toBe("p.png");
    expect(mediaType(parts[0]!.contentType)).toBe("image/png");
    expect(parts[0]!.body.equals(PNG_BYTES)).toBe(true);
    expect(parts[1]!.body.toString()).toBe("hi");
  });

  it("sends --auth credentials only where security asks", async () => {
    await bridge.call("secureBearer");
    await bridge.call("secureBasic");
    await bridge.call("getPet", { petId: 1 });
    expect(upstream.requests.map((r) => r.header("authorization"))).toEqual([
      "Bearer tok-cli-123",
      `Basic ${Buffer.from("alice:s3cret").toString("base64")}`,
      undefined,
    ]);
  });

  it("sends OPENAPI_MCP_AUTH_<SCHEME> credentials only where security asks", async () => {
    await bridge.call("secureHeaderKey");
    await bridge.call("secureBearer");
    expect(upstream.requests.map((r) => r.header("x-api-key"))).toEqual(["env-key-456", undefined]);
  });

  it("reports upstream errors as tool errors", async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end('{"message":"kaput"}');
    });
    try {
      const result = await bridge.call("getPet", { petId: 1 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("500");
    } finally {
      upstream.setHandler(wireResponder);
    }
  });

  it("never prints a secret on stderr", () => {
    for (const secret of SECRETS) expect(bridge.stderr()).not.toContain(secret);
  });
});

describe("stdout carries nothing but JSON-RPC", () => {
  it("answers initialize, tools/list and tools/call with one JSON-RPC message per line", async () => {
    const child = spawn(process.execPath, [CLI, "serve", SPEC, "--base-url", upstream.url], {
      cwd: ROOT,
      env: { PATH: process.env["PATH"] ?? "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const waitForId = async (id: number) => {
      const deadline = Date.now() + 10_000;
      while (!stdout.split("\n").some((line) => line.includes(`"id":${id}`))) {
        if (Date.now() > deadline) throw new Error(`no answer to ${id}; stdout so far:\n${stdout}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      });
      await waitForId(1);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
      await waitForId(2);
      send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "getPet", arguments: { petId: 1 } },
      });
      await waitForId(3);
    } finally {
      child.kill("SIGTERM");
    }
    const lines = stdout.split("\n").filter((line) => line !== "");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      const message = JSON.parse(line) as { jsonrpc?: string };
      expect(message.jsonrpc, line.slice(0, 200)).toBe("2.0");
    }
    const byId = new Map(
      lines.map((l) => JSON.parse(l) as { id?: number; result?: unknown }).map((m) => [m.id, m]),
    );
    expect(byId.get(1)?.result).toBeDefined();
    expect(byId.get(2)?.result).toBeDefined();
    expect(byId.get(3)?.result).toMatchObject({ structuredContent: { id: 1, name: "Rex" } });
  });
});

describe("tools command", () => {
  it("`tools --json` prints exactly what tools/list returns", async () => {
    const run = await runCli(["tools", SPEC, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout) as { tools?: unknown[] } | unknown[];
    const printedTools = Array.isArray(printed) ? printed : printed.tools;
    const bridge = await connectStdio(SPEC);
    try {
      // `tools --json` prints the runtime's listing (the new _meta keys); the 2025-era client gets the old ones.
      const asLegacy = toLegacyListing({
        tools: printedTools as { _meta?: Record<string, unknown> }[],
      }).tools;
      expect(asLegacy).toEqual(JSON.parse(JSON.stringify(bridge.tools)));
    } finally {
      await bridge.close();
    }
  });

  it("`tools` prints one line per tool with its name", async () => {
    const run = await runCli(["tools", SPEC]);
    expect(run.code, run.stderr).toBe(0);
    for (const name of ["getPet", "createPet", "uploadPetPhoto", "pathMatrixExplode"]) {
      expect(run.stdout).toContain(name);
    }
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("`tools` takes serve's selection flags and lists exactly what serve would serve", async () => {
    const flags = ["--read-only", "--exclude-tools", "getPet"];
    const run = await runCli(["tools", SPEC, "--json", ...flags]);
    expect(run.code, run.stderr).toBe(0);
    const listed = (JSON.parse(run.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    const bridge = await connectStdio(SPEC, flags);
    try {
      expect(listed).toEqual(bridge.tools.map((t) => t.name));
    } finally {
      await bridge.close();
    }
    expect(listed).not.toContain("getPet");
    expect(listed).not.toContain("createPet");
    expect(listed.length).toBeGreaterThan(0);
    const typo = await runCli(["tools", SPEC, "--include-tags", "no-such-tag"]);
    expect(typo.stderr).toContain("no-such-tag");
  });
});
