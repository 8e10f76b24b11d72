/**
 * The advertised input schema is the truth: a call whose arguments validate against a tool's
 * inputSchema is sent, and one that does not is refused naming what the schema states. Each
 * case is an operation, a call, and what the upstream received (or the refusal). A real SDK
 * Client in memory against a recording upstream on 127.0.0.1.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildModel } from "../../../../src/index.js";
import { connectModel, textOf } from "../../../helpers/bridge.js";
import { startUpstream, type Upstream } from "../../../helpers/upstream.js";

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream();
});

afterAll(async () => {
  await upstream.close();
});

beforeEach(() => {
  upstream.reset();
});

const dir = mkdtempSync(join(tmpdir(), "omb-contract-"));

/** One POST /x (or /x/{o} when a parameter is in the path) with these body and parameters. */
async function toolFor(requestBody: Record<string, unknown> | undefined, parameters: unknown[] = []) {
  const path = parameters.some((p) => (p as { in: string }).in === "path") ? "/x/{o}" : "/x";
  const operation = { operationId: "send", parameters, responses: { "200": { description: "ok" } } };
  const file = join(dir, `spec-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Contract", version: "1" },
      servers: [{ url: "https://api.example.test" }],
      paths: { [path]: { post: requestBody ? { ...operation, requestBody } : operation } },
    }),
  );
  return buildModel(file, { cache: false });
}

const objectOf = (required: string[] | undefined, mediaType = "application/json") => ({
  content: {
    [mediaType]: {
      schema: {
        type: "object",
        ...(required ? { required } : {}),
        properties: { name: { type: "string" }, tag: { type: "string" } },
      },
    },
  },
});

interface Case {
  title: string;
  requestBody?: Record<string, unknown>;
  parameters?: unknown[];
  args: Record<string, unknown>;
  /** What reached the upstream: its Content-Type and body text; undefined: nothing was sent. */
  sent?: { contentType: string | undefined; body: string };
  /** Words of the refusal when nothing was sent. */
  refused?: string;
}

const CASES: Case[] = [
  {
    title: "required JSON body, no required field, no argument: {} is sent",
    requestBody: { required: true, ...objectOf(undefined) },
    args: {},
    sent: { contentType: "application/json", body: "{}" },
  },
  {
    title: "required form body, no required field, no argument: an empty form is sent",
    requestBody: { required: true, ...objectOf(undefined, "application/x-www-form-urlencoded") },
    args: {},
    sent: { contentType: "application/x-www-form-urlencoded", body: "" },
  },
  {
    title: "required multipart body, no required field, no argument: an empty multipart body is sent",
    requestBody: { required: true, ...objectOf(undefined, "multipart/form-data") },
    args: {},
    sent: { contentType: "multipart/form-data", body: "" },
  },
  {
    title: "optional body, no argument: no body",
    requestBody: objectOf(undefined),
    args: {},
    sent: { contentType: undefined, body: "" },
  },
  {
    title: "body required unsaid, its schema requires name: name is a required argument",
    requestBody: objectOf(["name"]),
    args: { tag: "a" },
    refused: "name: required argument missing",
  },
  {
    title: "body required unsaid, name given: sent",
    requestBody: objectOf(["name"]),
    args: { name: "n" },
    sent: { contentType: "application/json", body: '{"name":"n"}' },
  },
  {
    title: "body explicitly optional, no argument: no body",
    requestBody: { required: false, ...objectOf(["name"]) },
    args: {},
    sent: { contentType: undefined, body: "" },
  },
  {
    title: "body explicitly optional, a field without the required one: refused as the schema says",
    requestBody: { required: false, ...objectOf(["name"]) },
    args: { tag: "a" },
    refused: 'name: required when "tag" is given',
  },
  {
    title: "required path object parameter given {}: refused by what its schema states",
    parameters: [
      {
        name: "o",
        in: "path",
        required: true,
        schema: { type: "object", properties: { a: { type: "string" } } },
      },
    ],
    args: { o: {} },
    refused: "o: must have at least 1 propert",
  },
  {
    title: "required query array given []: refused by what its schema states",
    parameters: [
      { name: "ids", in: "query", required: true, schema: { type: "array", items: { type: "integer" } } },
    ],
    args: { ids: [] },
    refused: "ids: ",
  },
  {
    title: "required query array given [1]: sent",
    parameters: [
      { name: "ids", in: "query", required: true, schema: { type: "array", items: { type: "integer" } } },
    ],
    args: { ids: [1] },
    sent: { contentType: undefined, body: "" },
  },
];

describe("the input schema is the contract", () => {
  it.each(CASES)("$title", async ({ requestBody, parameters, args, sent, refused }) => {
    const model = await toolFor(requestBody, parameters);
    const tool = model.tools[0]!;
    const valid = new Ajv2020({ strict: false }).compile(tool.inputSchema)(args);
    // What the schema says decides: valid arguments are sent, invalid ones refused.
    expect(valid).toBe(sent !== undefined);
    const bridge = await connectModel(model, { baseUrl: upstream.url, env: {} });
    try {
      const result = await bridge.call("send", args);
      if (sent) {
        expect(result.isError ?? false, textOf(result)).toBe(false);
        expect(upstream.requests).toHaveLength(1);
        const request = upstream.requests[0]!;
        expect(request.header("content-type")?.split(";")[0]).toBe(sent.contentType);
        const body = request.text();
        if (sent.contentType === "multipart/form-data") expect(body).toMatch(/^--\S+--\r\n$/);
        else expect(body).toBe(sent.body);
      } else {
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(refused);
        expect(upstream.requests).toHaveLength(0);
      }
    } finally {
      await bridge.close();
    }
  });
});
