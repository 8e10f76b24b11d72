/**
 * The shared start: the auth config file as JSON or YAML, and a listen that fails told as a
 * coded diagnostic (the port in use), in process.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BridgeError } from "../../../../src/model/diagnostics.js";
import { readAuthSettings } from "../../../../src/runtime/config/auth-settings.js";
import { startServer } from "../../../../src/runtime/start-server.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model = planSpec({
  servers: [{ url: "https://api.example.test" }],
  components: { securitySchemes: { api_key: { type: "apiKey", in: "header", name: "X-Key" } } },
  paths: TOY_PATHS,
});
const START = { name: "test", env: {}, help: "`test --help`" };
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "omb-settings-"));
  vi.spyOn(process.stderr, "write").mockImplementation(() => true);
});

afterAll(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function refusal(run: () => Promise<unknown>): Promise<BridgeError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return error as BridgeError;
}

describe("readAuthSettings", () => {
  it.each([
    [
      "JSON",
      "auth.json",
      '{"auth": {"api_key": {"env": "KEY"}}, "passThroughHeaders": {"X-User": "api_key"}}',
    ],
    ["YAML", "auth.yaml", "auth:\n  api_key: { env: KEY }\npassThroughHeaders:\n  X-User: api_key\n"],
  ])("reads a %s file", async (_kind, name, text) => {
    const config = await readAuthSettings({ authConfig: file(name, text) }, { KEY: "secret" });
    expect(config).toEqual({
      auth: { api_key: "secret" },
      oauth: {},
      passThroughHeaders: { "X-User": "api_key" },
    });
  });

  it("adds --oauth-client with its secret from the environment", async () => {
    const config = await readAuthSettings(
      { oauthClient: { oauth: "client-1" } },
      { OPENAPI_MCP_CLIENT_SECRET_OAUTH: "s" },
    );
    expect(config.oauth).toEqual({ oauth: { clientId: "client-1", clientSecret: "s" } });
  });

  it.each<[string, () => Promise<unknown>, RegExp]>([
    [
      "a missing file",
      () => readAuthSettings({ authConfig: join(dir, "none.yaml") }, {}),
      /cannot read the auth config/,
    ],
    [
      "a file that is neither",
      () => readAuthSettings({ authConfig: file("bad.yaml", "a: [\n") }, {}),
      /neither JSON nor YAML/,
    ],
    [
      "an unknown key",
      () => readAuthSettings({ authConfig: file("odd.yaml", "tokens: {}\n") }, {}),
      /unknown key "tokens"/,
    ],
    [
      "a client without its secret",
      () => readAuthSettings({ oauthClient: { oauth: "c" } }, {}),
      /OPENAPI_MCP_CLIENT_SECRET_OAUTH/,
    ],
  ])("refuses %s with OMB_AUTH_CONFIG", async (_name, run, message) => {
    const error = await refusal(run);
    expect(error.code).toBe("OMB_AUTH_CONFIG");
    expect(error.diagnostics[0]?.message).toMatch(message);
  });
});

describe("startServer over HTTP", () => {
  it("listens, says so on stderr, and closes", async () => {
    const running = await startServer(model, { transport: "http", port: 0, readOnly: true }, START);
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const methods = new Set(running.runtime.model.tools.map((t) => t.http.method));
      expect([...methods].every((m) => ["get", "head", "options"].includes(m))).toBe(true);
      expect(running.runtime.model.tools.length).toBeLessThan(model.tools.length);
      const answer = await fetch(new URL("/healthz", running.url));
      expect(answer.status).toBe(200);
      expect(process.stderr.write).toHaveBeenCalledWith(
        expect.stringMatching(
          new RegExp(
            `^test: ${running.runtime.model.tools.length} tools on ${running.url}; calls go to \\S+\n$`,
          ),
        ),
      );
    } finally {
      await running.close();
    }
  });

  it("refuses a port in use with OMB_PORT_IN_USE and a hint", async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const error = await refusal(() => startServer(model, { transport: "http", port }, START));
      expect(error.code).toBe("OMB_PORT_IN_USE");
      expect(error.diagnostics[0]?.message).toBe(
        `cannot listen on 127.0.0.1:${port}: the port is already in use`,
      );
      expect(error.diagnostics[0]?.hint).toContain("--port 0");
    } finally {
      busy.close();
    }
  });

  it("refuses a bad tool selection with OMB_OPTION before anything starts", async () => {
    const error = await refusal(() =>
      startServer(model, { transport: "http", port: 0, methods: ["fetch"] }, START),
    );
    expect(error.code).toBe("OMB_OPTION");
    expect(error.diagnostics[0]?.hint).toBe("see `test --help`");
  });
});
