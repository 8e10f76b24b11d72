/**
 * The OAuth front door's settings: `--auth-scope-map` rules as flags and as the variable, the
 * start-up checks (not with --http-token, https issuers and resource, asymmetric algorithms,
 * an introspection client with its secret, the MCP token never a pass-through credential), and
 * the options the settings give the HTTP server.
 */
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../../src/model/diagnostics.js";
import { checkStart } from "../../../../src/runtime/config/check-start.js";
import { type RawFlags, readSettings } from "../../../../src/runtime/config/read-settings.js";
import { toHttpServerOptions } from "../../../../src/runtime/config/to-options.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model = planSpec({ servers: [{ url: "https://api.example.test" }], paths: TOY_PATHS });

function settingsOf(flags: Record<string, string[]>, env: Record<string, string> = {}) {
  return readSettings({ transport: ["http"], ...flags } as RawFlags, env, { help: "--help" });
}

/** The codes and messages of the start-up checks: errors thrown, warnings returned. */
function check(flags: Record<string, string[]>, env: Record<string, string> = {}, passThrough = {}) {
  const settings = settingsOf(flags, env);
  try {
    const warnings = checkStart({
      model,
      tools: model.tools,
      settings,
      auth: { auth: {}, oauth: {}, passThroughHeaders: passThrough },
      env,
      serverVariables: {},
    });
    return warnings.map((d) => `${d.severity} ${d.code}: ${d.message}`);
  } catch (error) {
    if (!(error instanceof BridgeError)) throw error;
    return error.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`);
  }
}

describe("--auth-scope-map", () => {
  it("keeps the rules in order, flags before the variable's", () => {
    const settings = settingsOf(
      { "auth-scope-map": ["tag:admin=notes:admin", "list*=notes:read, notes:list", "health="] },
      { OPENAPI_MCP_AUTH_SCOPE_MAP: "create*=notes:write;tag:admin=never" },
    );
    expect(settings.authScopeMap).toEqual([
      { pattern: "tag:admin", scopes: ["notes:admin"] },
      { pattern: "list*", scopes: ["notes:read", "notes:list"] },
      { pattern: "health", scopes: [] },
      { pattern: "create*", scopes: ["notes:write"] },
      { pattern: "tag:admin", scopes: ["never"] },
    ]);
  });

  it.each([["=notes:read"], ["no-equals"], ['x=bad"scope']])("refuses %s", (rule) => {
    expect(() => settingsOf({ "auth-scope-map": [rule] })).toThrow(/auth-scope-map/);
  });
});

describe("start-up checks", () => {
  it("a good front door passes", () => {
    expect(check({ "auth-issuer": ["https://login.example.com"], "auth-scopes": ["mcp"] })).toEqual([]);
  });

  it.each<[string, Record<string, string[]>, Record<string, string>, RegExp]>([
    [
      "with --http-token",
      { "auth-issuer": ["https://login.example.com"], "http-token": ["a-shared-token"] },
      {},
      /error OMB_OAUTH_RESOURCE_CONFLICT/,
    ],
    [
      "an http issuer off loopback",
      { "auth-issuer": ["http://login.example.com"] },
      {},
      /error OMB_OAUTH_RESOURCE_INVALID: --auth-issuer http:\/\/login/,
    ],
    [
      "an http resource off loopback",
      { "auth-issuer": ["https://login.example.com"], "auth-resource": ["http://mcp.example.com/mcp"] },
      {},
      /error OMB_OAUTH_RESOURCE_INVALID: --auth-resource/,
    ],
    [
      "HMAC",
      { "auth-issuer": ["https://login.example.com"], "auth-algorithms": ["ES256,HS256"] },
      {},
      /HS256: .*HMAC/,
    ],
    [
      "none",
      { "auth-issuer": ["https://login.example.com"], "auth-algorithms": ["none"] },
      {},
      /none: .*unsigned/,
    ],
    [
      "an introspection client without its secret",
      { "auth-issuer": ["https://login.example.com"], "auth-introspection-client": ["bridge"] },
      {},
      /no secret/,
    ],
    [
      "a secret without its client",
      { "auth-issuer": ["https://login.example.com"] },
      { OPENAPI_MCP_AUTH_INTROSPECTION_SECRET: "s3cret" },
      /without --auth-introspection-client/,
    ],
    [
      "a scope map without an issuer (a warning)",
      { "auth-scope-map": ["x=y"] },
      {},
      /warning OMB_OAUTH_RESOURCE_INVALID: --auth-scope-map does nothing/,
    ],
    [
      "no public URL while listening off loopback (a warning)",
      { "auth-issuer": ["https://login.example.com"], host: ["0.0.0.0"] },
      {},
      /warning OMB_OAUTH_RESOURCE_INVALID: --auth-issuer without --auth-resource on 0.0.0.0/,
    ],
  ])("refuses or warns: %s", (_name, flags, env, want) => {
    const found = check(flags, env);
    expect(
      found.some((line) => want.test(line)),
      found.join("\n"),
    ).toBe(true);
  });

  it("the MCP token is never an API credential through a pass-through header", () => {
    const found = check({ "auth-issuer": ["https://login.example.com"] }, {}, { Authorization: "api" });
    expect(found.join("\n")).toMatch(
      /error OMB_AUTH_CONFIG: --pass-through-header Authorization: .*MCP access token/,
    );
  });

  it("does not call a front door's bridge exposed off loopback", () => {
    const found = check({
      "auth-issuer": ["https://login.example.com"],
      host: ["0.0.0.0"],
      "auth-resource": ["https://mcp.example.com/mcp"],
    });
    expect(found.join("\n")).not.toMatch(/OMB_HTTP_EXPOSED/);
  });
});

describe("toHttpServerOptions", () => {
  it("gives the front door what the settings name, no default applied", () => {
    const settings = settingsOf(
      {
        "auth-issuer": ["https://a.example.com,https://b.example.com"],
        "auth-scopes": ["mcp"],
        "auth-spec-scopes": ["true"],
        "auth-introspection-client": ["bridge"],
      },
      { OPENAPI_MCP_AUTH_INTROSPECTION_SECRET: "s3cret" },
    );
    expect(toHttpServerOptions(settings).oauth).toMatchObject({
      issuers: ["https://a.example.com", "https://b.example.com"],
      baseScopes: ["mcp"],
      specScopes: true,
      introspection: { clientId: "bridge", clientSecret: "s3cret" },
    });
    expect(toHttpServerOptions(settingsOf({})).oauth).toBeUndefined();
  });
});
