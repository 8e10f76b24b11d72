/**
 * Per-user login to the API (auth/user-login/): the auth config's `flow: authorizationCode`
 * entry, the start-up checks (HTTP with the OAuth front door, provider URLs, a redirect URL the
 * bridge can serve, the store key's length), and the sealed box that keeps login states and
 * tokens (another key, purpose or a changed byte opens nothing).
 */
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../../src/model/diagnostics.js";
import { parseAuthConfig } from "../../../../src/runtime/auth/auth-config.js";
import type { OAuthClientConfig } from "../../../../src/runtime/auth/oauth.js";
import { createSealedBox } from "../../../../src/runtime/auth/user-login/sealed-box.js";
import { checkStart } from "../../../../src/runtime/config/check-start.js";
import { type RawFlags, readSettings } from "../../../../src/runtime/config/read-settings.js";
import { planSpec } from "../../../e2e/safety-support.js";

const FLOWS = {
  authorizationCode: {
    authorizationUrl: "https://login.example.test/auth",
    tokenUrl: "https://api.example.test/token",
    scopes: {},
  },
};

function modelWith(flows: Record<string, unknown>) {
  return planSpec({
    servers: [{ url: "https://api.example.test" }],
    security: [{ user: [] }],
    paths: { "/notes": { get: { operationId: "listNotes", responses: { "200": { description: "OK" } } } } },
    components: { securitySchemes: { user: { type: "oauth2", flows } } },
  });
}

const GOOD: OAuthClientConfig = {
  clientId: "app",
  clientSecret: "app-secret",
  flow: "authorizationCode",
  redirectUrl: "https://bridge.example.test/oauth/callback",
};
const FRONT_DOOR = { transport: ["http"], "auth-issuer": ["https://idp.example.test"] };

