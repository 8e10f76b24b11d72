/**
 * Everything that can go wrong, and how it must look: broken specs stop the CLI with a message
 * naming the file (and the JSON pointer) and no stack trace; problems during a call are tool
 * results with `isError: true`, never protocol errors, except an unknown tool (-32602).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Connected,
  connectSpec,
  connectStdio,
  fixture,
  runCli,
  type SpawnedConnected,
  STACK_LINE,
  textOf,
} from "../helpers/bridge.js";
import { closedPort, hangHandler, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { errorMeta } from "./safety-support.js";
import { WIRE_SPECS, wireResponder } from "./wire-cases.js";

describe("specs that cannot be served", () => {
  it.each([["serve"], ["tools"]])(
    "%s: an invalid spec names the file and the JSON pointer",
    async (command) => {
      const spec = fixture("errors/invalid-schema.openapi30.yaml");
      const run = await runCli([command, spec]);
      expect(run.code).not.toBe(0);
      expect(run.code).not.toBeNull();
      expect(run.stderr).toContain("invalid-schema.openapi30.yaml");
      expect(run.stderr).toContain("/paths/~1pets/get/responses/200");
      expect(run.stderr).toContain("--no-validate");
      expect(run.stderr).not.toMatch(STACK_LINE);
      expect(run.stdout).toBe("");
    },
  );

  it("a property OpenAPI does not know is a warning: the spec is served, `tools --verbose` names it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "omb-ignored-"));
    try {
      const spec = join(dir, "extra.json");
      await writeFile(
        spec,
        JSON.stringify({
          openapi: "3.0.3",
          info: { title: "Extra", version: "1" },
          source: { repo: "somewhere" },
          paths: { "/a": { get: { operationId: "getA", responses: { "200": { description: "ok" } } } } },
        }),
      );
      const run = await runCli(["tools", spec, "--verbose"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("getA");
      expect(run.stderr).toContain("warning OMB_SPEC_IGNORED");
      expect(run.stderr).toContain('#/source: property "source" is not allowed here');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a YAML syntax error names the file", async () => {
    const run = await runCli(["tools", fixture("errors/broken-syntax.yaml")]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("broken-syntax.yaml");
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("a document that is not OpenAPI or Swagger is refused", async () => {
    const run = await runCli(["tools", fixture("errors/not-openapi.json")]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("not-openapi.json");
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("a missing file names the file", async () => {
    const run = await runCli(["serve", fixture("errors/no-such-spec.yaml")]);
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain("no-such-spec.yaml");
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stdout).toBe("");
  });

  it("an unreachable URL names the URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/openapi.yaml`;
    const run = await runCli(["serve", url]);
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain(url);
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it.each([
    ["serve", []],
    ["tools", []],
    ["lint", []],
    ["generate", ["-o", join(tmpdir(), "omb-never-written")]],
  ])("%s: a URL answering 404 is refused with the status and a hint", async (command, extra) => {
    const upstream = await startUpstream((req, res) =>
      req.rawPath === "/private.yaml" ? sendJson(res, 401, {}) : sendJson(res, 404, { message: "nope" }),
    );
    try {
      const url = `${upstream.url}/missing.yaml`;
      const run = await runCli([command, url, ...extra], { timeoutMs: 60_000 });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `error OMB_SPEC_FETCH ${url}: GET ${url} returned HTTP 404 Not Found\n` +
          "  hint: check the URL: the server said 404 Not Found, it has no document at this address; if the spec is private (some hosts answer 404 then), download the spec (e.g. curl -fL -H 'Authorization: ...' -o openapi.yaml URL) and give the file\n",
      );
      const denied = await runCli([command, `${upstream.url}/private.yaml`, ...extra], { timeoutMs: 60_000 });
      expect(denied.code).toBe(1);
      expect(denied.stderr).toContain(
        "returned HTTP 401 Unauthorized\n  hint: the server said 401 Unauthorized: the spec is private",
      );
    } finally {
      await upstream.close();
    }
  });

  it("the library rejects an invalid spec with the pointer in the message", async () => {
    const { loadSpec } = await import("../../src/index.js");
    await expect(loadSpec(fixture("errors/invalid-schema.openapi30.yaml"))).rejects.toThrow(
      "/paths/~1pets/get/responses/200",
    );
  });
});

describe("errors during calls (in memory)", () => {
  let upstream: Upstream;
  let bridge: Connected;

  beforeAll(async () => {
    upstream = await startUpstream(wireResponder);
    bridge = await connectSpec(fixture(WIRE_SPECS["3.1"]), {
      baseUrl: upstream.url,
      timeoutMs: 300,
      auth: { bearerAuth: "tok" },
    });
  });

  afterAll(async () => {
    await bridge?.close();
    await upstream?.close();
  });

  beforeEach(() => {
    upstream.reset();
    upstream.setHandler(wireResponder);
  });

  it("an unknown tool is a JSON-RPC error -32602", async () => {
    const error = await bridge.call("noSuchTool", {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).code).toBe(-32602);
    // The code is said once: the SDK client adds "MCP error -32602: " to the message it gets.
    expect((error as McpError).message).toBe("MCP error -32602: Unknown tool: noSuchTool");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a wrongly typed argument is an isError result naming it", async () => {
    const result = await bridge.call("getPet", { petId: "abc" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("petId");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a missing required argument is an isError result naming it", async () => {
    const result = await bridge.call("createPet", { tag: "dog" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("name");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a value outside the schema is an isError result naming it", async () => {
    const result = await bridge.call("listPets", { limit: 1000 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("limit");
    expect(upstream.requests).toHaveLength(0);
  });

  it.each([
    [404, "getPet", "Pet not found"],
    [429, "getPet", "Slow down, rate limit reached"],
    [500, "getPet", "The server broke"],
    [401, "secureBearer", "Missing or bad credentials"],
  ] as const)(
    "upstream %i is an isError result with the status, its description and the body",
    async (status, tool, description) => {
      upstream.setHandler((_req, res) => sendJson(res, status, { message: `upstream says ${status}` }));
      const result = await bridge.call(tool, tool === "getPet" ? { petId: 1 } : {});
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain(String(status));
      expect(text).toContain(description);
      expect(text).toContain(`upstream says ${status}`);
    },
  );

  it("a huge error body is trimmed", async () => {
    const huge = "x".repeat(1_000_000);
    upstream.setHandler((_req, res) => sendJson(res, 500, { message: huge }));
    const result = await bridge.call("getPet", { petId: 1 });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain("500");
    expect(text.length).toBeLessThan(100_000);
  });

  it("an undocumented status (418) is still an isError result with the status", async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(418, { "content-type": "text/plain" });
      res.end("short and stout");
    });
    const result = await bridge.call("getPet", { petId: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("418");
    expect(textOf(result)).toContain("short and stout");
  });

  it("a 2xx body that breaks the documented schema still gives a result the SDK client accepts", async () => {
    upstream.setHandler((_req, res) => sendJson(res, 200, { id: "not-a-number", name: 42 }));
    const result = await bridge.call("getPet", { petId: 1 });
    expect(textOf(result)).toContain("not-a-number");
  });

  it("a 2xx body that is not JSON despite its Content-Type still gives a result the SDK client accepts", async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{not json");
    });
    const result = await bridge.call("getPet", { petId: 1 });
    expect(textOf(result)).toContain("{not json");
  });

  it("an empty 200 body still gives a result the SDK client accepts", async () => {
    upstream.setHandler((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "0" });
      res.end();
    });
    const result = await bridge.call("getPet", { petId: 1 });
    expect(Array.isArray(result.content)).toBe(true);
  });

  it("a timeout is an isError result, promptly", async () => {
    upstream.setHandler(hangHandler);
    const result = await bridge.call("getPet", { petId: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/time/i);
    // Ended by the configured 300 ms deadline (not a default, nor the test's own timeout).
    expect(textOf(result)).toContain("did not answer within 300 ms");
  });
});

describe("upstream down (in memory)", () => {
  it("a closed port is an isError result", async () => {
    const bridge = await connectSpec(fixture(WIRE_SPECS["3.0"]), {
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
    });
    try {
      const result = await bridge.call("getPet", { petId: 1 });
      expect(result.isError).toBe(true);
      expect(textOf(result).length).toBeGreaterThan(0);
    } finally {
      await bridge.close();
    }
  });
});

describe("errors during calls (CLI over stdio)", () => {
  let upstream: Upstream;
  let bridge: SpawnedConnected;

  beforeAll(async () => {
    upstream = await startUpstream(hangHandler);
    bridge = await connectStdio(fixture(WIRE_SPECS["2.0"]), ["--base-url", upstream.url, "--timeout", "300"]);
  });

  afterAll(async () => {
    await bridge?.close();
    await upstream?.close();
  });

  it("--timeout 300 turns a hanging upstream into an isError result", async () => {
    const result = await bridge.call("getPet", { petId: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/time/i);
    // Ended by --timeout 300 (not a default, nor the test's own timeout).
    expect(textOf(result)).toContain("did not answer within 300 ms");
  });

  it("an unknown tool is -32602 over stdio too", async () => {
    await expect(bridge.call("noSuchTool", {})).rejects.toMatchObject({
      code: -32602,
      message: "MCP error -32602: Unknown tool: noSuchTool",
    });
  });

  it("a 404 is an isError result with the status", async () => {
    upstream.setHandler((_req, res) => sendJson(res, 404, { message: "gone" }));
    const result = await bridge.call("getPet", { petId: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("404");
    expect(textOf(result)).toContain("Pet not found");
  });

  it("upstream down over stdio is an isError result", async () => {
    const down = await connectStdio(fixture(WIRE_SPECS["2.0"]), [
      "--base-url",
      `http://127.0.0.1:${await closedPort()}`,
    ]);
    try {
      const result = await down.call("getPet", { petId: 1 });
      expect(result.isError).toBe(true);
      // Nothing was sent: the facts say so, for a client or program that counts what reached the API.
      expect(errorMeta(result)).toMatchObject({ category: "upstream_unavailable", unsent: true });
    } finally {
      await down.close();
    }
  });
});
