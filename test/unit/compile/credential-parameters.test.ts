/**
 * The classifier of credential-looking parameters, on real names and descriptions from the
 * corpus specs (test/corpus/specs; the spec each comes from is named), the false positives
 * included: a filter, a page cursor or an idempotency key is no credential.
 */
import { describe, expect, it } from "vitest";
import {
  classifyCredentialParameter,
  type ParameterFacts,
  splitWords,
} from "../../../src/generator/compile/credential-parameters.js";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { CredentialKind } from "../../../src/model/types.js";
import { planSpec } from "../../e2e/safety-support.js";

const cases: { spec: string; facts: ParameterFacts; want: CredentialKind | undefined }[] = [
  // Credentials.
  { spec: "discourse.local", facts: { name: "Api-Key", in: "header" }, want: "secret" },
  { spec: "discourse.local", facts: { name: "token", in: "query", type: "string" }, want: "secret" },
  {
    spec: "listennotes.com",
    facts: { name: "X-ListenAPI-Key", in: "header", description: "Get API Key on listennotes.com/api" },
    want: "secret",
  },
  {
    spec: "oas-examples star-trek",
    facts: { name: "apiKey", in: "query", description: "API key" },
    want: "secret",
  },
  { spec: "oas-examples petstore-simple", facts: { name: "api_key", in: "header" }, want: "secret" },
  {
    spec: "nexmo.com pricing",
    facts: { name: "api_secret", in: "query", description: "Your Nexmo API secret." },
    want: "secret",
  },
  {
    spec: "bhagavadgita.io",
    facts: { name: "access_token", in: "query", description: "Your app's access token." },
    want: "secret",
  },
  {
    spec: "javatpoint.com",
    facts: { name: "oauth_token", in: "query", description: "OAuth 2.0 token for the current user." },
    want: "secret",
  },
  {
    spec: "javatpoint.com",
    facts: {
      name: "key",
      in: "query",
      description:
        "API key. Your API key identifies your project and provides you with API access, quota, and reports.",
    },
    want: "secret",
  },
  {
    spec: "interzoid.com",
    facts: {
      name: "license",
      in: "query",
      description: "Your Interzoid license API key. Register at www.interzoid.com/register",
    },
    want: "secret",
  },
  {
    spec: "oas-examples petstore (2.0)",
    facts: { name: "password", in: "query", description: "The password for login in clear text" },
    want: "secret",
  },
  {
    spec: "letmc.com customer",
    facts: { name: "oldPassword", in: "query", description: "The customer's existing password." },
    want: "secret",
  },
  {
    spec: "amazonaws.com",
    facts: { name: "X-Amz-Security-Token", in: "header", type: "string" },
    want: "secret",
  },
  {
    spec: "adyen.com TransferService",
    facts: { name: "WWW-Authenticate", in: "header", description: "Header for authenticating through SCA" },
    want: "secret",
  },
  // Per-request signatures (AWS Signature v4).
  {
    spec: "amazonaws.com",
    facts: { name: "X-Amz-Signature", in: "header", type: "string" },
    want: "signature",
  },
  {
    spec: "amazonaws.com",
    facts: { name: "X-Amz-SignedHeaders", in: "header", type: "string" },
    want: "signature",
  },
  {
    spec: "amazonaws.com",
    facts: { name: "X-Amz-Credential", in: "header", type: "string" },
    want: "signature",
  },
  { spec: "amazonaws.com", facts: { name: "X-Amz-Date", in: "header", type: "string" }, want: "signature" },
  {
    spec: "amazonaws.com",
    facts: { name: "X-Amz-Content-Sha256", in: "header", type: "string" },
    want: "signature",
  },
  // Not credentials: data keys, page cursors, idempotency values, filters, booleans, look-alikes.
  {
    spec: "amazonaws.com athena",
    facts: { name: "NextToken", in: "query", description: "Pagination token" },
    want: undefined,
  },
  {
    spec: "amazonaws.com route53",
    facts: { name: "nexttoken", in: "query", description: "An opaque pagination token" },
    want: undefined,
  },
  {
    spec: "amazonaws.com iotfleethub",
    facts: { name: "nextToken", in: "query", description: "A token used to get the next set of results." },
    want: undefined,
  },
  {
    spec: "googleapis.com",
    facts: {
      name: "pageToken",
      in: "query",
      description: "Optional. A page token, received from a previous `ListProducts` call.",
    },
    want: undefined,
  },
  {
    spec: "twilio.com pricing",
    facts: { name: "PageToken", in: "query", description: "The page token. This is provided by the API." },
    want: undefined,
  },
  {
    spec: "amazonaws.com nimble",
    facts: {
      name: "X-Amz-Client-Token",
      in: "header",
      description:
        "Unique, case-sensitive identifier that you provide to ensure the idempotency of the request.",
    },
    want: undefined,
  },
  {
    spec: "amazonaws.com iotfleethub",
    facts: {
      name: "clientToken",
      in: "query",
      description:
        "A unique case-sensitive identifier that you can provide to ensure the idempotency of the request.",
    },
    want: undefined,
  },
  {
    spec: "adyen.com Checkout",
    facts: {
      name: "Idempotency-Key",
      in: "header",
      description:
        "A unique identifier for the message with a maximum of 64 characters (we recommend a UUID).",
    },
    want: undefined,
  },
  {
    spec: "salesloft.com",
    facts: { name: "idempotency_key", in: "query", description: "Filters tasks by idempotency key." },
    want: undefined,
  },
  {
    spec: "azure.com adhybridhealth",
    facts: { name: "groupKey", in: "query", description: "The group key" },
    want: undefined,
  },
  {
    spec: "azure.com adhybridhealth",
    facts: { name: "nextPartitionKey", in: "query", description: "The next partition key to query for." },
    want: undefined,
  },
  {
    spec: "amazonaws.com iotfleethub",
    facts: {
      name: "tagKeys",
      in: "query",
      description: "A list of the keys of the tags to be removed from the resource.",
    },
    want: undefined,
  },
  {
    spec: "crucible.local",
    facts: { name: "jiraKey", in: "query", description: 'a Jira issue key (e.g. "FOO-3453")' },
    want: undefined,
  },
  {
    spec: "anchore.io",
    facts: { name: "subscription_key", in: "query", description: "filter only subscriptions matching key" },
    want: undefined,
  },
  { spec: "anchore.io", facts: { name: "credential_type", in: "query" }, want: undefined },
  {
    spec: "crucible.local",
    facts: { name: "author", in: "query", description: "reviews authored by this user." },
    want: undefined,
  },
  {
    spec: "crucible.local",
    facts: { name: "userName", in: "query", description: "the username of the user to get the token for" },
    want: undefined,
  },
  {
    spec: "nbg.gr",
    facts: {
      name: "x-fapi-auth-date",
      in: "header",
      description: "The time when the PSU last logged in with the TPP.",
    },
    want: undefined,
  },
  {
    spec: "salesloft.com",
    facts: {
      name: "include_signature",
      in: "query",
      description: "Optionally will return the templates with the current user's email signature",
    },
    want: undefined,
  },
  {
    spec: "azure.com adhybridhealth",
    facts: { name: "dimensionSignature", in: "query", description: "The value of the dimension." },
    want: undefined,
  },
  {
    spec: "googleapis.com drivelabels",
    facts: {
      name: "useAdminAccess",
      in: "query",
      type: "boolean",
      description: "Set to `true` in order to use the user's admin credentials.",
    },
    want: undefined,
  },
  {
    spec: "anchore.io",
    facts: {
      name: "validate",
      in: "query",
      type: "boolean",
      description: "flag to determine whether or not to validate registry/credential at registry add time",
    },
    want: undefined,
  },
  {
    spec: "javatpoint.com",
    facts: {
      name: "quotaUser",
      in: "query",
      description: "Available to use for quota purposes for server-side applications.",
    },
    want: undefined,
  },
  { spec: "amazonaws.com", facts: { name: "X-Amz-Target", in: "header", type: "string" }, want: undefined },
  { spec: "discourse.local", facts: { name: "Api-Username", in: "header", type: "string" }, want: undefined },
  {
    spec: "made up: a path segment names a resource",
    facts: { name: "token", in: "path", type: "string" },
    want: undefined,
  },
  {
    spec: "made up: sort keys are data",
    facts: { name: "sort_key", in: "query", type: "string" },
    want: undefined,
  },
];

