/** Namespaces of a bridge of several APIs, and the names they give tools. */
import { describe, expect, it } from "vitest";
import { TOOL_NAME_PATTERN } from "../../../../src/generator/compile/naming.js";
import type { ToolNode } from "../../../../src/model/types.js";
import {
  checkNamespace,
  deriveNamespace,
  MAX_NAMESPACE_LENGTH,
  NAMESPACE_SEPARATOR,
  namespaceTools,
} from "../../../../src/serve/apis/namespace.js";
import { makeTool } from "../../contracts/tool-factory.js";

/** A tool named `name` at `GET path` (the lifecycle tests' factory, renamed). */
function tool(name: string, path = `/${name}`): ToolNode {
  const base = makeTool();
  return { ...base, name, http: { ...base.http, method: "get", path } };
}

describe("deriveNamespace", () => {
  it.each([
    ["ERP API", "erp"],
    ["CRM API", "crm"],
    ["Swagger Petstore - OpenAPI 3.0", "petstore"],
    ["GitHub v3 REST API", "github"],
    ["Café Orders Service", "cafe_orders"],
    ["Stripe API v2024-06-20", "stripe"],
    ["The API", "api"],
    ["", "api"],
    ["2.0", "api"],
    ["Very Long Enterprise Resource Planning Orders And Invoices", "very_long_enterprise"],
    ["Supercalifragilisticexpialidocious Orders", "supercalifragilisticexpi"],
  ])("%j → %s", (title, want) => {
    const namespace = deriveNamespace(title);
    expect(namespace).toBe(want);
    expect(checkNamespace(namespace)).toBeUndefined();
  });
});

describe("checkNamespace", () => {
  it.each([
    ["erp", true],
    ["erp-v2", true],
    ["erp_v2", true],
    ["ERP2", true],
    ["a".repeat(MAX_NAMESPACE_LENGTH), true],
    ["a".repeat(MAX_NAMESPACE_LENGTH + 1), false],
    ["", false],
    ["erp__v2", false], // the separator inside would make names ambiguous
    ["_erp", false],
    ["erp_", false],
    ["erp-", false],
    ["erp.v2", false],
    ["erp v2", false],
    ["érp", false],
  ])("%j valid: %s", (namespace, valid) => {
    expect(checkNamespace(namespace) === undefined).toBe(valid);
  });
});

describe("namespaceTools", () => {
  it("puts the namespace and __ in front of each name", () => {
    const names = namespaceTools([tool("order_query"), tool("customer-get")], "crm").map((t) => t.name);
    expect(names).toEqual(["crm__order_query", "crm__customer-get"]);
  });

  it("keeps every name within 64 portable characters, unique and the same from run to run", () => {
    const long = "listAllOrdersOfACustomerIncludingTheCancelledOnesAndThoseOnHoldNow"; // 66 characters
    const longer = `${long}X`;
    const tools = [
      tool(long.slice(0, 64)),
      tool(long.slice(0, 63)),
      tool(longer, "/b"),
      tool(`${longer}Y`, "/c"),
    ];
    const namespace = "enterprise_orders";
    const first = namespaceTools(tools, namespace).map((t) => t.name);
    const again = namespaceTools(tools, namespace).map((t) => t.name);
    expect(first).toEqual(again);
    expect(new Set(first.map((n) => n.toLowerCase())).size).toBe(tools.length);
    for (const name of first) {
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(name.startsWith(`${namespace}${NAMESPACE_SEPARATOR}`)).toBe(true);
    }
  });

  it("tells apart two long names that share their first 38 characters", () => {
    const a = `${"x".repeat(50)}_alpha`;
    const b = `${"x".repeat(50)}_beta`;
    const [first, second] = namespaceTools([tool(a, "/a"), tool(b, "/b")], "n".repeat(MAX_NAMESPACE_LENGTH));
    expect(first!.name).not.toBe(second!.name);
    expect(first!.name.length).toBeLessThanOrEqual(64);
    expect(second!.name.length).toBeLessThanOrEqual(64);
  });

  it("gives tools of different namespaces different names, whatever the tools are named", () => {
    // `a` + `__b__c` and `a__b` + `__c` would meet; a namespace cannot hold `__`.
    expect(checkNamespace("a__b")).toBeDefined();
    const a = namespaceTools([tool("b__c")], "a").map((t) => t.name);
    const ab = namespaceTools([tool("c")], "a_b").map((t) => t.name);
    expect(a).not.toEqual(ab);
  });

  it("changes nothing else of a tool", () => {
    const original = tool("order_query");
    const [renamed] = namespaceTools([original], "erp");
    expect({ ...renamed, name: original.name }).toEqual(original);
  });
});
