/** Settings → BridgeOptions and HttpServerOptions: the one mapping serve and generated servers share. */
import { describe, expect, it } from "vitest";
import type { BridgeModel } from "../../../../src/model/types.js";
import { toBridgeOptions, toHttpServerOptions } from "../../../../src/runtime/config/to-options.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model: BridgeModel = planSpec({
  servers: [{ url: "https://{region}.api.example.test", variables: { region: { default: "us" } } }],
  paths: TOY_PATHS,
});
const noAuth = { auth: {}, oauth: {}, passThroughHeaders: {} };

describe("toBridgeOptions", () => {
  it("gives the runtime its defaults from the table when nothing is set", () => {
    const options = toBridgeOptions({}, { model, env: {}, auth: noAuth });
    expect(options).toEqual({
      access: { destructive: "allow" },
      serverVariables: {},
      auth: {},
      oauth: {},
      passThroughHeaders: {},
      headers: {},
      retry: { retries: 2 },
      maxConcurrency: 64,
      circuitBreaker: { failureThreshold: 5, cooldownMs: 5_000 },
      env: {},
    });
  });

  it("maps every setting, flags over the auth config, flags over per-name variables", () => {
    const env = { OPENAPI_MCP_SERVER_VAR_REGION: "eu" };
    const options = toBridgeOptions(
      {
        baseUrl: "http://127.0.0.1:1/v1",
        serverVar: {},
        auth: { api_key: "flag" },
        passThroughHeader: { "X-Key": "api_key" },
        header: { "X-A": "1" },
        timeout: 500,
        connectTimeout: 100,
        retries: 0,
        maxConcurrency: 0,
        maxResponseBytes: 10,
        maxResultChars: 0,
        circuitBreaker: 0,
        circuitCooldown: 1,
        readOnly: true,
        methods: ["get"],
        destructive: "refuse",
      },
      {
        model,
        env,
        auth: {
          auth: { api_key: "file", other: "file" },
          oauth: {},
          passThroughHeaders: { "X-Old": "other" },
        },
      },
    );
    expect(options).toMatchObject({
      baseUrl: "http://127.0.0.1:1/v1",
      serverVariables: { region: "eu" },
      auth: { api_key: "flag", other: "file" },
      passThroughHeaders: { "X-Old": "other", "X-Key": "api_key" },
      headers: { "X-A": "1" },
      timeoutMs: 500,
      connectTimeoutMs: 100,
      retry: { retries: 0 },
      maxConcurrency: 1,
      maxResponseBytes: 10,
      maxResultChars: 0,
      circuitBreaker: { failureThreshold: 0, cooldownMs: 1 },
      access: { destructive: "refuse", readOnly: true, methods: ["get"] },
    });
    expect(
      toBridgeOptions({ serverVar: { region: "ap" } }, { model, env, auth: noAuth }).serverVariables,
    ).toEqual({
      region: "ap",
    });
  });
});

describe("toHttpServerOptions", () => {
  it("binds 127.0.0.1:3000/mcp by default, with no token and no extra origin", () => {
    expect(toHttpServerOptions({})).toEqual({
      host: "127.0.0.1",
      port: 3000,
      path: "/mcp",
      stateless: false,
      allowedOrigins: [],
    });
  });

  it("maps the HTTP settings", () => {
    expect(
      toHttpServerOptions({
        host: "0.0.0.0",
        port: 0,
        path: "/x",
        stateless: true,
        allowOrigin: ["https://app.example.com"],
        httpToken: "t",
        maxBodyBytes: 10,
      }),
    ).toEqual({
      host: "0.0.0.0",
      port: 0,
      path: "/x",
      stateless: true,
      allowedOrigins: ["https://app.example.com"],
      bearerToken: "t",
      maxBodyBytes: 10,
    });
  });
});
