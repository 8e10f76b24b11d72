/**
 * Start-up names each security scheme the served tools need and nobody configured, once per
 * scheme with the tools and how to configure it; nothing when each tool has a configured
 * alternative (anonymous access included) or needs none.
 */
import { describe, expect, it } from "vitest";
import type { BridgeOptions } from "../../../../src/index.js";
import type { SecurityRequirementNode } from "../../../../src/model/types.js";
import { checkMissingCredentials } from "../../../../src/runtime/config/check-missing-credentials.js";
import type { Audience } from "../../../../src/runtime/config/library-options.js";
import { planSpec } from "../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };

function modelOf(operations: Record<string, SecurityRequirementNode[] | undefined>) {
  const paths: Record<string, unknown> = {};
  for (const [id, security] of Object.entries(operations)) {
    paths[`/${id}`] = { get: { operationId: id, responses: ok, ...(security ? { security } : {}) } };
  }
  return planSpec({
    servers: [{ url: "https://api.example.test" }],
    paths,
    components: {
      securitySchemes: {
        api_key: { type: "apiKey", in: "header", name: "X-Key" },
        bearer: { type: "http", scheme: "bearer" },
        cc: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: "https://id.example/t", scopes: {} } },
        },
        mtls: { type: "mutualTLS" },
      },
    },
  });
}

function lines(
  operations: Record<string, SecurityRequirementNode[] | undefined>,
  options: BridgeOptions,
  audience?: Audience,
): string[] {
  const model = modelOf(operations);
  return checkMissingCredentials({
    model,
    tools: model.tools,
    options: { env: {}, ...options },
    ...(audience ? { audience } : {}),
  }).map((d) => `${d.severity} ${d.code} ${d.message}`);
}

const KEY_LINE =
  'warning OMB_CREDENTIAL_MISSING no credential for the security scheme "api_key", which the tool a needs: the API will refuse its calls; configure it with --auth api_key=VALUE or OPENAPI_MCP_AUTH_API_KEY';

describe("checkMissingCredentials", () => {
  it.each<[string, Record<string, SecurityRequirementNode[] | undefined>, BridgeOptions, string[]]>([
    ["a scheme nobody configured", { a: [{ api_key: [] }] }, {}, [KEY_LINE]],
    ["configured with auth", { a: [{ api_key: [] }] }, { auth: { api_key: "k-123" } }, []],
    [
      "configured in the environment",
      { a: [{ api_key: [] }] },
      { env: { OPENAPI_MCP_AUTH_API_KEY: "k-123" } },
      [],
    ],
    [
      "an empty variable is no credential",
      { a: [{ api_key: [] }] },
      { env: { OPENAPI_MCP_AUTH_API_KEY: "" } },
      [KEY_LINE],
    ],
    [
      "carried by a pass-through header",
      { a: [{ api_key: [] }] },
      { passThroughHeaders: { "X-User-Key": "api_key" } },
      [],
    ],
    ["no security at all", { a: undefined, b: [] }, {}, []],
    ["anonymous access as an alternative", { a: [{ api_key: [] }, {}] }, {}, []],
    [
      "another alternative configured",
      { a: [{ api_key: [] }, { bearer: [] }] },
      { auth: { bearer: "t-123" } },
      [],
    ],
    [
      "no alternative configured: one line naming both, one is enough",
      { a: [{ api_key: [] }, { bearer: [] }], b: [{ api_key: [] }, { bearer: [] }] },
      {},
      [
        'warning OMB_CREDENTIAL_MISSING no credential for any of the security schemes "api_key", "bearer" (one is enough), which 2 tools need (a, b): the API will refuse their calls; configure it with --auth api_key=VALUE or OPENAPI_MCP_AUTH_API_KEY; or configure it with --auth bearer=VALUE or OPENAPI_MCP_AUTH_BEARER',
      ],
    ],
    [
      "schemes needed together: one line per scheme",
      { a: [{ api_key: [], bearer: [] }] },
      {},
      [
        KEY_LINE,
        'warning OMB_CREDENTIAL_MISSING no credential for the security scheme "bearer", which the tool a needs: the API will refuse its calls; configure it with --auth bearer=VALUE or OPENAPI_MCP_AUTH_BEARER',
      ],
    ],
    [
      "alternatives where one cannot be configured: the other alone",
      { a: [{ api_key: [] }, { mtls: [] }] },
      {},
      [KEY_LINE],
    ],
    [
      "an alternative of two schemes, one configured",
      { a: [{ api_key: [], bearer: [] }] },
      { auth: { bearer: "t-123" } },
      [KEY_LINE],
    ],
    [
      "many tools, one line",
      { a: [{ api_key: [] }], b: [{ api_key: [] }], c: [{ api_key: [] }], d: [{ api_key: [] }] },
      {},
      [
        'warning OMB_CREDENTIAL_MISSING no credential for the security scheme "api_key", which 4 tools need (a, b, c, and 1 more): the API will refuse their calls; configure it with --auth api_key=VALUE or OPENAPI_MCP_AUTH_API_KEY',
      ],
    ],
    [
      "an OAuth2 scheme: the client's flag and variables too",
      { a: [{ cc: [] }] },
      {},
      [
        'warning OMB_CREDENTIAL_MISSING no credential for the security scheme "cc", which the tool a needs: the API will refuse its calls; configure it with --auth cc=VALUE or OPENAPI_MCP_AUTH_CC, or an OAuth2 client with --oauth-client cc=ID (or OPENAPI_MCP_CLIENT_ID_CC) and OPENAPI_MCP_CLIENT_SECRET_CC',
      ],
    ],
    [
      "an OAuth2 client from the environment",
      { a: [{ cc: [] }] },
      { env: { OPENAPI_MCP_CLIENT_ID_CC: "id", OPENAPI_MCP_CLIENT_SECRET_CC: "secret" } },
      [],
    ],
    [
      "an OAuth2 client in the options",
      { a: [{ cc: [] }] },
      { oauth: { cc: { clientId: "id", clientSecret: "s" } } },
      [],
    ],
    ["mutual TLS cannot be configured: not named", { a: [{ mtls: [] }] }, {}, []],
  ])("%s", (_name, operations, options, expected) => {
    expect(lines(operations, options)).toEqual(expected);
  });

  it("names an API's own variables in a bridge of several", () => {
    const model = modelOf({ a: [{ cc: [] }] });
    const [line] = checkMissingCredentials({
      model,
      tools: model.tools,
      options: { env: {} },
      envPrefix: "OPENAPI_MCP_ERP__",
    });
    expect(line!.message).toMatch(
      /configure it with --auth cc=VALUE or OPENAPI_MCP_ERP__AUTH_CC, or an OAuth2 client with --oauth-client cc=ID \(or OPENAPI_MCP_ERP__CLIENT_ID_CC\) and OPENAPI_MCP_ERP__CLIENT_SECRET_CC$/,
    );
  });

  it("names the library's option for a program", () => {
    expect(lines({ a: [{ api_key: [] }] }, {}, "library")).toEqual([
      'warning OMB_CREDENTIAL_MISSING no credential for the security scheme "api_key", which the tool a needs: the API will refuse its calls; give it in options.auth.api_key or the environment variable OPENAPI_MCP_AUTH_API_KEY',
    ]);
  });
});
