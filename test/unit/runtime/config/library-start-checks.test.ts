/**
 * The library refuses what the CLI refuses, at creation rather than at the first call: each bad
 * BridgeOptions value, through each entry point that makes a bridge from options, throws a
 * BridgeError whose coded diagnostic names the library's option (`options.timeoutMs`), never a
 * flag. Good options start quietly; warnings go to `onWarning`.
 */
import { describe, expect, it } from "vitest";
import {
  type BridgeOptions,
  createApiRuntime,
  createBridgeRuntime,
  createBridgeServer,
  type Diagnostic,
  type HttpServerOptions,
  startHttpServer,
} from "../../../../src/index.js";
import { BridgeError } from "../../../../src/model/diagnostics.js";
import type { BridgeModel } from "../../../../src/model/types.js";
import { findPlaceholderHost } from "../../../../src/runtime/config/check-start.js";
import { planSpec } from "../../../e2e/safety-support.js";

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

function specWith(servers: unknown[]): BridgeModel {
  return planSpec({
    servers,
    paths: {
      "/pets": { get: { operationId: "listPets", security: [{ api_key: [] }], responses: ok } },
      "/orders": { get: { operationId: "listOrders", security: [{ cc: [] }], responses: ok } },
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
  });
}

const model = specWith([{ url: "https://api.example.test/v1" }]);
const regional = specWith([
  { url: "https://{region}.example.test/v1", variables: { region: { default: "eu", enum: ["eu", "us"] } } },
]);
const relative = specWith([{ url: "/v1" }]);
/** Good credentials and no environment: a start with nothing to say. */
const GOOD: BridgeOptions = { env: {}, auth: { api_key: "secret-1", cc: "token-1" } };

type Entry = (model: BridgeModel, options: BridgeOptions) => unknown;
const ENTRIES: [string, Entry][] = [
  ["createBridgeRuntime", (m, o) => createBridgeRuntime(m, o)],
  ["createApiRuntime", (m, o) => createApiRuntime({ namespace: "pets", model: m, options: o })],
  ["createBridgeServer", (m, o) => createBridgeServer(m, o)],
];

function refusal(entry: Entry, m: BridgeModel, options: BridgeOptions): Diagnostic[] {
  let thrown: unknown;
  try {
    entry(m, { ...GOOD, ...options, onWarning: () => {} });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(BridgeError);
  return (thrown as BridgeError).diagnostics;
}

const CASES: [string, BridgeModel, BridgeOptions, string, RegExp][] = [
  [
    "a typo'd scheme name",
    model,
    { auth: { apikey: "secret-1" } },
    "OMB_AUTH_SCHEME_UNKNOWN",
    /^options\.auth\.apikey: the spec has no security scheme "apikey"/,
  ],
  [
    "a base URL that is none",
    model,
    { baseUrl: "not a url" },
    "OMB_BASE_URL",
    /^options\.baseUrl: "not a url" is not an http\(s\) URL$/,
  ],
  [
    "a base URL of another protocol",
    model,
    { baseUrl: "ftp://x.test/" },
    "OMB_BASE_URL",
    /^options\.baseUrl: /,
  ],
  [
    "a timeout of 0",
    model,
    { timeoutMs: 0 },
    "OMB_OPTION_INVALID",
    /^options\.timeoutMs: expected a whole number of at least 1, got "0"$/,
  ],
  [
    "a timeout given as text",
    model,
    { timeoutMs: "100" as unknown as number },
    "OMB_OPTION_INVALID",
    /^options\.timeoutMs: expected .*\(a number\), got "100"$/,
  ],
  [
    "a fractional connect timeout",
    model,
    { connectTimeoutMs: 1.5 },
    "OMB_OPTION_INVALID",
    /^options\.connectTimeoutMs: /,
  ],
  ["no concurrency", model, { maxConcurrency: 0 }, "OMB_OPTION_INVALID", /^options\.maxConcurrency: /],
  [
    "a negative response limit",
    model,
    { maxResponseBytes: -1 },
    "OMB_OPTION_INVALID",
    /^options\.maxResponseBytes: /,
  ],
  ["negative retries", model, { retry: { retries: -1 } }, "OMB_OPTION_INVALID", /^options\.retry\.retries: /],
  [
    "a cooldown that is no number",
    model,
    { circuitBreaker: { cooldownMs: Number.NaN } },
    "OMB_OPTION_INVALID",
    /^options\.circuitBreaker\.cooldownMs: /,
  ],
  [
    "a stack out of range",
    model,
    { code: { maxStackBytes: 1024 } },
    "OMB_OPTION_INVALID",
    /^options\.code\.maxStackBytes: expected a whole number from 16384 to 786432/,
  ],
  [
    "an unknown mode",
    model,
    { mode: "tool" as "tools" },
    "OMB_OPTION_INVALID",
    /^options\.mode: expected one of tools, discovery, code, auto, got "tool"$/,
  ],
  [
    "a header name with a space",
    model,
    { headers: { "X Tenant": "acme" } },
    "OMB_OPTION_INVALID",
    /^options\.headers: "X Tenant" is not a valid header name$/,
  ],
  [
    "a header value with a newline",
    model,
    { headers: { "X-Tenant": "a\nb" } },
    "OMB_OPTION_INVALID",
    /^options\.headers: .*control character/,
  ],
  [
    "an OAuth2 client for an apiKey scheme",
    model,
    { oauth: { api_key: { clientId: "id", clientSecret: "secret" } } },
    "OMB_AUTH_CONFIG",
    /^OAuth2 client credentials are configured for "api_key", which is a apiKey scheme/,
  ],
  [
    "a pass-through header for a scheme the spec does not have",
    model,
    { passThroughHeaders: { "X-User": "apikey" } },
    "OMB_AUTH_SCHEME_UNKNOWN",
    /^options\.passThroughHeaders\["X-User"\]: the spec has no security scheme "apikey"/,
  ],
  [
    "a server variable typo",
    regional,
    { serverVariables: { regoin: "eu" } },
    "OMB_SERVER_VARIABLE",
    /^options\.serverVariables\.regoin: no server URL/,
  ],
  [
    "a value outside the enum",
    regional,
    { serverVariables: { region: "mars" } },
    "OMB_SERVER_VARIABLE",
    /^options\.serverVariables\.region "mars": the server URL .* allows only "eu", "us"$/,
  ],
  [
    "a relative server URL and no base URL",
    relative,
    {},
    "OMB_SERVER_URL",
    /^no tool can be called: the server URL "\/v1" is not an absolute URL$/,
  ],
];

describe("the library refuses what the CLI refuses", () => {
  describe.each(ENTRIES)("%s", (_name, entry) => {
    it.each(CASES)("%s", (_case, m, options, code, message) => {
      const diagnostics = refusal(entry, m, options);
      expect(diagnostics.map((d) => d.code)).toContain(code);
      const diagnostic = diagnostics.find((d) => d.code === code)!;
      expect(diagnostic.message).toMatch(message);
      // Words for a program: its option, never a flag (`--auth`, `--base-url`).
      for (const d of diagnostics) expect(`${d.message} ${d.hint ?? ""}`).not.toMatch(/(^|\s)--[a-z]/);
    });
  });

  it("names every bad value at once", () => {
    const diagnostics = refusal(ENTRIES[0]![1], model, { timeoutMs: 0, baseUrl: "x", mode: "all" as "auto" });
    expect(diagnostics.map((d) => d.message.split(":")[0])).toEqual([
      "options.baseUrl",
      "options.timeoutMs",
      "options.mode",
    ]);
  });

  it("hints with the library's options where the CLI's hint names flags", () => {
    const [server] = refusal(ENTRIES[0]![1], relative, {});
    expect(server!.hint).toBe('give the API\'s URL in options.baseUrl ("https://host/path")');
    const [typo] = refusal(ENTRIES[0]![1], model, { auth: { apikey: "secret-1" } });
    expect(typo!.hint).toContain('did you mean "api_key"?');
  });

  it.each(ENTRIES)("%s starts quietly with good options", (_name, entry) => {
    const warnings: Diagnostic[] = [];
    entry(model, { ...GOOD, onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
  });

  it("gives a scheme without a credential to onWarning, in the library's words", () => {
    const warnings: Diagnostic[] = [];
    createBridgeRuntime(model, {
      env: {},
      auth: { api_key: "secret-1" },
      onWarning: (w) => warnings.push(w),
    });
    expect(warnings.map((w) => [w.code, w.message])).toEqual([
      [
        "OMB_CREDENTIAL_MISSING",
        'no credential for the security scheme "cc", which the tool listOrders needs: the API will refuse its calls; give it in options.auth.cc or the environment variable OPENAPI_MCP_AUTH_CC, or an OAuth2 client in options.oauth.cc',
      ],
    ]);
  });
});

describe("a server URL with a placeholder host", () => {
  const jira = specWith([{ url: "https://your-domain.atlassian.net" }]);

  it.each(ENTRIES)("%s warns once, naming the host and the option", (_name, entry) => {
    const warnings: Diagnostic[] = [];
    entry(jira, { ...GOOD, onWarning: (w) => warnings.push(w) });
    expect(warnings.map((w) => [w.code, w.message, w.hint])).toEqual([
      [
        "OMB_SERVER_PLACEHOLDER",
        "the spec's server URL https://your-domain.atlassian.net names a placeholder host (your-domain): every tool would call it",
        'give the API\'s URL in options.baseUrl ("https://host/path")',
      ],
    ]);
  });

  it("is quiet when the URL is given", () => {
    const warnings: Diagnostic[] = [];
    createBridgeRuntime(jira, {
      ...GOOD,
      baseUrl: "https://acme.atlassian.net",
      onWarning: (w) => warnings.push(w),
    });
    expect(warnings).toEqual([]);
  });

  it.each([
    { url: "https://your-domain.atlassian.net", want: "your-domain" },
    { url: "https://yourcompany.zendesk.com/api/v2", want: "yourcompany" },
    { url: "https://my_instance.service-now.com", want: "my_instance" },
    { url: "https://api.example.com/v1", want: undefined },
    { url: "https://yourself.example.org", want: undefined },
    { url: "not a url", want: undefined },
  ])("findPlaceholderHost($url) = $want", ({ url, want }) => {
    expect(findPlaceholderHost(url)).toBe(want);
  });
});

describe("startHttpServer refuses what serve's HTTP flags refuse", () => {
  it.each<[string, HttpServerOptions, string, RegExp]>([
    [
      "a port out of range",
      { port: 70_000 },
      "OMB_OPTION_INVALID",
      /^options\.port: expected a port number from 0 to 65535, got "70000"$/,
    ],
    ["a body limit of 0", { maxBodyBytes: 0 }, "OMB_OPTION_INVALID", /^options\.maxBodyBytes: /],
    ["no sessions", { maxSessions: 0 }, "OMB_OPTION_INVALID", /^options\.maxSessions: /],
    ["an idle timeout of 0", { sessionIdleMs: 0 }, "OMB_OPTION_INVALID", /^options\.sessionIdleMs: /],
    [
      "a confirmation key too short",
      { confirmKey: "short" },
      "OMB_OPTION_INVALID",
      /^options\.confirmKey: expected a secret of at least \d+ bytes, got 5 bytes$/,
    ],
    [
      "a host that is no string",
      { host: 127 as unknown as string },
      "OMB_OPTION_INVALID",
      /^options\.host: expected an address \(a string\), got 127$/,
    ],
    [
      "a negative list TTL",
      { listCache: { ttlMs: -1, cacheScope: "private" } },
      "OMB_OPTION_INVALID",
      /^options\.listCache\.ttlMs: /,
    ],
  ])("%s", async (_case, options, code, message) => {
    const runtime = createBridgeRuntime(model, { ...GOOD, onWarning: () => {} });
    const error = await startHttpServer(runtime, options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BridgeError);
    const [diagnostic] = (error as BridgeError).diagnostics;
    expect(diagnostic!.code).toBe(code);
    expect(diagnostic!.message).toMatch(message);
    expect(diagnostic!.hint).not.toMatch(/(^|\s)--[a-z]/);
  });
});
