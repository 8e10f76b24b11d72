/**
 * Constants go out as the spec's one value, in every location, and never collide with an
 * argument of the same name (a body property `Action` keeps its own value).
 */
import { describe, expect, it } from "vitest";
import type { ParameterBindingNode, ToolNode } from "../../../../src/model/types.js";
import { buildRequest } from "../../../../src/runtime/request/build-request.js";

function binding(
  name: string,
  location: ParameterBindingNode["in"],
  extra: Partial<ParameterBindingNode> = {},
) {
  return {
    argument: name,
    name,
    in: location,
    required: true,
    style: location === "query" || location === "cookie" ? "form" : "simple",
    explode: location === "query" || location === "cookie",
    allowReserved: false,
    shape: "primitive",
    ...extra,
  } satisfies ParameterBindingNode;
}

function tool(parameters: ParameterBindingNode[], path = "/", body?: ToolNode["http"]["body"]): ToolNode {
  return {
    name: "t",
    title: "t",
    description: "",
    inputSchema: { type: "object", properties: {} },
    annotations: {
      title: "t",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    http: {
      method: "post",
      path,
      parameters,
      security: [],
      responses: [],
      accept: [],
      ...(body ? { body } : {}),
    },
    source: { pointer: "" },
    tags: [],
    deprecated: false,
  };
}

const context = { baseUrl: "https://ec2.example", securitySchemes: {}, credentials: new Map(), headers: {} };

describe("constant parameters", () => {
  it.each([
    {
      title: "EC2's Action and Version in the query, before the arguments",
      parameters: [
        binding("Action", "query", { constant: "DescribeInstances" }),
        binding("Version", "query", { constant: "2016-11-15" }),
        binding("MaxResults", "query", { required: false }),
      ],
      path: "/",
      args: { MaxResults: 5 },
      want: { path: "/?Action=DescribeInstances&Version=2016-11-15&MaxResults=5", headers: {} },
    },
    {
      title: "a header constant (X-Amz-Target)",
      parameters: [binding("X-Amz-Target", "header", { constant: "AmazonAthena.ListWorkGroups" })],
      path: "/",
      args: {},
      want: { path: "/", headers: { "x-amz-target": "AmazonAthena.ListWorkGroups" } },
    },
    {
      title: "a required parameter with a default, left out: its default is sent",
      parameters: [
        binding("api-version", "query", { fill: "2024-01-01" }),
        binding("X-Region", "header", { fill: "eu" }),
      ],
      path: "/",
      args: {},
      want: { path: "/?api-version=2024-01-01", headers: { "x-region": "eu" } },
    },
    {
      title: "a required parameter with a default, given: the given value",
      parameters: [binding("api-version", "query", { fill: "2024-01-01" })],
      path: "/",
      args: { "api-version": "2023-05-01" },
      want: { path: "/?api-version=2023-05-01", headers: {} },
    },
    {
      title: "a path constant",
      parameters: [binding("version", "path", { constant: "v2" }), binding("id", "path")],
      path: "/{version}/items/{id}",
      args: { id: "a b" },
      want: { path: "/v2/items/a%20b", headers: {} },
    },
  ])("$title", ({ parameters, path, args, want }) => {
    const request = buildRequest(tool(parameters, path), args, context);
    expect(request.path).toBe(want.path);
    for (const [name, value] of Object.entries(want.headers)) expect(request.headers[name]).toBe(value);
  });

  it("a body property named like a constant keeps the model's value; the constant goes to its parameter", () => {
    const request = buildRequest(
      tool([binding("Action", "query", { constant: "Run" })], "/", {
        mediaType: "application/json",
        required: true,
        mode: "properties",
        properties: [{ argument: "Action", name: "Action", shape: "primitive" }],
        kind: "json",
      }),
      { Action: "from the body" },
      context,
    );
    expect(request.path).toBe("/?Action=Run");
    expect(request.body).toBe(JSON.stringify({ Action: "from the body" }));
  });
});
