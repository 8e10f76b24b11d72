/**
 * Mistakes caught at start-up, through the CLI: each used to start "fine" and then fail every
 * call with an error the model cannot fix. Now each is a coded error with a hint and a
 * non-zero exit before anything is served, or a warning where it can be legitimate.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli, STACK_LINE } from "../helpers/bridge.js";

const dir = mkdtempSync(join(tmpdir(), "omb-startup-"));
const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

function writeSpec(name: string, servers: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Startup", version: "1" },
      servers,
      paths: {
        "/pets": {
          get: { operationId: "listPets", tags: ["pets"], security: [{ api_key: [] }], responses: ok },
        },
        "/orders": {
          get: { operationId: "listOrders", tags: ["store"], security: [{ cc: [] }], responses: ok },
        },
      },
      components: {
        securitySchemes: {
          api_key: { type: "apiKey", in: "header", name: "X-Key" },
          cc: {
            type: "oauth2",
            flows: {
              authorizationCode: {
                authorizationUrl: "https://id.example/auth",
                tokenUrl: "https://id.example/token",
                scopes: {},
              },
            },
          },
        },
      },
    }),
  );
  return file;
}

const regional = writeSpec("regional.json", [
  {
    url: "https://{region}.api.example.com/v1",
    variables: { region: { default: "eu", enum: ["eu", "us"] } },
  },
]);
const relative = writeSpec("relative.json", [{ url: "/v1" }]);
const noServers = writeSpec("none.json", []);

describe("mistakes that stop the start", () => {
  it.each<[string, string[], Record<string, string>, RegExp, RegExp]>([
    [
      "--auth for a scheme the spec does not have (a typo)",
      [regional, "--auth", "apikey=secret-1"],
      {},
      /^error OMB_AUTH_SCHEME_UNKNOWN --auth apikey: the spec has no security scheme "apikey"$/m,
      /hint: did you mean "api_key"\?/,
    ],
    [
      "--oauth-client for a scheme with no client-credentials flow",
      [regional, "--oauth-client", "cc=my-client"],
      { OPENAPI_MCP_CLIENT_SECRET_CC: "client-secret-1" },
      /^error OMB_AUTH_CONFIG OAuth2 client credentials are configured for "cc", whose flows have no clientCredentials flow with a tokenUrl$/m,
      /hint: name the token URL in the auth config \(oauth2\.cc\.tokenUrl\)/,
    ],
    [
      "a relative server URL without --base-url",
      [relative],
      {},
      /^error OMB_SERVER_URL no tool can be called: the server URL "\/v1" is not an absolute URL/m,
      /hint: give the API's URL with --base-url/,
    ],
    [
      "a spec without a server URL, and no --base-url",
      [noServers],
      {},
      // OpenAPI's default server is "/", relative to where the spec came from: a file says nothing.
      /^error OMB_SERVER_URL no tool can be called: the server URL "\/" is not an absolute URL$/m,
      /hint: give the API's URL with --base-url/,
    ],
    [
      "--timeout 0",
      [regional, "--timeout", "0"],
      {},
      /^error OMB_OPTION_INVALID --timeout: expected a whole number of at least 1, got "0"$/m,
      /hint: --timeout takes a whole number of at least 1/,
    ],
    [
      "--server-var with an unknown name",
      [regional, "--server-var", "regoin=us"],
      {},
      /^error OMB_SERVER_VARIABLE --server-var regoin: no server URL of the spec has a variable "regoin"$/m,
      /hint: the variables: "region"; did you mean "region"\?/,
    ],
    [
      "--server-var with a value outside the enum",
      [regional, "--server-var", "region=mars"],
      {},
      /^error OMB_SERVER_VARIABLE --server-var region=mars: the server URL https:\/\/\{region\}\.api\.example\.com\/v1 allows only "eu", "us"$/m,
      /hint: give one of the values the spec lists, e.g. --server-var region=eu/,
    ],
    [
      "OPENAPI_MCP_SERVER_VAR_<NAME> with a value outside the enum",
      [regional],
      { OPENAPI_MCP_SERVER_VAR_REGION: "mars" },
      /^error OMB_SERVER_VARIABLE OPENAPI_MCP_SERVER_VAR_REGION=mars: .* allows only "eu", "us"$/m,
      /hint:/,
    ],
    [
      "no spec at all (a usage error)",
      [],
      {},
      /^error OMB_SPEC_MISSING serve needs a spec to serve$/m,
      /hint: give a spec file, an http\(s\) URL/,
    ],
    [
      "a tool selection that matches nothing",
      [regional, "--include-tags", "nosuchtag"],
      {},
      /^error OMB_SELECTION_EMPTY the tool selection leaves none of the spec's 2 tools to serve$/m,
      /hint: loosen the selection \(--include-tags\)/,
    ],
    [
      "--audit-log to an unwritable path",
      [regional, "--audit-log", join(dir, "no-such-dir", "audit.jsonl")],
      {},
      /^error OMB_AUDIT_LOG_UNWRITABLE --audit-log .*audit\.jsonl: ENOENT: no such file or directory/m,
      /hint: give a file in a directory you can write to/,
    ],
    [
      "a --header value HTTP cannot carry",
      [regional, "--header", "X-Name: \u0100bc"],
      {},
      /^error OMB_OPTION_INVALID --header: the value of the header X-Name has "Ā", which an HTTP header cannot carry/m,
      /hint:/,
    ],
    [
      "an --auth value with a newline (a file read with its line end)",
      [regional, "--auth", "api_key=secret-1\n"],
      {},
      /^error OMB_AUTH_CONFIG --auth api_key: the value has a character an HTTP header cannot carry \(U\+000A\)$/m,
      /hint: check the value/,
    ],
  ])("%s", async (_what, args, env, error, hint) => {
    const run = await runCli(["serve", ...args], { env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(error);
    expect(run.stderr).toMatch(hint);
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.stderr).not.toContain("tools over stdio");
    expect(run.stdout).toBe("");
    expect(run.stderr).not.toContain("client-secret-1");
    expect(run.stderr).not.toContain("secret-1");
  });

  it("a tag or tool name one slip away from the spec's: the note says which was meant", async () => {
    const spec = join(ROOT, "examples", "petstore", "openapi.yaml");
    const run = await runCli(["tools", spec, "--include-tags", "petz", "--include-tools", "getPetByld"]);
    expect(run.stderr).toMatch(/note: tag petz matches no operation of the spec; did you mean "pets"\?/);
    expect(run.stderr).toMatch(
      /note: tool getPetByld matches no operation of the spec; did you mean "getPetById"\?/,
    );
  });

  it("serve - over stdio: stdin cannot be both the spec and the protocol", async () => {
    const run = await runCli(["serve", "-"], { stdin: '{"openapi":"3.1.0"}' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error OMB_STDIN_CONFLICT serve -: over stdio, standard input carries the MCP messages/m,
    );
    expect(run.stderr).toContain(
      "hint: save the spec to a file and serve that, or serve it with --transport http",
    );
  });
});

describe("what can be legitimate is a warning, and the bridge starts", () => {
  it.each<[string, string[], Record<string, string>, RegExp]>([
    [
      "a credential variable for a scheme of another API",
      [regional],
      { OPENAPI_MCP_AUTH_GITHUB: "ghp-token-1" },
      /^openapi-mcp-bridge: warning OMB_AUTH_SCHEME_UNKNOWN OPENAPI_MCP_AUTH_GITHUB names no security scheme of the spec; it is not used$/m,
    ],
    [
      "a credential too short to be redacted",
      [regional, "--auth", "api_key=abc"],
      {},
      /^openapi-mcp-bridge: warning OMB_SECRET_SHORT --auth api_key is 3 characters long: too short to be redacted from results$/m,
    ],
    [
      "--server-var with an unknown name while --base-url replaces the server URL",
      [regional, "--base-url", "http://127.0.0.1:9", "--server-var", "regoin=us"],
      {},
      /^openapi-mcp-bridge: warning OMB_SERVER_VARIABLE --server-var regoin: no server URL of the spec has a variable "regoin"$/m,
    ],
  ])("%s", async (_what, args, env, warning) => {
    const run = await runCli(["serve", ...args], { env });
    expect(run.stderr).toMatch(warning);
    expect(run.stderr).toContain("2 tools over stdio");
    expect(run.code).toBe(0);
  });
});
