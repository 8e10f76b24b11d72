/** The --auth-config file: shape checks, `{ env: NAME }` values, clear errors. */
import { describe, expect, it } from "vitest";
import { parseAuthConfig } from "../../../../src/runtime/auth/auth-config.js";
import { isSameSite } from "../../../../src/runtime/auth/oauth.js";

describe("parseAuthConfig", () => {
  it("reads static credentials, OAuth2 clients and pass-through headers, with values from the environment", () => {
    const config = parseAuthConfig(
      {
        auth: { api_key: { env: "KEY" }, basic: "u:p" },
        oauth2: {
          cc: {
            clientId: "id",
            clientSecret: { env: "SECRET" },
            scopes: "read  write",
            tokenUrl: "https://idp/token",
            clientAuth: "body",
            extraParams: { audience: "https://api" },
          },
          other: { clientId: "x", clientSecret: "y", scopes: ["a"] },
        },
        passThroughHeaders: { "X-User-Key": "api_key" },
      },
      { KEY: "k-1", SECRET: "s-1" },
    );
    expect(config).toEqual({
      auth: { api_key: "k-1", basic: "u:p" },
      oauth: {
        cc: {
          clientId: "id",
          clientSecret: "s-1",
          scopes: ["read", "write"],
          tokenUrl: "https://idp/token",
          clientAuth: "body",
          extraParams: { audience: "https://api" },
        },
        other: { clientId: "x", clientSecret: "y", scopes: ["a"] },
      },
      passThroughHeaders: { "X-User-Key": "api_key" },
    });
  });

  it.each([
    [[], "the file must be an object"],
    [{ oauth: {} }, 'unknown key "oauth"'],
    [
      { oauth2: { cc: { clientId: "a" } } },
      "oauth2.cc.clientSecret must be a non-empty string or { env: NAME }",
    ],
    [
      { oauth2: { cc: { clientId: "a", clientSecret: { env: "MISSING" } } } },
      "the environment variable MISSING is not set",
    ],
    [
      { oauth2: { cc: { clientId: "a", clientSecret: "b", clientAuth: "jwt" } } },
      "clientAuth must be basic or body",
    ],
    [
      { oauth2: { cc: { clientId: "a", clientSecret: "b", secret: "c" } } },
      'oauth2.cc: unknown key "secret"',
    ],
    [
      { oauth2: { cc: { clientId: "a", clientSecret: "b", scopes: [1] } } },
      "scopes must be a list of strings",
    ],
    [{ auth: { k: "" } }, "auth.k must be a non-empty string"],
    [{ passThroughHeaders: { h: 1 } }, "passThroughHeaders.h must be a scheme name"],
  ])("refuses %j", (value, message) => {
    expect(() => parseAuthConfig(value, {})).toThrow(message);
  });
});

describe("isSameSite: where a spec-named token URL is trusted without confirmation", () => {
  it.each([
    ["api.example.com", "api.example.com", true],
    ["auth.example.com", "api.example.com", true],
    ["API.Example.com.", "api.example.com", true],
    ["login.example.co.uk", "api.example.co.uk", true],
    ["evil.co.uk", "example.co.uk", false],
    ["attacker.github.io", "victim.github.io", false],
    ["example.com.evil.net", "example.com", false],
    ["login.microsoftonline.com", "management.azure.com", false],
    ["127.0.0.2", "127.0.0.1", false],
    ["localhost", "127.0.0.1", false],
    ["127.0.0.1", "127.0.0.1", true],
  ])("%s for an API on %s: %s", async (token, api, want) => {
    expect(await isSameSite(token, api)).toBe(want);
  });
});
