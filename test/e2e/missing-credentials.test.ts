/**
 * Credentials the served tools need and nobody configured are said at start-up, through the
 * built CLI: one stderr line per security scheme with the tools that need it and the flag and
 * variable that configure it, nothing on stdout (stdio mode: it carries MCP messages only), and
 * nothing once every scheme used has a credential. The built library refuses what the CLI
 * refuses, in its options' words.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/bridge.js";

const dir = mkdtempSync(join(tmpdir(), "omb-missing-credentials-"));
const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const spec = join(dir, "spec.json");
writeFileSync(
  spec,
  JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Credentials", version: "1" },
    servers: [{ url: "https://api.example.test/v1" }],
    paths: {
      "/pets": {
        get: { operationId: "listPets", tags: ["pets"], security: [{ api_key: [] }], responses: ok },
      },
      "/pets/{id}": {
        get: {
          operationId: "getPet",
          tags: ["pets"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          security: [{ api_key: [] }],
          responses: ok,
        },
      },
      "/orders": {
        get: { operationId: "listOrders", tags: ["store"], security: [{ cc: [] }], responses: ok },
      },
      "/health": { get: { operationId: "health", tags: ["ops"], security: [], responses: ok } },
    },
    components: {
      securitySchemes: {
        api_key: { type: "apiKey", in: "header", name: "X-Key" },
        cc: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: "https://id.example/t", scopes: {} } },
        },
      },
    },
  }),
);

const API_KEY_LINE =
  'openapi-mcp-bridge: warning OMB_CREDENTIAL_MISSING no credential for the security scheme "api_key", which 2 tools need (listPets, getPet): the API will refuse their calls; configure it with --auth api_key=VALUE or OPENAPI_MCP_AUTH_API_KEY';
const CC_LINE =
  'openapi-mcp-bridge: warning OMB_CREDENTIAL_MISSING no credential for the security scheme "cc", which the tool listOrders needs: the API will refuse its calls; configure it with --auth cc=VALUE or OPENAPI_MCP_AUTH_CC, or an OAuth2 client with --oauth-client cc=ID (or OPENAPI_MCP_CLIENT_ID_CC) and OPENAPI_MCP_CLIENT_SECRET_CC';

describe("serve names the credentials nobody configured", () => {
  it.each<[string, string[], Record<string, string>, string[]]>([
    ["nothing configured: one line per scheme", [], {}, [API_KEY_LINE, CC_LINE]],
    ["one scheme from its variable", [], { OPENAPI_MCP_AUTH_API_KEY: "key-1234" }, [CC_LINE]],
    ["every scheme configured: nothing", ["--auth", "api_key=key-1234", "--auth", "cc=token-1234"], {}, []],
    [
      "an OAuth2 client from the environment counts",
      ["--auth", "api_key=key-1234"],
      { OPENAPI_MCP_CLIENT_ID_CC: "client", OPENAPI_MCP_CLIENT_SECRET_CC: "client-secret" },
      [],
    ],
    ["only the served tools count", ["--include-tags", "pets"], {}, [API_KEY_LINE]],
    ["tools that need no credential: nothing", ["--include-tags", "ops"], {}, []],
  ])("%s", async (_what, args, env, expected) => {
    const run = await runCli(["serve", spec, ...args], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    const lines = run.stderr.split("\n").filter((line) => line.includes("OMB_CREDENTIAL_MISSING"));
    expect(lines).toEqual(expected);
    expect(run.stderr).toMatch(/tools? over stdio/);
  });
});

describe("the built library checks its options as serve does", () => {
  it("refuses bad values at creation, naming options.*", async () => {
    const script = [
      `const { buildModel, createBridgeRuntime } = await import(${JSON.stringify(pathToFileURL(join(ROOT, "dist/index.js")).href)});`,
      `const model = await buildModel(${JSON.stringify(spec)});`,
      `try { createBridgeRuntime(model, { env: {}, timeoutMs: 0, baseUrl: "not a url", auth: { apikey: "key-1234" } }); }`,
      `catch (error) { console.log(JSON.stringify(error.diagnostics.map((d) => [d.code, d.message]))); }`,
    ].join("\n");
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 15_000,
    });
    expect(JSON.parse(stdout)).toEqual([
      ["OMB_BASE_URL", 'options.baseUrl: "not a url" is not an http(s) URL'],
      ["OMB_OPTION_INVALID", 'options.timeoutMs: expected a whole number of at least 1, got "0"'],
    ]);
  });
});
