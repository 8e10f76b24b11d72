/** Each API's environment and the options it must set for itself in a bridge of several APIs. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getOptionSpec, OPTION_KEYS, type OptionKey } from "../../../../src/runtime/config/option-table.js";
import {
  API_ONLY_KEYS,
  findMisplacedApiVariables,
  findSharedApiOptions,
  isApiOnlyVariable,
  readOwnVariables,
  toApiEnvironment,
} from "../../../../src/serve/config/api-settings.js";
import { optionScope } from "../../../../src/serve/config/option-scope.js";

describe("optionScope", () => {
  it("marks the options that carry credentials or say where calls go as each API's own", () => {
    expect([...API_ONLY_KEYS].sort()).toEqual(
      [
        "allowCredentialArguments",
        "auth",
        "authConfig",
        "baseUrl",
        "header",
        "oauthClient",
        "passThroughHeader",
        "serverVar",
        "trustOrigin",
      ].sort(),
    );
  });

  it.each<[OptionKey, string]>([
    ["transport", "bridge"],
    ["port", "bridge"],
    ["httpToken", "bridge"],
    ["maxMessageBytes", "bridge"],
    ["mode", "bridge"],
    ["timeout", "api"],
    ["circuitBreaker", "api"],
    ["maxConcurrency", "api"],
    ["includeTools", "api"],
    ["destructive", "api"],
    ["auditLog", "api"],
    ["baseUrl", "api-only"],
    ["auth", "api-only"],
  ])("%s is a %s option", (key, scope) => {
    expect(optionScope(key)).toBe(scope);
  });

  it("are the ones docs/serve.md lists", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../../../docs/serve.md"), "utf8").replace(
      /\s+/g,
      " ",
    );
    const listed =
      /Options that carry credentials or say where calls go \(([^)]*?), and their variables/.exec(readme);
    expect(listed, "the sentence of docs/serve.md's Several APIs section").not.toBeNull();
    const flags = [...listed![1]!.matchAll(/`--([a-z-]+)`/g)].map((m) => m[1]);
    expect(flags.sort()).toEqual(API_ONLY_KEYS.map((key) => getOptionSpec(key).flag).sort());
  });

  it("gives every option of the table a scope", () => {
    for (const key of OPTION_KEYS) expect(["bridge", "api", "api-only"]).toContain(optionScope(key));
  });
});

describe("isApiOnlyVariable", () => {
  it.each([
    ["OPENAPI_MCP_AUTH_API_KEY", true],
    ["OPENAPI_MCP_AUTH_CONFIG", true],
    ["OPENAPI_MCP_BASE_URL", true],
    ["OPENAPI_MCP_HEADERS", true],
    ["OPENAPI_MCP_SERVER_VAR_REGION", true],
    ["OPENAPI_MCP_CLIENT_ID_OAUTH", true],
    ["OPENAPI_MCP_CLIENT_SECRET_OAUTH", true],
    ["OPENAPI_MCP_TRUST_ORIGIN", true],
    ["OPENAPI_MCP_TIMEOUT", false],
    ["OPENAPI_MCP_PORT", false],
    ["OPENAPI_MCP_AUDIT_LOG", false],
    ["PATH", false],
  ])("%s → %s", (name, want) => {
    expect(isApiOnlyVariable(name)).toBe(want);
  });
});

describe("toApiEnvironment", () => {
  const env = {
    PATH: "/bin",
    OPENAPI_MCP_TIMEOUT: "5000",
    OPENAPI_MCP_AUTH_API_KEY: "shared-key",
    OPENAPI_MCP_ERP__AUTH_API_KEY: "erp-key",
    OPENAPI_MCP_ERP__BASE_URL: "http://erp.test",
    OPENAPI_MCP_CRM__AUTH_API_KEY: "crm-key",
    OPENAPI_MCP_MY_CRM__TIMEOUT: "10",
  };

  it("gives each of several APIs its own variables under their plain names, and none of the others'", () => {
    const namespaces = ["erp", "crm", "my-crm"];
    expect(toApiEnvironment(env, "erp", { namespaces })).toEqual({
      PATH: "/bin",
      OPENAPI_MCP_TIMEOUT: "5000",
      OPENAPI_MCP_AUTH_API_KEY: "erp-key",
      OPENAPI_MCP_BASE_URL: "http://erp.test",
    });
    expect(toApiEnvironment(env, "crm", { namespaces })).toEqual({
      PATH: "/bin",
      OPENAPI_MCP_TIMEOUT: "5000",
      OPENAPI_MCP_AUTH_API_KEY: "crm-key",
    });
    expect(toApiEnvironment(env, "my-crm", { namespaces })).toEqual({
      PATH: "/bin",
      OPENAPI_MCP_TIMEOUT: "10",
    });
  });

  it("keeps the bridge-wide credential for a bridge of one API", () => {
    expect(toApiEnvironment(env, undefined, { namespaces: [] })["OPENAPI_MCP_AUTH_API_KEY"]).toBe(
      "shared-key",
    );
    expect(toApiEnvironment(env, "erp", { namespaces: ["erp"] })["OPENAPI_MCP_AUTH_API_KEY"]).toBe("erp-key");
  });

  it("reads an API's own variables", () => {
    expect(readOwnVariables(env, "erp")).toEqual({
      OPENAPI_MCP_AUTH_API_KEY: "erp-key",
      OPENAPI_MCP_BASE_URL: "http://erp.test",
    });
  });
});

describe("findSharedApiOptions", () => {
  it("names every flag, variable and config key that would give all APIs one credential or target", () => {
    const found = findSharedApiOptions({
      flags: { auth: { api_key: "x" }, timeout: 5 },
      env: {
        OPENAPI_MCP_BASE_URL: "http://x.test",
        OPENAPI_MCP_AUTH_API_KEY: "k",
        OPENAPI_MCP_ERP__AUTH_API_KEY: "erp-key",
        OPENAPI_MCP_HEADERS: "",
        OPENAPI_MCP_TIMEOUT: "1",
      },
      config: { header: { "X-A": "1" }, retries: 1 },
      namespaces: ["erp", "crm"],
    });
    expect(found).toEqual([
      "--auth",
      "OPENAPI_MCP_BASE_URL",
      "OPENAPI_MCP_AUTH_API_KEY",
      "the config file's header",
    ]);
  });

  it("finds nothing when each API sets its own", () => {
    expect(
      findSharedApiOptions({
        flags: { timeout: 5 },
        env: { OPENAPI_MCP_CRM__BASE_URL: "http://crm.test" },
        namespaces: ["erp", "crm"],
      }),
    ).toEqual([]);
  });
});

describe("findMisplacedApiVariables", () => {
  const none = { bridgeOptions: [], unknownNamespaces: [] };
  it.each<[string, Record<string, string>, readonly string[], unknown]>([
    [
      "an API's variable for a bridge option",
      { OPENAPI_MCP_ERP__TRANSPORT: "http", OPENAPI_MCP_ERP__MODE: "tools" },
      ["erp", "crm"],
      {
        bridgeOptions: [
          { variable: "OPENAPI_MCP_ERP__TRANSPORT", plain: "OPENAPI_MCP_TRANSPORT" },
          { variable: "OPENAPI_MCP_ERP__MODE", plain: "OPENAPI_MCP_MODE" },
        ],
        unknownNamespaces: [],
      },
    ],
    [
      "a namespace that is not served",
      { OPENAPI_MCP_ERPP__TIMEOUT: "5000", OPENAPI_MCP_HR__AUTH_KEY: "x" },
      ["erp", "crm"],
      { bridgeOptions: [], unknownNamespaces: ["OPENAPI_MCP_ERPP__TIMEOUT", "OPENAPI_MCP_HR__AUTH_KEY"] },
    ],
    [
      "an API's own options, and option variables with __ in a scheme's name",
      {
        OPENAPI_MCP_ERP__TIMEOUT: "5000",
        OPENAPI_MCP_CRM__AUTH_API_KEY: "k",
        OPENAPI_MCP_AUTH_MY__KEY: "k",
        OPENAPI_MCP_SERVER_VAR_A__B: "v",
        OPENAPI_MCP_TRANSPORT: "http",
      },
      ["erp", "crm"],
      none,
    ],
    ["a namespace with a dash", { OPENAPI_MCP_MY_API__TIMEOUT: "1" }, ["my-api"], none],
    ["one API without a namespace: nothing is an API's", { OPENAPI_MCP_ERP__TRANSPORT: "http" }, [], none],
  ])("%s", (_label, env, namespaces, want) => {
    expect(findMisplacedApiVariables(env, namespaces)).toEqual(want);
  });
});
