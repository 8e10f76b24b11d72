/** Settings → BridgeOptions and HttpServerOptions: the one mapping serve and generated servers share. */
import { describe, expect, it } from "vitest";
import type { BridgeModel } from "../../../../src/model/types.js";
import { OPTION_TABLE } from "../../../../src/runtime/config/option-table.js";
import { toBridgeOptions, toHttpServerOptions } from "../../../../src/runtime/config/to-options.js";
import { resolveBridgeOptions } from "../../../../src/runtime/engine/bridge-options.js";
import { resolveHttpServerOptions } from "../../../../src/runtime/transport/transport-options.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model: BridgeModel = planSpec({
  servers: [{ url: "https://{region}.api.example.test", variables: { region: { default: "us" } } }],
  paths: TOY_PATHS,
});
const noAuth = { auth: {}, oauth: {}, passThroughHeaders: {} };

describe("toBridgeOptions", () => {
  it("leaves unset what nothing sets: the runtime applies each default once, the table's own", () => {
    const options = toBridgeOptions({}, { model, env: {}, auth: noAuth });
    expect(options).toEqual({
      access: { destructive: "allow" },
      serverVariables: {},
      auth: {},
      oauth: {},
      passThroughHeaders: {},
      headers: {},
      env: {},
    });
    const resolved = resolveBridgeOptions(options);
    expect(resolved).toMatchObject({
      connection: {
        http: {
          timeoutMs: OPTION_TABLE.timeout.default,
          connectTimeoutMs: OPTION_TABLE.connectTimeout.default,
          maxResponseBytes: OPTION_TABLE.maxResponseBytes.default,
        },
        upstream: {
          retry: { retries: OPTION_TABLE.retries.default },
          maxConcurrency: OPTION_TABLE.maxConcurrency.default,
          circuit: {
            failureThreshold: OPTION_TABLE.circuitBreaker.default,
            cooldownMs: OPTION_TABLE.circuitCooldown.default,
          },
        },
      },
      mode: OPTION_TABLE.mode.default,
      maxTextChars: OPTION_TABLE.maxResultChars.default,
      code: {
        timeoutMs: OPTION_TABLE.codeTimeout.default,
        memoryBytes: OPTION_TABLE.codeMemory.default,
        maxCalls: OPTION_TABLE.codeMaxCalls.default,
        maxCallBytes: OPTION_TABLE.codeMaxCallBytes.default,
        maxAnswerBytes: OPTION_TABLE.codeMaxAnswerBytes.default,
        maxLogChars: OPTION_TABLE.codeMaxLogChars.default,
        maxStackBytes: OPTION_TABLE.codeMaxStack.default,
      },
    });
    // The numbers themselves, so that a default changed by mistake fails here too.
    expect(resolved.connection.upstream).toEqual({
      retry: { retries: 2, baseDelayMs: 200, maxDelayMs: 5_000 },
      circuit: { failureThreshold: 5, cooldownMs: 5_000 },
      maxConcurrency: 64,
    });
    expect(resolved.connection.http).toEqual({
      timeoutMs: 30_000,
      connectTimeoutMs: 10_000,
      maxResponseBytes: 10 * 1024 * 1024,
    });
  });

  it("gives a connect timeout no longer than the whole call's", () => {
    const resolved = resolveBridgeOptions(
      toBridgeOptions({ timeout: 500 }, { model, env: {}, auth: noAuth }),
    );
    expect(resolved.connection.http).toMatchObject({ timeoutMs: 500, connectTimeoutMs: 500 });
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
      maxConcurrency: 0,
      maxResponseBytes: 10,
      maxResultChars: 0,
      circuitBreaker: { failureThreshold: 0, cooldownMs: 1 },
      access: { destructive: "refuse", readOnly: true, methods: ["get"] },
    });
    // At least one call goes out at a time, whatever the setting says.
    expect(resolveBridgeOptions(options).connection.upstream.maxConcurrency).toBe(1);
    expect(
      toBridgeOptions({ serverVar: { region: "ap" } }, { model, env, auth: noAuth }).serverVariables,
    ).toEqual({
      region: "ap",
    });
  });
});

describe("toHttpServerOptions", () => {
  it("binds 127.0.0.1:3000/mcp by default, with no token and no extra origin", () => {
    expect(toHttpServerOptions({})).toEqual({ stateless: false, allowedOrigins: [] });
    expect(resolveHttpServerOptions(toHttpServerOptions({}))).toEqual({
      host: "127.0.0.1",
      port: 3000,
      path: "/mcp",
      maxBodyBytes: 4 * 1024 * 1024,
      sessionIdleMs: 30 * 60_000,
      maxSessions: 1000,
      stateless: false,
      allowedOrigins: [],
    });
    expect(resolveHttpServerOptions({})).toMatchObject({
      host: OPTION_TABLE.host.default,
      port: OPTION_TABLE.port.default,
      path: OPTION_TABLE.path.default,
      maxBodyBytes: OPTION_TABLE.maxBodyBytes.default,
      sessionIdleMs: OPTION_TABLE.sessionIdleTimeout.default,
      maxSessions: OPTION_TABLE.maxSessions.default,
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
