/**
 * The start-up line about credential parameters nobody configured leaves out operations whose
 * security the configuration already meets: their parameter is the same secret in another place
 * (Slack's `token`, Google's `access_token` beside OAuth), withheld all the same.
 */
import { describe, expect, it } from "vitest";
import { checkCredentialParameters } from "../../../../src/runtime/config/check-credential-parameters.js";
import { planSpec } from "../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };
const token = { name: "access_token", in: "query", schema: { type: "string" } };
const model = planSpec({
  paths: {
    "/a": { get: { operationId: "secured", security: [{ bearer: [] }], parameters: [token], responses: ok } },
    "/b": { get: { operationId: "open", security: [], parameters: [token], responses: ok } },
  },
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
});

function lines(auth: Record<string, string>): string[] {
  return checkCredentialParameters({ model, tools: model.tools, options: { env: {}, auth } })
    .filter((d) => d.code === "OMB_CREDENTIAL_PARAMETER")
    .map((d) => d.message);
}

describe("checkCredentialParameters", () => {
  it.each<{ name: string; auth: Record<string, string>; want: RegExp }>([
    { name: "nothing configured: both operations", auth: {}, want: /access_token \(query, 2 tools\)/ },
    {
      name: "the scheme configured: only the open one",
      auth: { bearer: "t-123456" },
      want: /access_token \(query, 1 tool\)/,
    },
  ])("$name", ({ auth, want }) => {
    const found = lines(auth);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(want);
  });
});
