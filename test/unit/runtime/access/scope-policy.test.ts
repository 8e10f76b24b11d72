/**
 * Which scopes an operation needs from the caller's token (access/scope-policy.ts), and what a
 * caller's scopes do to the runtime: an operation outside them is refused before anything is
 * sent, discovery's search does not find it, and the call's audit line names the subject.
 */
import { describe, expect, it } from "vitest";
import type { CallerAccess } from "../../../../src/runtime/access/caller.js";
import { createScopePolicy, findMissingScopes } from "../../../../src/runtime/access/scope-policy.js";
import type { AuditEntry } from "../../../../src/runtime/audit/audit-log.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { ERROR_META_KEY } from "../../../../src/runtime/results/error-result.js";
import type { ScopeRule } from "../../../../src/runtime/transport/oauth/resource-options.js";
import { planSpec } from "../../../e2e/safety-support.js";

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const model = planSpec({
  servers: [{ url: "http://127.0.0.1:9" }],
  security: [{ oauth: ["pets:read"] }],
  components: {
    securitySchemes: {
      oauth: { type: "oauth2", flows: { clientCredentials: { tokenUrl: "https://x/token", scopes: {} } } },
      key: { type: "apiKey", in: "header", name: "X-Key" },
    },
  },
  paths: {
    "/pets": {
      get: { operationId: "listPets", tags: ["pets"], summary: "List the pets", responses: ok },
      post: {
        operationId: "createPet",
        tags: ["pets"],
        summary: "Create a pet",
        security: [{ oauth: ["pets:write"] }, { oauth: ["pets:admin"] }],
        responses: ok,
      },
    },
    "/pets/{id}": {
      delete: {
        operationId: "deletePet",
        tags: ["admin"],
        summary: "Delete a pet",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: ok,
      },
    },
    "/health": {
      get: { operationId: "health", summary: "Health of the pets service", security: [], responses: ok },
    },
    "/keyed": {
      get: {
        operationId: "keyed",
        summary: "Keyed pets",
        security: [{ oauth: ["pets:read"] }, { key: [] }],
        responses: ok,
      },
    },
  },
});
const tool = (name: string) => model.tools.find((t) => t.name === name)!;

describe("createScopePolicy", () => {
  const cases: [string, ScopeRule[], boolean, string, string[][]][] = [
    ["no rule, no spec scopes: nothing needed", [], false, "listPets", []],
    ["the spec's scopes", [], true, "listPets", [["pets:read"]]],
    ["the spec's alternatives", [], true, "createPet", [["pets:write"], ["pets:admin"]]],
    ["security: [] needs none", [], true, "health", []],
    ["an alternative without scopes (an API key) needs none", [], true, "keyed", []],
    ["a name glob", [{ pattern: "*Pet", scopes: ["w"] }], true, "createPet", [["w"]]],
    [
      "a tag rule over the spec",
      [{ pattern: "tag:admin", scopes: ["adm", "x"] }],
      true,
      "deletePet",
      [["adm", "x"]],
    ],
    [
      "the first match wins",
      [
        { pattern: "tag:pets", scopes: ["first"] },
        { pattern: "listPets", scopes: ["second"] },
      ],
      false,
      "listPets",
      [["first"]],
    ],
    ["a rule with no scopes opens the tool", [{ pattern: "list*", scopes: [] }], true, "listPets", []],
    [
      "no rule matches: the spec's",
      [{ pattern: "tag:admin", scopes: ["adm"] }],
      true,
      "listPets",
      [["pets:read"]],
    ],
  ];
  it.each(cases)("%s", (_name, rules, specScopes, toolName, want) => {
    expect(createScopePolicy({ rules, specScopes }).requiredFor(tool(toolName))).toEqual(want);
  });

  it("lists every scope it knows for the metadata", () => {
    const policy = createScopePolicy({
      rules: [{ pattern: "tag:admin", scopes: ["adm"] }],
      specScopes: true,
    });
    expect(policy.scopesOf(model.tools).sort()).toEqual(["adm", "pets:admin", "pets:read", "pets:write"]);
  });
});

