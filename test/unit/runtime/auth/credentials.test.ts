/**
 * applyCredentials: which alternative of an operation's security is sent, and what a call that
 * meets none still lacks (the 401 result names only the schemes with no credential).
 */
import { describe, expect, it } from "vitest";
import type { SecurityRequirementNode, SecuritySchemeNode } from "../../../../src/model/types.js";
import { applyCredentials } from "../../../../src/runtime/auth/credentials.js";

const SCHEMES: Record<string, SecuritySchemeNode> = {
  AuthHeader: { type: "apiKey", in: "header", name: "Authorization" },
  ClientId: { type: "apiKey", in: "query", name: "client_id" },
  Other: { type: "apiKey", in: "header", name: "X-Other" },
};

describe("applyCredentials", () => {
  const cases: [
    name: string,
    requirements: SecurityRequirementNode[],
    configured: string[],
    headers: Record<string, string>,
    query: string[],
    missing: string[],
  ][] = [
    [
      "an alternative met is sent",
      [{ AuthHeader: [] }],
      ["AuthHeader"],
      { authorization: "v-AuthHeader" },
      [],
      [],
    ],
    [
      "both schemes of one alternative are sent",
      [{ AuthHeader: [], ClientId: [] }],
      ["AuthHeader", "ClientId"],
      { authorization: "v-AuthHeader" },
      ["client_id=v-ClientId"],
      [],
    ],
    // SoundCloud: the two together; one configured is not enough, and only the other is missing.
    [
      "half of an alternative: nothing sent, the other half missing",
      [{ AuthHeader: [], ClientId: [] }],
      ["AuthHeader"],
      {},
      [],
      ["ClientId"],
    ],
    [
      "no alternative: each unconfigured scheme",
      [{ AuthHeader: [] }, { ClientId: [], Other: [] }],
      ["Other"],
      {},
      [],
      ["AuthHeader", "ClientId"],
    ],
    [
      "the second alternative met",
      [{ AuthHeader: [] }, { ClientId: [] }],
      ["ClientId"],
      {},
      ["client_id=v-ClientId"],
      [],
    ],
  ];
  it.each(cases)("%s", (_name, requirements, configured, headers, query, missing) => {
    const credentials = new Map(configured.map((name) => [name, `v-${name}`]));
    const applied = applyCredentials(requirements, SCHEMES, credentials);
    expect(applied.headers).toEqual(headers);
    expect(applied.query).toEqual(query);
    expect(applied.missing).toEqual(missing);
  });
});
