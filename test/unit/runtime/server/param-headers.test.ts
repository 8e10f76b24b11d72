/**
 * Mcp-Param-* headers checked against the body of a 2026-07-28 tools/call: what matches, what
 * is refused, and what is not looked at.
 */
import { describe, expect, it } from "vitest";
import type { BridgeModel } from "../../../../src/model/types.js";
import {
  compareParamHeader,
  decodeHeaderValue,
  findParamHeaderMismatch,
  listParamHeaders,
} from "../../../../src/runtime/server/param-headers.js";

const schema = {
  type: "object",
  properties: {
    tenant: { type: "string", "x-mcp-header": "Tenant" },
    version: { type: "integer", "x-mcp-header": "Api-Version" },
    dryRun: { type: "boolean", "x-mcp-header": "Dry-Run" },
    name: { type: "string" },
  },
};

describe("listParamHeaders", () => {
  it("finds the marked top-level properties", () => {
    expect(listParamHeaders(schema)).toEqual([
      { argument: "tenant", header: "Tenant", type: "string" },
      { argument: "version", header: "Api-Version", type: "integer" },
      { argument: "dryRun", header: "Dry-Run", type: "boolean" },
    ]);
    expect(listParamHeaders({ type: "object", properties: { a: { type: "string" } } })).toEqual([]);
  });
});

describe("compareParamHeader", () => {
  const tenant = { argument: "tenant", header: "Tenant", type: "string" };
  const version = { argument: "version", header: "Api-Version", type: "integer" };
  const dryRun = { argument: "dryRun", header: "Dry-Run", type: "boolean" };
  const cases: {
    param: typeof tenant;
    value: unknown;
    headers: Record<string, string | string[]>;
    ok: boolean;
    why: string;
  }[] = [
    { param: tenant, value: "acme", headers: { "mcp-param-tenant": "acme" }, ok: true, why: "equal" },
    { param: tenant, value: "acme", headers: { "mcp-param-tenant": "other" }, ok: false, why: "different" },
    { param: tenant, value: "acme", headers: {}, ok: false, why: "missing while the body has a value" },
    { param: tenant, value: undefined, headers: {}, ok: true, why: "no value, no header" },
    {
      param: tenant,
      value: null,
      headers: { "mcp-param-tenant": "x" },
      ok: true,
      why: "null: a header is not looked at",
    },
    {
      param: tenant,
      value: "Hello, 世界",
      headers: { "mcp-param-tenant": "=?base64?SGVsbG8sIOS4lueVjA==?=" },
      ok: true,
      why: "Base64 form",
    },
    {
      param: tenant,
      value: "x",
      headers: { "mcp-param-tenant": "=?base64?not base64?=" },
      ok: false,
      why: "broken Base64",
    },
    { param: tenant, value: "x", headers: { "mcp-param-tenant": ["x", "x"] }, ok: false, why: "sent twice" },
    {
      param: version,
      value: 42,
      headers: { "mcp-param-api-version": "42.0" },
      ok: true,
      why: "integers compared as numbers",
    },
    {
      param: version,
      value: 42,
      headers: { "mcp-param-api-version": "43" },
      ok: false,
      why: "another number",
    },
    { param: dryRun, value: true, headers: { "mcp-param-dry-run": "true" }, ok: true, why: "boolean" },
    {
      param: dryRun,
      value: false,
      headers: { "mcp-param-dry-run": "true" },
      ok: false,
      why: "the other boolean",
    },
  ];
  it.each(cases)("$why", ({ param, value, headers, ok }) => {
    expect(compareParamHeader(param, value, headers) === undefined).toBe(ok);
  });
});

describe("decodeHeaderValue", () => {
  it.each([
    ["us-west1", "us-west1"],
    ["=?base64?IHBhZGRlZCA=?=", " padded "],
    ["=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=", "=?base64?literal?="],
    ["=?base64?SGVsbG8?=", undefined], // not padded: not canonical
    ["=?base64?/w==?=", undefined], // not UTF-8
  ])("%s → %s", (given, want) => {
    expect(decodeHeaderValue(given)).toBe(want);
  });
});

describe("findParamHeaderMismatch", () => {
  const model = { tools: [{ name: "getThing", inputSchema: schema }] } as unknown as BridgeModel;
  const call = (args: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "getThing", arguments: args },
  });

  it("refuses a disagreement and echoes the request id", () => {
    const mismatch = findParamHeaderMismatch(model, call({ tenant: "acme" }), { "mcp-param-tenant": "evil" });
    expect(mismatch).toMatchObject({
      id: 7,
      data: { mismatch: { header: "Mcp-Param-Tenant", body: "arguments.tenant" } },
    });
    expect(mismatch?.message).toContain('"evil"');
  });

  it("lets agreeing headers, other tools and other methods through", () => {
    expect(
      findParamHeaderMismatch(model, call({ tenant: "acme", name: "n" }), { "mcp-param-tenant": "acme" }),
    ).toBeUndefined();
    expect(
      findParamHeaderMismatch(
        model,
        { ...call({ tenant: "a" }), params: { name: "other", arguments: { tenant: "a" } } },
        {},
      ),
    ).toBeUndefined();
    expect(
      findParamHeaderMismatch(model, { jsonrpc: "2.0", id: 1, method: "tools/list" }, {}),
    ).toBeUndefined();
  });
});