describe("findMissingScopes", () => {
  it.each([
    [[], [], []],
    [[["a"]], ["a"], []],
    [[["a", "b"]], ["a"], ["a", "b"]],
    [[["a"], ["b"]], ["b"], []],
    [[["a"], ["b"]], ["c"], ["a"]],
  ])("needs %j, holds %j: asks for %j", (required, granted, want) => {
    expect(findMissingScopes(required, new Set(granted))).toEqual(want);
  });
});

describe("a caller's scopes in the runtime", () => {
  const policy = createScopePolicy({
    rules: [{ pattern: "tag:admin", scopes: ["pets:admin"] }],
    specScopes: true,
  });
  const reader: CallerAccess = {
    subject: "alice",
    missingScopes: (t) => findMissingScopes(policy.requiredFor(t), new Set(["pets:read"])),
  };

  it("refuses an operation outside the scopes before anything is sent, and audits the subject", async () => {
    const lines: AuditEntry[] = [];
    const runtime = createBridgeRuntime(model, {
      mode: "tools",
      audit: { write: (entry) => lines.push(entry as AuditEntry), close: async () => {} },
    });
    try {
      const refused = await runtime.callTool("deletePet", { id: "1" }, { caller: reader });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("pets:admin");
      expect(refused._meta?.[ERROR_META_KEY]).toMatchObject({
        category: "permission",
        requiredScopes: ["pets:admin"],
      });
      expect(lines.at(-1)).toMatchObject({
        tool: "deletePet",
        outcome: "error",
        category: "permission",
        subject: "alice",
      });
    } finally {
      await runtime.close();
    }
  });

  it("discovery's search and describe do not show what the token may not call; their lines name the subject", async () => {
    const lines: AuditEntry[] = [];
    const runtime = createBridgeRuntime(model, {
      mode: "discovery",
      audit: { write: (entry) => lines.push(entry as AuditEntry), close: async () => {} },
    });
    try {
      const search = await runtime.callTool("search_operations", { query: "pets" }, { caller: reader });
      const found = JSON.stringify(search.structuredContent ?? search.content);
      expect(found).toContain("listPets");
      expect(found).not.toContain("createPet");
      expect(found).not.toContain("deletePet");
      const open = await runtime.callTool("search_operations", { query: "pets" });
      expect(JSON.stringify(open.structuredContent ?? open.content)).toContain("deletePet");
      const describe = await runtime.callTool(
        "describe_operations",
        { names: ["deletePet"] },
        { caller: reader },
      );
      expect(JSON.stringify(describe.structuredContent ?? describe.content)).not.toContain("Delete a pet");
      expect(lines.map((line) => [line.tool, line.subject])).toEqual([
        ["search_operations", "alice"],
        ["search_operations", undefined],
        ["describe_operations", "alice"],
      ]);
    } finally {
      await runtime.close();
    }
  });
  it.each(["discovery", "code"] as const)(
    "%s mode: a near miss or a describe never names an operation the token may not call",
    async (mode) => {
      const runtime = createBridgeRuntime(model, { mode });
      try {
        const described = await runtime.callTool(
          "describe_operations",
          { names: ["deletePet"] },
          { caller: reader },
        );
        const nearMiss = await runtime.callTool(
          "describe_operations",
          { names: ["deletePets"] },
          { caller: reader },
        );
        expect(described.isError).toBe(true);
        expect(JSON.stringify(described.content)).not.toContain("Delete a pet");
        expect(nearMiss.isError).toBe(true);
        // The asked name comes back ("deletePets"); the real one it is close to does not.
        expect(JSON.stringify(nearMiss.content)).not.toMatch(/deletePet(?!s)/);
        // Without a caller (no front door) the same near miss names it.
        const open = await runtime.callTool("describe_operations", { names: ["deletePets"] });
        expect(JSON.stringify(open.content)).toMatch(/deletePet(?!s)/);
      } finally {
        await runtime.close();
      }
    },
  );
});