describe("classifyCredentialParameter", () => {
  it.each(cases)("$facts.name ($facts.in, $spec) → $want", ({ facts, want }) => {
    expect(classifyCredentialParameter(facts)).toBe(want);
  });
});

describe("splitWords", () => {
  it.each([
    ["X-ListenAPI-Key", ["x", "listen", "api", "key"]],
    ["oldPassword", ["old", "password"]],
    ["api_key", ["api", "key"]],
    ["NextToken", ["next", "token"]],
    ["X-Amz-Content-Sha256", ["x", "amz", "content", "sha256"]],
  ])("%s → %j", (name, want) => {
    expect(splitWords(name)).toEqual(want);
  });
});

describe("planning marks credential-looking parameters, and only them", () => {
  it("Discourse-like: Api-Key is marked, Api-Username and the path id are not; the input schema still lists Api-Key (the runtime decides)", () => {
    const loaded = {
      source: "spec.json",
      specVersion: "3.1",
      diagnostics: [],
      document: {
        openapi: "3.1.0",
        info: { title: "T", version: "1" },
        paths: {
          "/t/{id}.json": {
            get: {
              operationId: "getTopic",
              parameters: [
                { name: "Api-Key", in: "header", required: true, schema: { type: "string" } },
                { name: "Api-Username", in: "header", required: true, schema: { type: "string" } },
                { name: "id", in: "path", required: true, schema: { type: "string" } },
              ],
              responses: { "200": { description: "OK" } },
            },
          },
        },
      },
    } as unknown as LoadedSpec;
    const [tool] = planModel(loaded).tools;
    expect(tool!.http.parameters.map((p) => [p.name, p.credential])).toEqual([
      ["Api-Key", "secret"],
      ["Api-Username", undefined],
      ["id", undefined],
    ]);
    expect(Object.keys(tool!.inputSchema.properties as object)).toContain("Api-Key");
  });
});

