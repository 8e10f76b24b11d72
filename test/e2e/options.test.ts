/**
 * `serve`'s options through the built CLI: ordinary mistakes (a bad port, a bad value, a port
 * another process holds) are one coded diagnostic with a hint and a non-zero exit, never
 * OMB_INTERNAL or a stack trace; the OPENAPI_MCP_* variables a generated server reads work for
 * serve too, and flags win over them.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, connectStdio, fixture, freePort, ROOT, runCli, STACK_LINE } from "../helpers/bridge.js";

const SPEC = fixture("petstore", "petstore.openapi30.yaml");

describe("serve refuses bad option values with a coded diagnostic", () => {
  it.each<[string, string[], Record<string, string>, number, string, RegExp]>([
    [
      "a port that is no number",
      ["--port", "abc"],
      {},
      2,
      "OMB_OPTION_INVALID",
      /--port: expected a port number/,
    ],
    [
      "a port out of range",
      ["--transport", "http", "--port", "70000"],
      {},
      2,
      "OMB_OPTION_INVALID",
      /got "70000"/,
    ],
    [
      "a bad port in the environment",
      [],
      { OPENAPI_MCP_PORT: "http" },
      2,
      "OMB_OPTION_INVALID",
      /OPENAPI_MCP_PORT \(--port\)/,
    ],
    [
      "a timeout that is no number",
      ["--timeout", "10s"],
      {},
      2,
      "OMB_OPTION_INVALID",
      /--timeout: expected a whole number of at least 1, got "10s"/,
    ],
    [
      "an unknown transport",
      ["--transport", "pigeon"],
      {},
      2,
      "OMB_OPTION_INVALID",
      /--transport: expected one of stdio, http/,
    ],
    ["an unknown policy", ["--destructive", "sometimes"], {}, 2, "OMB_OPTION_INVALID", /--destructive/],
    [
      "a switch variable that is no switch",
      [],
      { OPENAPI_MCP_READ_ONLY: "maybe" },
      2,
      "OMB_OPTION_INVALID",
      /OPENAPI_MCP_READ_ONLY/,
    ],
    [
      "a header without a colon",
      ["--header", "X-Tenant=acme"],
      {},
      2,
      "OMB_OPTION_INVALID",
      /--header: expected "Name: value"/,
    ],
    [
      "a base URL that is not http(s)",
      ["--base-url", "ftp://x"],
      {},
      2,
      "OMB_BASE_URL",
      /--base-url: "ftp:\/\/x"/,
    ],
  ])("%s", async (_name, args, env, exitCode, code, message) => {
    const run = await runCli(["serve", SPEC, ...args], { env });
    expect(run.code, run.stderr).toBe(exitCode);
    expect(run.stderr).toMatch(new RegExp(`^error ${code} `));
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain("\n  hint: ");
    expect(run.stderr).not.toContain("OMB_INTERNAL");
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stdout).toBe("");
  });

  it("generate refuses --destructive confirm (a running server's policy) the same way", async () => {
    const run = await runCli([
      "generate",
      SPEC,
      "-o",
      "/nonexistent/never-written",
      "--destructive",
      "confirm",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error OMB_OPTION_INVALID --destructive: expected one of allow, refuse, got "confirm"/,
    );
  });
});

describe("serve on a port another process holds", () => {
  let busy: Server;
  let port: number;

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    port = (busy.address() as { port: number }).port;
  });

  afterAll(() => {
    busy.close();
  });

  it("stops with OMB_PORT_IN_USE, a hint and exit code 1", async () => {
    const run = await runCli(["serve", SPEC, "--transport", "http", "--port", String(port)]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `error OMB_PORT_IN_USE cannot listen on 127.0.0.1:${port}: the port is already in use`,
    );
    expect(run.stderr).toContain("hint: stop the other server, or choose another port with --port");
    expect(run.stderr).not.toContain("OMB_INTERNAL");
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("the same from OPENAPI_MCP_TRANSPORT and OPENAPI_MCP_PORT", async () => {
    const run = await runCli(["serve", SPEC], {
      env: { OPENAPI_MCP_TRANSPORT: "http", OPENAPI_MCP_PORT: String(port) },
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("error OMB_PORT_IN_USE");
  });
});

describe("serve reads the OPENAPI_MCP_* variables", () => {
  it("serves Streamable HTTP on the port OPENAPI_MCP_PORT names", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [CLI, "serve", SPEC], {
      cwd: ROOT,
      env: { PATH: process.env["PATH"] ?? "", OPENAPI_MCP_TRANSPORT: "http", OPENAPI_MCP_PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    try {
      const deadline = Date.now() + 15_000;
      while (!stderr.includes("tools on http://")) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no HTTP server:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(stderr).toContain(`openapi-mcp-bridge: 20 tools on http://127.0.0.1:${port}/mcp`);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("flags win: --transport stdio over OPENAPI_MCP_TRANSPORT=http; the selection from the environment", async () => {
    const bridge = await connectStdio(SPEC, ["--transport", "stdio"], {
      OPENAPI_MCP_TRANSPORT: "http",
      OPENAPI_MCP_READ_ONLY: "1",
      OPENAPI_MCP_INCLUDE_TAGS: "pet",
    });
    try {
      expect(bridge.tools.map((t) => t.name).sort()).toEqual([
        "findPetsByStatus",
        "findPetsByTags",
        "getPetById",
      ]);
      expect(bridge.stderr()).toContain("openapi-mcp-bridge: 3 tools over stdio");
    } finally {
      await bridge.close();
    }
  });

  it("lists every variable in serve --help", async () => {
    const run = await runCli(["serve", "--help"]);
    expect(run.code).toBe(0);
    for (const name of [
      "OPENAPI_MCP_PORT",
      "OPENAPI_MCP_HTTP_TOKEN",
      "OPENAPI_MCP_AUTH_<SCHEME>",
      "OPENAPI_MCP_READ_ONLY=1",
    ]) {
      expect(`${run.stdout}${run.stderr}`).toContain(name);
    }
  });
});