function check(
  flags: Record<string, string[]>,
  client: OAuthClientConfig,
  env: Record<string, string> = {},
  flows: Record<string, unknown> = FLOWS,
): string[] {
  const model = modelWith(flows);
  try {
    return checkStart({
      model,
      tools: model.tools,
      settings: readSettings(flags as RawFlags, env, { help: "--help" }),
      auth: { auth: {}, oauth: { user: client }, passThroughHeaders: {} },
      env,
      serverVariables: {},
    }).map((d) => `${d.severity} ${d.code}: ${d.message}`);
  } catch (error) {
    if (!(error instanceof BridgeError)) throw error;
    return error.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`);
  }
}

describe("per-user login start-up checks", () => {
  it("HTTP with the front door and the spec's flow passes", () => {
    expect(check(FRONT_DOOR, GOOD)).toEqual([]);
  });

  it.each<
    [
      string,
      Record<string, string[]>,
      OAuthClientConfig,
      Record<string, string>,
      Record<string, unknown>,
      RegExp,
    ]
  >([
    ["over stdio", {}, GOOD, {}, FLOWS, /OMB_USER_LOGIN_INVALID: oauth2.user: .*know who the user is/],
    ["over HTTP without the front door", { transport: ["http"] }, GOOD, {}, FLOWS, /know who the user is/],
    [
      "without an authorization URL",
      FRONT_DOOR,
      GOOD,
      {},
      { authorizationCode: { tokenUrl: "https://api.example.test/t" } },
      /no authorizationCode flow with an authorizationUrl/,
    ],
    [
      "without a token URL",
      FRONT_DOOR,
      GOOD,
      {},
      { authorizationCode: { authorizationUrl: "https://x.test/a" } },
      /no authorizationCode flow with a tokenUrl/,
    ],
    [
      "with an http redirect off loopback",
      FRONT_DOOR,
      { ...GOOD, redirectUrl: "http://bridge.example.test/cb" },
      {},
      FLOWS,
      /redirectUrl .* is not an https URL/,
    ],
    [
      "with the MCP endpoint as the callback",
      FRONT_DOOR,
      { ...GOOD, redirectUrl: "https://bridge.example.test/mcp" },
      {},
      FLOWS,
      /the MCP endpoint's/,
    ],
    [
      "with a shared store and no key",
      { ...FRONT_DOOR, "token-store": ["redis://127.0.0.1:6379/0"] },
      GOOD,
      {},
      FLOWS,
      /a shared --token-store needs the key/,
    ],
  ])("refuses a login %s", (_what, flags, client, env, flows, expected) => {
    expect(check(flags, client, env, flows).join("\n")).toMatch(expected);
  });

  it("takes a shared store with its key", () => {
    expect(
      check({ ...FRONT_DOOR, "token-store": ["redis://127.0.0.1:6379/0"] }, GOOD, {
        OPENAPI_MCP_TOKEN_STORE_KEY: "k".repeat(32),
      }),
    ).toEqual([]);
  });

  it.each([
    [{ "token-store-key": ["short"] }, /at least 32 bytes, got 5 bytes/],
    [{ "token-store": ["postgres://db/1"] }, /expected memory or a redis:\/\/ URL/],
    [{ "token-store": ["redis://:hunter2@127.0.0.1:6379/x"] }, /expected memory or a redis:\/\/ URL/],
  ])("refuses the setting %j without repeating it", (flags, expected) => {
    let message = "";
    try {
      readSettings({ ...FRONT_DOOR, ...flags } as RawFlags, {}, { help: "--help" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(expected);
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("short");
  });

  it("takes the configured URLs where the spec has none", () => {
    const client = { ...GOOD, authorizationUrl: "https://x.test/a", tokenUrl: "https://x.test/t" };
    expect(check(FRONT_DOOR, client, {}, {})).toEqual([]);
  });
});

describe("the auth config's authorizationCode entry", () => {
  it("reads the flow, the URLs and the secret from the environment", () => {
    const config = parseAuthConfig(
      {
        oauth2: {
          user: {
            flow: "authorizationCode",
            clientId: "app",
            clientSecret: { env: "S" },
            redirectUrl: "https://b.test/cb",
            authorizationUrl: "https://x.test/a",
          },
        },
      },
      { S: "secret" },
    );
    expect(config.oauth["user"]).toMatchObject({
      flow: "authorizationCode",
      clientSecret: "secret",
      redirectUrl: "https://b.test/cb",
      authorizationUrl: "https://x.test/a",
    });
  });

  it.each([
    [
      { flow: "implicit", clientId: "a", clientSecret: "b" },
      /flow must be clientCredentials or authorizationCode/,
    ],
    [{ flow: "authorizationCode", clientId: "a", clientSecret: "b" }, /redirectUrl is needed/],
  ])("refuses %j", (entry, expected) => {
    expect(() => parseAuthConfig({ oauth2: { user: entry } }, {})).toThrow(expected);
  });
});

describe("the sealed box", () => {
  const box = createSealedBox("k".repeat(32));
  it("opens what it sealed, for the same purpose only", () => {
    const sealed = box.seal({ access: "t1" }, "user-tokens");
    expect(box.open(sealed, "user-tokens")).toEqual({ access: "t1" });
    expect(box.open(sealed, "login-state")).toBeUndefined();
    expect(createSealedBox("j".repeat(32)).open(sealed, "user-tokens")).toBeUndefined();
    expect(sealed).not.toContain("t1");
  });

  it("opens nothing that was changed, cut or made up", () => {
    const sealed = box.seal({ access: "t1" }, "p");
    const bytes = Buffer.from(sealed, "base64url");
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(box.open(bytes.toString("base64url"), "p")).toBeUndefined();
    expect(box.open(sealed.slice(0, 20), "p")).toBeUndefined();
    expect(box.open("", "p")).toBeUndefined();
    expect(box.open("not base64 at all!", "p")).toBeUndefined();
  });

  it("refuses a key shorter than 32 bytes", () => {
    expect(() => createSealedBox("short")).toThrow(RangeError);
  });
});
