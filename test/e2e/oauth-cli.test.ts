/**
 * The CLI over Streamable HTTP with `--auth-config` (YAML: an OAuth2 client whose secret comes
 * from the environment, a pass-through header) and `--pass-through-header`: each MCP client's
 * own key reaches the API, the MCP connection's Authorization header never does, and no secret
 * is printed.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectHttp, type HttpBridge, runCli, startHttpBridge } from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const SECRET = "cli-client-secret-42";
let api: Upstream;
let idp: Upstream;
let bridge: HttpBridge;
let spec: string;
let config: string;

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

beforeAll(async () => {
  api = await startUpstream((req, res) =>
    sendJson(res, 200, { auth: req.header("authorization") ?? null, key: req.header("x-key") ?? null }),
  );
  let issued = 0;
  idp = await startUpstream((_req, res) =>
    sendJson(res, 200, { access_token: `cli-tok-${++issued}`, expires_in: 600 }),
  );
  const dir = mkdtempSync(join(tmpdir(), "omb-oauth-cli-"));
  spec = join(dir, "api.json");
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "OAuth CLI", version: "1" },
      servers: [{ url: api.url }],
      paths: {
        "/secure": { get: { operationId: "secure", security: [{ cc: [] }], responses: ok } },
        "/key": { get: { operationId: "withKey", security: [{ key: [] }], responses: ok } },
        "/basic": { get: { operationId: "withBasic", security: [{ basic: [] }], responses: ok } },
      },
      components: {
        securitySchemes: {
          cc: { type: "oauth2", flows: { clientCredentials: { tokenUrl: `${idp.url}/token`, scopes: {} } } },
          key: { type: "apiKey", in: "header", name: "X-Key" },
          basic: { type: "http", scheme: "basic" },
        },
      },
    }),
  );
  config = join(dir, "auth.yaml");
  writeFileSync(
    config,
    [
      "oauth2:",
      "  cc:",
      "    clientId: cli-client",
      "    clientSecret: { env: CC_SECRET }",
      // The identity provider listens on another port of the host: another site, confirmed here.
      "    trustSpecTokenUrl: true",
      "passThroughHeaders:",
      "  X-User-Key: key",
      "",
    ].join("\n"),
  );
  bridge = await startHttpBridge(
    spec,
    ["--auth-config", config, "--pass-through-header", "X-User-Basic=basic"],
    {
      CC_SECRET: SECRET,
    },
  );
});
afterAll(async () => {
  await bridge?.stop();
  await api.close();
  await idp.close();
});

it("serves OAuth2 tokens and each client's own pass-through credentials, never the MCP Authorization", async () => {
  const alice = await connectHttp(bridge, { Authorization: "Bearer mcp-alice", "X-User-Key": "alice-key" });
  const bob = await connectHttp(bridge, {
    "X-User-Key": "bob-key",
    "X-User-Basic": `Basic ${Buffer.from("bob:pw-1").toString("base64")}`,
  });
  try {
    // The API echoes what it got; the model sees every credential redacted.
    expect((await alice.call("secure")).structuredContent).toEqual({ auth: "Bearer [REDACTED]", key: null });
    expect((await alice.call("withKey")).structuredContent).toEqual({ auth: null, key: "[REDACTED]" });
    await bob.call("withKey");
    expect((await bob.call("withBasic")).structuredContent).toEqual({ auth: "[REDACTED]", key: null });
    await alice.call("withBasic");
    expect(api.requests.map((r) => [r.header("authorization") ?? null, r.header("x-key") ?? null])).toEqual([
      ["Bearer cli-tok-1", null],
      [null, "alice-key"],
      [null, "bob-key"],
      [`Basic ${Buffer.from("bob:pw-1").toString("base64")}`, null],
      [null, null],
    ]);
    expect(idp.requests).toHaveLength(1);
    expect(idp.requests[0]!.header("authorization")).toBe(
      `Basic ${Buffer.from(`cli-client:${SECRET}`).toString("base64")}`,
    );
    for (const req of api.requests) {
      expect(JSON.stringify(req.rawHeaders)).not.toContain("mcp-alice");
      expect(JSON.stringify(req.rawHeaders)).not.toContain(SECRET);
    }
    for (const text of [bridge.stdout(), bridge.stderr()]) {
      for (const secret of [SECRET, "cli-tok-1", "alice-key", "bob-key"]) expect(text).not.toContain(secret);
    }
  } finally {
    await alice.close();
    await bob.close();
  }
});

it("a config file naming an unset variable stops the bridge with a clear message", async () => {
  const run = await runCli(["serve", spec, "--auth-config", config]);
  expect(run.code).toBe(2); // a configuration error, as in a generated server
  expect(run.stderr).toContain("oauth2.cc.clientSecret: the environment variable CC_SECRET is not set");
  expect(run.stderr).not.toMatch(/^\s+at /m);
});
