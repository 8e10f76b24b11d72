/**
 * Results that fit and can be continued, end to end: the built CLI over stdio and Streamable
 * HTTP, a real SDK Client, a recording upstream on 127.0.0.1.
 * - Projection: `_fields` (tools mode), call_operation's `fields` (discovery), `api.x(args,
 *   { fields })` (code mode) keep only the named fields; a malformed path sends nothing.
 * - Continuation: an answer cut by --max-result-chars gives a handle; reading the handles
 *   gives back every item the API sent, in order, without asking the API again; another
 *   session cannot read it; "cannot be fetched" never appears.
 * - describe_operations within the budget: a large schema summarised with pointers, a
 *   pointer shown, shared error-status text said once.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectHttp,
  connectStdio,
  type HttpBridge,
  type SpawnedConnected,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const BUDGET = 3000;
const CREW = Array.from({ length: 106 }, (_, i) => ({
  id: 1000 + i,
  name: `Crew member ${i}`,
  job: i === 0 ? "Director" : "Grip",
  department: "Crew",
  profile_path: `/profiles/${i}-${"p".repeat(12)}.jpg`,
}));
const CREDITS = { id: 550, cast: [{ id: 1, name: "Edward Norton" }], crew: CREW };

/** A body object schema with many nested objects: its full description is far over the budget. */
function largeBody(): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    amount: { $ref: "#/components/schemas/Amount" },
    reference: { type: "string", description: "Your reference for the payment." },
  };
  for (let i = 0; i < 40; i++) {
    properties[`detail${i}`] = {
      type: "object",
      description: `Detail group ${i}: ${"a long explanation of this group of fields. ".repeat(4)}`,
      properties: Object.fromEntries(
        Array.from({ length: 8 }, (_, j) => [
          `field${j}`,
          { type: "string", description: `Field ${j} of group ${i}.` },
        ]),
      ),
    };
  }
  return { type: "object", required: ["amount", "reference"], properties };
}

const ERRORS = {
  "401": { description: "Unauthorized: the access token is missing, expired or revoked. ".repeat(3) },
  "403": { description: "Forbidden: the token lacks the scope this operation requires. ".repeat(3) },
  "429": { description: "Too many requests: wait for the time the Retry-After header says. ".repeat(3) },
};

