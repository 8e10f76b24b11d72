/**
 * Code mode polish: every operation is callable as `api.<identifier>` (a hyphenated operationId
 * is `api.listPets`, the original still `api["list-pets"]`), signatures write out short enum
 * aliases and name the arguments they leave out, and a call refused before anything was sent
 * is not counted as an API call made.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { planApiNames } from "../../../../src/runtime/code/api-names.js";
import { createSignatures } from "../../../../src/runtime/code/signatures.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { planSpec, textOf } from "../../../e2e/safety-support.js";
import { echoHandler, startUpstream, type Upstream } from "../../../helpers/upstream.js";

const many = Object.fromEntries(
  ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"].map(
    (name) => [name, { name: `${name}_filter_value`, in: "query", schema: { type: "string" } }],
  ),
);

const model = planSpec({
  paths: {
    "/pets": {
      get: {
        operationId: "list-pets",
        parameters: [
          { name: "state", in: "query", schema: { $ref: "#/components/schemas/RepeatState" } },
          { name: "id", in: "query", required: true, schema: { type: "string" } },
          ...Object.values(many),
          { name: "market", in: "query", description: "The market to list in.", schema: { type: "string" } },
        ],
        responses: {
          "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
      post: {
        operationId: "listPets",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["name"],
                properties: { name: { type: "string", minLength: 2 } },
              },
            },
          },
        },
        responses: { "201": { description: "Created" } },
      },
    },
    "/3d": { get: { operationId: "3d-secure", responses: { "204": { description: "No content" } } } },
  },
  components: {
    schemas: { RepeatState: { type: "string", enum: ["track", "context", "off"] } },
  },
});

describe("planApiNames", () => {
  it("gives each operation an identifier that no other takes, and resolves both names", () => {
    const names = planApiNames(model.tools);
    expect(model.tools.map((tool) => names.methodOf(tool.name))).toEqual([
      "listPets2",
      "listPets",
      "_3dSecure",
    ]);
    expect(names.resolve("listPets2")?.name).toBe("list-pets");
    expect(names.resolve("list-pets")?.name).toBe("list-pets");
    expect(names.resolve("listPets")?.name).toBe("listPets");
    expect(names.resolve("_3dSecure")?.name).toBe("3d-secure");
  });

  it("resolves a name written without the tool's case and separators, unless two tools share it", () => {
    const names = planApiNames(model.tools);
    expect(names.resolve("THREE_D")).toBeUndefined();
    expect(names.resolve("3d_secure")?.name).toBe("3d-secure");
    expect(names.resolve("list_pets")).toBeUndefined();
  });
});

describe("signatures", () => {
  const names = planApiNames(model.tools);
  const signatures = createSignatures(names.methodOf);
  const listPets = model.tools.find((tool) => tool.name === "list-pets")!;

  it("one line: the identifier, enum values written out, left-out arguments named, documented ones first", () => {
    const line = signatures.signatureOf(listPets);
    expect(line.startsWith("listPets2(args: { id: string;")).toBe(true);
    expect(line).toContain('state?: "track" | "context" | "off"');
    expect(line).toContain("market?: string");
    expect(line).toMatch(/\/\* \+\d+ more: [a-z_]+(, [a-z_]+)*(, …\d+)? \*\//);
    expect(line).not.toMatch(/\/\* \+\d+ more \*\//);
  });

  it("the declaration uses the identifier and says the original name", () => {
    const text = signatures.declarationOf([listPets]);
    expect(text).toContain("listPets2(args:");
    expect(text).toContain('also api["list-pets"]');
  });
});

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream(echoHandler);
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

async function execute(program: string): Promise<CallToolResult> {
  const runtime = createBridgeRuntime(model, { env: {}, baseUrl: upstream.url, mode: "code" });
  try {
    return await runtime.callTool("execute", { program });
  } finally {
    await runtime.close();
  }
}

describe("execute", () => {
  it("calls an operation by its identifier and by its original name", async () => {
    const result = await execute(
      'const a = await api.listPets2({ id: "1" }); const b = await api["list-pets"]({ id: "2" }); await api._3dSecure(); return [a.method, b.method];',
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: ["GET", "GET"] });
    expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/pets?id=1", "/pets?id=2", "/3d"]);
  });

  it("calls an operation named in snake case instead of its hyphens", async () => {
    const result = await execute("await api['3d_secure'](); return 1;");
    expect(result.isError).toBeFalsy();
    expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/3d"]);
  });

  it("a call refused before sending is not an API call made", async () => {
    const result = await execute('await api.listPets({ name: "x" });');
    expect(result.isError).toBe(true);
    expect(upstream.requests).toHaveLength(0);
    const text = textOf(result);
    expect(text).toContain("The program made no API call.");
    expect(text).toContain("1 call was refused before anything was sent (listPets)");
    expect(text).not.toContain("made 1 API call");
  });

  it("a call that could not connect is no API call made, and says it sent nothing", async () => {
    // Port 1 on the loopback: no listener, so the connection is refused.
    const runtime = createBridgeRuntime(model, { env: {}, baseUrl: "http://127.0.0.1:1", mode: "code" });
    try {
      const result = await runtime.callTool("execute", { program: 'await api.listPets2({ id: "1" });' });
      const text = textOf(result);
      expect(text).toContain("ECONNREFUSED");
      expect(text).toContain(
        "The program made no API call. 1 call could not reach the API, so sent nothing (list-pets).",
      );
      expect(text).not.toContain("what it changed stays changed");
    } finally {
      await runtime.close();
    }
  });

  it("calls that reached the API are counted apart from refused ones", async () => {
    const result = await execute(
      'await api.listPets2({ id: "1" }); try { await api.listPets({}); } catch {} await api.nope(); ',
    );
    const text = textOf(result);
    expect(text).toContain("made 1 API call (list-pets)");
    expect(text).toContain("2 calls were refused before anything was sent (listPets, nope)");
  });
});

describe("a left-out argument's name cannot end the comment", () => {
  it("`*/` in a name is broken up", () => {
    const hostile = planSpec({
      paths: {
        "/x": {
          get: {
            operationId: "getX",
            // A required argument whose type fills the line, so the hostile one is left out and
            // named (the note always names the first left out).
            parameters: [
              {
                name: "mode",
                in: "query",
                required: true,
                schema: { type: "string", enum: Array.from({ length: 40 }, (_, i) => `choice_number_${i}`) },
              },
              { name: "end*/evil", in: "query", schema: { type: "string" } },
            ],
            responses: { "204": { description: "No content" } },
          },
        },
      },
    });
    const line = createSignatures().signatureOf(hostile.tools[0]!);
    expect(line).toContain("end*\\/evil");
    expect(line.match(/\*\//g)).toHaveLength(1);
  });
});

/** One GET operation with a path id whose JSON answer is `schema`, its result outline planned. */
function planAnswer(operationId: string, schema: Record<string, unknown>) {
  return planSpec(
    {
      paths: {
        "/things/{id}": {
          get: {
            operationId,
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "OK", content: { "application/json": { schema } } } },
          },
        },
      },
    },
    { resultSchemas: true },
  ).tools[0]!;
}

describe("a one-line signature's result", () => {
  const fields = Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [`field_number_${i}`, { type: "string" }]),
  );
  const enveloped = planAnswer("getTask", {
    type: "object",
    properties: { data: { type: "object", properties: fields } },
  });

  it("shows an envelope's one field with its own fields clipped, not the field left out", () => {
    const line = createSignatures().signatureOf(enveloped);
    expect(line).toMatch(/Promise<\{ data\?: \{ .*field_number_0.* \} \}>$/);
    expect(line).not.toContain("more: data");
    expect(line.length).toBeLessThanOrEqual(320);
  });
});

describe("a one-line signature's result, annotations after the data", () => {
  const item = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`property_${i}`, { type: "string" }]),
  );
  const odata = planAnswer("listMembers", {
    type: "object",
    required: ["@odata.type"],
    properties: {
      "@odata.type": { type: "string", description: "The type." },
      "@odata.count": { type: "integer", description: "How many." },
      "@odata.nextLink": { type: "string", description: "The next page." },
      value: { type: "array", items: { type: "object", properties: item } },
    },
  });

  it("shows value, and names the annotations it leaves out", () => {
    const line = createSignatures().signatureOf(odata);
    expect(line).toMatch(/Promise<\{ value\?: \{ .*property_0/);
    expect(line).toMatch(/more: .*@odata\.type, @odata\.count, @odata\.nextLink/);
  });
});

describe("a one-line signature's result when no content is documented", () => {
  const withResponses = (method: string, responses: Record<string, unknown>) =>
    planSpec({
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/things": { [method]: { operationId: "touchThings", responses } } },
    }).tools[0]!;

  it.each([
    // A 200 "Success" with no content (Trello's GETs): an undocumented answer, still returned.
    { method: "get", responses: { "200": { description: "Success" } }, result: "Promise<unknown>" },
    { method: "post", responses: { "201": { description: "Created" } }, result: "Promise<unknown>" },
    { method: "delete", responses: { "204": { description: "Gone" } }, result: "Promise<null>" },
    { method: "head", responses: { "200": { description: "There" } }, result: "Promise<null>" },
    { method: "delete", responses: { "200": { description: "Response" } }, result: "Promise<null>" },
    {
      method: "get",
      responses: { "202": { description: "Still processing, no content is returned." } },
      result: "Promise<null>",
    },
  ])("$method $responses → $result", ({ method, responses, result }) => {
    expect(createSignatures().signatureOf(withResponses(method, responses))).toMatch(
      new RegExp(`${result.replace(/[<>]/g, "\\$&")}$`),
    );
  });
});

describe("a one-line signature of a few shapes", () => {
  const fields = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`field_number_${i}`, { type: "string" }]),
  );
  const droplet = { type: "object", required: ["name"], properties: { name: { type: "string" }, ...fields } };
  const tool = planSpec(
    {
      paths: {
        "/droplets": {
          post: {
            operationId: "createDroplet",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    oneOf: [
                      droplet,
                      {
                        type: "object",
                        required: ["names"],
                        properties: { names: { type: "array", items: { type: "string" } }, ...fields },
                      },
                    ],
                  },
                },
              },
            },
            responses: {
              "202": {
                description: "Created.",
                content: {
                  "application/json": {
                    schema: {
                      oneOf: [
                        { properties: { droplet } },
                        { properties: { droplets: { type: "array", items: droplet } } },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    { resultSchemas: true },
  ).tools[0]!;

  it("shows a sole long argument with its type clipped, and each shape of the answer clipped", () => {
    const line = createSignatures().signatureOf(tool);
    expect(line).not.toContain("more: body");
    expect(line).toMatch(
      /^createDroplet\(args\??: \{ body\??: \{ name: string;.*\} \| \{ names: string\[\];.*\} \}\)/,
    );
    expect(line).toMatch(
      /Promise<\{ droplet\?: \{ name: string;.*\} \} \| \{ droplets\?: \{ name: string;.*\}\[\] \}>$/,
    );
    expect(line.length).toBeLessThanOrEqual(340);
  });
});