describe("a body property named as an apiKey scheme is no argument", () => {
  function bodyArguments(property: string, required: boolean): string[] {
    const [tool] = planSpec({
      security: [{ clientId: [], secret: [] }],
      components: {
        securitySchemes: {
          clientId: { type: "apiKey", in: "header", name: "PLAID-CLIENT-ID" },
          secret: { type: "apiKey", in: "header", name: "PLAID-SECRET" },
          apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" },
        },
      },
      paths: {
        "/accounts/get": {
          post: {
            operationId: "accountsGet",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    required: ["access_token", ...(required ? [property] : [])],
                    properties: { access_token: { type: "string" }, [property]: { type: "string" } },
                  },
                },
              },
            },
            responses: { "200": { description: "OK" } },
          },
        },
      },
    }).tools;
    return Object.keys(tool!.inputSchema.properties as object);
  }
  // Plaid's bodies take client_id and secret as well as its headers.
  it.each([
    ["client_id", false, ["access_token"]],
    ["secret", false, ["access_token"]],
    ["api_key", false, ["access_token"]],
    ["plaid_secret", false, ["access_token"]],
    // A required one is what the API needs in the body: it stays (the operator's --header or a
    // profile can fill it), as do names no scheme goes by.
    ["client_id", true, ["access_token", "client_id"]],
    ["client_name", false, ["access_token", "client_name"]],
    ["id", false, ["access_token", "id"]],
  ])("%s (required: %s) → %j", (property, required, want) => {
    expect(bodyArguments(property, required)).toEqual(want);
  });
});