let upstream: Upstream;
let dir: string;
let spec: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.rawPath === "/movie/550/credits") sendJson(res, 200, CREDITS);
    else sendJson(res, 200, { ok: true });
  });
  dir = mkdtempSync(join(tmpdir(), "omb-results-fit-"));
  spec = join(dir, "movies.json");
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: "3.1.0",
      info: { title: "Movies", version: "1" },
      servers: [{ url: upstream.url }],
      paths: {
        "/movie/{id}/credits": {
          get: {
            operationId: "getCredits",
            summary: "Cast and crew of a movie",
            parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
            responses: {
              "200": {
                description: "The credits",
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      required: ["id", "crew"],
                      properties: {
                        id: { type: "integer" },
                        cast: { type: "array", items: { type: "object" } },
                        crew: {
                          type: "array",
                          items: {
                            type: "object",
                            required: ["id", "name"],
                            properties: {
                              id: { type: "integer" },
                              name: { type: "string" },
                              job: { type: "string" },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
              ...ERRORS,
            },
          },
        },
        "/payments": {
          post: {
            operationId: "createPayment",
            summary: "Start a payment",
            requestBody: { required: true, content: { "application/json": { schema: largeBody() } } },
            responses: { "200": { description: "Started" }, ...ERRORS },
          },
        },
      },
      components: {
        schemas: {
          Amount: {
            type: "object",
            required: ["value", "currency"],
            properties: {
              value: { type: "integer" },
              currency: { type: "string", minLength: 3, maxLength: 3 },
            },
          },
        },
      },
    }),
  );
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

const metaOf = (result: CallToolResult): { continuation?: string } =>
  (Object.entries(result._meta ?? {}).find(([key]) => key.endsWith("truncated"))?.[1] ?? {}) as {
    continuation?: string;
  };

/** The items of every part after the first, read by handle until the end. */
async function readRest(
  read: (handle: string) => Promise<CallToolResult>,
  first: string,
): Promise<{ items: unknown[]; parts: number }> {
  const items: unknown[] = [];
  let handle: string | undefined = first;
  let parts = 0;
  while (handle !== undefined) {
    const part = await read(handle);
    const text = textOf(part);
    expect(part.isError ?? false, text).toBe(false);
    expect(text.length).toBeLessThanOrEqual(BUDGET);
    items.push(...(JSON.parse(text.slice(0, text.lastIndexOf("\n[Part of"))) as unknown[]));
    handle = metaOf(part).continuation;
    parts++;
  }
  return { items, parts };
}

describe("tools mode over stdio", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    // With output schemas: the SDK Client checks every part's structuredContent against it.
    bridge = await connectStdio(spec, [
      "--mode",
      "tools",
      "--output-schemas",
      "--max-result-chars",
      String(BUDGET),
    ]);
    expect(bridge.tools.find((tool) => tool.name === "getCredits")?.outputSchema).toBeDefined();
    // Tools mode says once, in the server's instructions, that every tool takes `_fields`.
    expect(bridge.client.getInstructions()).toContain('"_fields"');
  });
  afterAll(async () => {
    await bridge?.close();
  });

  it("a cut answer is read to its end by handle, every crew member, one API request", async () => {
    upstream.reset();
    const first = await bridge.call("getCredits", { id: 550 });
    const text = textOf(first);
    expect(text.length).toBeLessThanOrEqual(BUDGET);
    expect(text).not.toContain("cannot be fetched");
    const handle = metaOf(first).continuation;
    expect(handle).toBeDefined();
    expect(text).toContain(`{"_continue":"${handle}"}`);
    const shown = (first.structuredContent as { crew: unknown[] }).crew;
    const rest = await readRest((h) => bridge.call("getCredits", { _continue: h }), handle!);
    expect(rest.parts).toBeGreaterThan(1);
    expect([...shown, ...rest.items]).toEqual(CREW);
    expect(upstream.requests).toHaveLength(1);
  });

  it("_fields keeps only the named fields, so the answer fits whole; nothing extra is sent", async () => {
    upstream.reset();
    const result = await bridge.call("getCredits", { id: 550, _fields: ["crew[].id"] });
    expect(result.isError ?? false).toBe(false);
    expect(metaOf(result).continuation).toBeUndefined();
    expect(JSON.parse(textOf(result))).toEqual({ crew: CREW.map(({ id }) => ({ id })) });
    expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/movie/550/credits"]);
  });

  it("a malformed path is refused with what is wrong, and nothing is sent", async () => {
    upstream.reset();
    const result = await bridge.call("getCredits", { id: 550, _fields: ["crew[x].name"] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/_fields: "crew\[x\]\.name" has \[x\]/);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("discovery mode over Streamable HTTP", () => {
  let http: HttpBridge;
  beforeAll(async () => {
    http = await startHttpBridge(spec, ["--mode", "discovery", "--max-result-chars", String(BUDGET)]);
  });
  afterAll(async () => {
    await http?.stop();
  });

  it("fields and continue through call_operation; another session cannot read the handle", async () => {
    const a = await connectHttp(http);
    const b = await connectHttp(http);
    try {
      upstream.reset();
      const first = await a.call("call_operation", { name: "getCredits", arguments: { id: 550 } });
      const handle = metaOf(first).continuation!;
      expect(textOf(first)).toContain(`call_operation with {"continue":"${handle}"}`);
      expect(textOf(first)).not.toContain("cannot be fetched");
      const shown = (first.structuredContent as { crew: unknown[] }).crew;
      const rest = await readRest((h) => a.call("call_operation", { continue: h }), handle);
      expect([...shown, ...rest.items]).toEqual(CREW);

      const other = await b.call("call_operation", { continue: handle });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toContain("no longer kept");

      const projected = await a.call("call_operation", {
        name: "getCredits",
        arguments: { id: 550 },
        fields: ["id", "crew[0].name", "budget"],
      });
      expect(textOf(projected)).toBe(
        '{"id":550,"crew":[{"name":"Crew member 0"}]}\n[Fields: "budget" matched nothing in this answer; its top-level fields: id, cast, crew.]',
      );
      // The notation describe's returns is written in: groups, elisions selecting nothing.
      const grouped = await a.call("call_operation", {
        name: "get_credits",
        arguments: { id: 550 },
        fields: "{id, crew[0]{name, …}}",
      });
      expect(textOf(grouped)).toBe('{"id":550,"crew":[{"name":"Crew member 0"}]}');
      expect(upstream.requests).toHaveLength(3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("describe stays within the budget: summarised with pointers, a pointer shown, error text once", async () => {
    const client = await connectHttp(http);
    try {
      const both = await client.call("describe_operations", { names: ["createPayment", "getCredits"] });
      const text = textOf(both);
      expect(text.length).toBeLessThanOrEqual(BUDGET);
      const answer = JSON.parse(text) as {
        operations: {
          name: string;
          inputSchema: { required?: string[]; properties: Record<string, { expand?: string }> };
        }[];
        responseTexts: Record<string, string>;
        expand: string;
      };
      expect(Object.keys(answer.responseTexts)).toEqual(["401", "403", "429"]);
      expect(text.split("Unauthorized: the access token").length - 1).toBe(3); // one text, said once (×3 repeats inside)
      const payment = answer.operations.find((op) => op.name === "createPayment")!;
      expect(payment.inputSchema.required).toEqual(["amount", "reference"]);
      expect(payment.inputSchema.properties.amount?.expand).toBe("/inputSchema/$defs/Amount");
      expect(answer.expand).toContain('"pointer"');

      const amount = await client.call("describe_operations", {
        names: ["createPayment"],
        pointer: payment.inputSchema.properties.amount!.expand!,
      });
      expect(amount.structuredContent).toMatchObject({
        schema: { required: ["value", "currency"], properties: { currency: { minLength: 3 } } },
      });
      const bad = await client.call("describe_operations", { names: ["createPayment"], pointer: "/nope" });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe("code mode over stdio", () => {
  let bridge: SpawnedConnected;
  beforeAll(async () => {
    bridge = await connectStdio(spec, ["--mode", "code", "--max-result-chars", String(BUDGET)]);
  });
  afterAll(async () => {
    await bridge?.close();
  });

  it("api.x(args, { fields }) gives the program only those fields", async () => {
    const result = await bridge.call("execute", {
      program:
        'const c = await api.getCredits({ id: 550 }, { fields: ["crew[].id"] }); return Object.keys(c.crew[5]).concat(Object.keys(c));',
    });
    expect(result.structuredContent).toEqual({ result: ["id", "crew"] });
  });

  it("a cut return value is read to its end with execute's continue", async () => {
    const first = await bridge.call("execute", {
      program: "const c = await api.getCredits({ id: 550 }); return c.crew;",
    });
    const handle = metaOf(first).continuation!;
    expect(textOf(first)).toContain(`execute with {"continue":"${handle}"}`);
    const shown = (first.structuredContent as { result: unknown[] }).result;
    const rest = await readRest((h) => bridge.call("execute", { continue: h }), handle);
    expect([...shown, ...rest.items]).toEqual(CREW);
  });

  it("describe stays within the budget", async () => {
    const result = await bridge.call("describe_operations", { names: ["createPayment"] });
    expect(textOf(result).length).toBeLessThanOrEqual(BUDGET);
    expect(textOf(result)).toContain('"expand":"/inputSchema/$defs/Amount"');
  });
});
