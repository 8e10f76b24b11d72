/**
 * Stripe-shaped form bodies and queries through the built CLI, a real MCP client and a recording
 * upstream on 127.0.0.1: every field of Stripe's form bodies is `style: deepObject`, arrays
 * included (`expand`, `preferred_locales`, `tax_id_data`), which OpenAPI leaves undefined. They
 * must leave as lists Stripe (and PHP, Rack, qs) read: `expand[]=a`, `tax_id_data[0][type]=x`.
 * Discovery mode, with the argument names agents write for call_operation's own (`operation`,
 * `args`), which are read as `name` and `arguments`.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, type SpawnedConnected } from "../helpers/bridge.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";

const DEEP = { style: "deepObject", explode: true };

const SPEC = {
  openapi: "3.0.0",
  info: { title: "Payments API", version: "1" },
  servers: [{ url: "https://api.example.com/" }],
  paths: {
    "/v1/customers": {
      post: {
        operationId: "PostCustomers",
        summary: "Create a customer",
        requestBody: {
          content: {
            "application/x-www-form-urlencoded": {
              encoding: { expand: DEEP, metadata: DEEP, preferred_locales: DEEP, tax_id_data: DEEP },
              schema: {
                type: "object",
                additionalProperties: false,
                properties: {
                  email: { type: "string" },
                  expand: { type: "array", items: { type: "string" } },
                  metadata: { type: "object", additionalProperties: { type: "string" } },
                  preferred_locales: { type: "array", items: { type: "string" } },
                  tax_id_data: {
                    type: "array",
                    items: {
                      type: "object",
                      required: ["type", "value"],
                      properties: { type: { type: "string" }, value: { type: "string" } },
                    },
                  },
                },
              },
            },
          },
        },
        responses: {
          "200": {
            description: "The customer.",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
    "/v1/customers/{customer}": {
      get: {
        operationId: "GetCustomersCustomer",
        summary: "Retrieve a customer",
        parameters: [
          { name: "customer", in: "path", required: true, schema: { type: "string" } },
          { name: "expand", in: "query", ...DEEP, schema: { type: "array", items: { type: "string" } } },
        ],
        responses: {
          "200": {
            description: "The customer.",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
  },
};

let upstream: Upstream;
let bridge: SpawnedConnected;
beforeAll(async () => {
  upstream = await startUpstream();
  const dir = mkdtempSync(join(tmpdir(), "omb-deep-"));
  const spec = join(dir, "payments.json");
  writeFileSync(spec, JSON.stringify(SPEC));
  bridge = await connectStdio(spec, ["--base-url", upstream.url, "--mode", "discovery"]);
});
afterAll(async () => {
  await bridge?.close();
  await upstream?.close();
});

function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((part) => part.text ?? "").join("\n");
}

describe("deepObject arrays on the wire", () => {
  it("sends a form body's arrays as lists and arrays of objects by index", async () => {
    upstream.reset();
    const result = await bridge.call("call_operation", {
      operation: "PostCustomers",
      args: {
        email: "ann@example.com",
        expand: ["sources", "tax_ids"],
        metadata: { order: "42" },
        preferred_locales: ["en", "fr"],
        tax_id_data: [
          { type: "eu_vat", value: "DE1" },
          { type: "gb_vat", value: "GB2" },
        ],
      },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(upstream.requests).toHaveLength(1);
    const request = upstream.requests[0]!;
    expect(request.header("content-type")).toBe("application/x-www-form-urlencoded");
    expect([...new URLSearchParams(request.text())]).toEqual([
      ["email", "ann@example.com"],
      ["expand[]", "sources"],
      ["expand[]", "tax_ids"],
      ["metadata[order]", "42"],
      ["preferred_locales[]", "en"],
      ["preferred_locales[]", "fr"],
      ["tax_id_data[0][type]", "eu_vat"],
      ["tax_id_data[0][value]", "DE1"],
      ["tax_id_data[1][type]", "gb_vat"],
      ["tax_id_data[1][value]", "GB2"],
    ]);
  });

  it("sends a deepObject query array as a list", async () => {
    upstream.reset();
    const result = await bridge.call("call_operation", {
      name: "GetCustomersCustomer",
      arguments: { customer: "cus_1", expand: ["default_source"] },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(upstream.requests.map((r) => [r.rawPath, r.rawQuery])).toEqual([
      ["/v1/customers/cus_1", "expand%5B%5D=default_source"],
    ]);
  });

  it("reads describe's `operations` as its names, and refuses two spellings of one argument", async () => {
    const described = await bridge.call("describe_operations", { operations: ["GetCustomersCustomer"] });
    expect(described.isError, textOf(described)).toBeFalsy();
    expect(textOf(described)).toContain("/v1/customers/{customer}");
    upstream.reset();
    const both = await bridge.call("call_operation", {
      operation: "GetCustomersCustomer",
      operationId: "PostCustomers",
      arguments: { customer: "cus_1" },
    });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toContain("name");
    expect(upstream.requests).toEqual([]);
  });
});
