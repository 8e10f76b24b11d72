/**
 * Requirements that ask for several schemes sent in the Authorization header at once (every
 * Google spec converted from its discovery document: `{Oauth2, Oauth2c}`) become one
 * alternative per such scheme, so one configured token is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitSharedHeaderRequirements } from "../../../src/generator/compile/security.js";
import type { SecurityRequirementNode, SecuritySchemeNode } from "../../../src/model/types.js";
import { createBridgeRuntime } from "../../../src/runtime/engine/bridge-runtime.js";
import { planSpec } from "../../e2e/safety-support.js";
import { echoHandler, startUpstream, type Upstream } from "../../helpers/upstream.js";

const SCHEMES: Record<string, SecuritySchemeNode> = {
  implicit: { type: "oauth2", flows: {} },
  code: { type: "oauth2", flows: {} },
  bearer: { type: "http", scheme: "bearer" },
  basic: { type: "http", scheme: "basic" },
  key: { type: "apiKey", in: "header", name: "X-Key" },
  authKey: { type: "apiKey", in: "header", name: "authorization" },
  queryKey: { type: "apiKey", in: "query", name: "key" },
};

describe("splitSharedHeaderRequirements", () => {
  const cases: { label: string; given: SecurityRequirementNode[]; want: SecurityRequirementNode[] }[] = [
    {
      label: "two OAuth2 flows of one token: either one",
      given: [{ implicit: ["a"], code: ["a"] }],
      want: [{ implicit: ["a"] }, { code: ["a"] }],
    },
    {
      label: "Google's two scope alternatives: four, each scheme with its scope",
      given: [
        { implicit: ["a"], code: ["a"] },
        { implicit: ["b"], code: ["b"] },
      ],
      want: [{ implicit: ["a"] }, { code: ["a"] }, { implicit: ["b"] }, { code: ["b"] }],
    },
    {
      label: "a header key beside two Authorization schemes stays with each",
      given: [{ bearer: [], basic: [], key: [] }],
      want: [
        { bearer: [], key: [] },
        { basic: [], key: [] },
      ],
    },
    {
      label: "an apiKey named Authorization shares the header",
      given: [{ authKey: [], code: [] }],
      want: [{ authKey: [] }, { code: [] }],
    },
    {
      label: "one Authorization scheme and a query key: kept as written",
      given: [{ code: ["a"], queryKey: [] }],
      want: [{ code: ["a"], queryKey: [] }],
    },
    {
      label: "anonymous access stays",
      given: [{ implicit: [], code: [] }, {}],
      want: [{ implicit: [] }, { code: [] }, {}],
    },
    {
      label: "an alternative that the split repeats is listed once",
      given: [{ implicit: [], code: [] }, { code: [] }],
      want: [{ implicit: [] }, { code: [] }],
    },
    {
      label: "an unknown scheme is not guessed at",
      given: [{ other: [], code: [] }],
      want: [{ other: [], code: [] }],
    },
  ];
  for (const { label, given, want } of cases) {
    it(label, () => {
      expect(splitSharedHeaderRequirements(given, SCHEMES)).toEqual(want);
    });
  }
});

describe("a Google-shaped spec with one of its two OAuth2 schemes configured", () => {
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream(echoHandler);
  });
  afterAll(async () => {
    await upstream.close();
  });

  const flows = { implicit: { authorizationUrl: "https://accounts.example/auth", scopes: { s: "all" } } };
  const model = planSpec({
    paths: {
      "/events": {
        get: {
          operationId: "events_list",
          security: [{ Oauth2: ["s"], Oauth2c: ["s"] }],
          responses: {
            "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
          },
        },
      },
    },
    components: {
      securitySchemes: { Oauth2: { type: "oauth2", flows }, Oauth2c: { type: "oauth2", flows } },
    },
  });

  for (const scheme of ["Oauth2", "Oauth2c"]) {
    it(`sends the token configured for ${scheme}`, async () => {
      upstream.reset();
      const runtime = createBridgeRuntime(model, {
        env: {},
        baseUrl: upstream.url,
        auth: { [scheme]: "tok-1" },
      });
      try {
        const result = await runtime.callTool("events_list", {});
        expect(result.isError).toBeFalsy();
      } finally {
        await runtime.close();
      }
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]!.headers.authorization).toBe("Bearer tok-1");
    });
  }
});
