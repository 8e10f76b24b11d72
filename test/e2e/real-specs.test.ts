/**
 * Specs written by others (see fixtures/real/README.md): every operation becomes exactly one
 * valid tool that a real SDK Client accepts, names are deterministic, and a few calls land on
 * the wire as those specs describe.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Connected, connectSpec, fixture, library, textOf } from "../helpers/bridge.js";
import { mediaType, parseMultipart, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const REAL_SPECS = [
  "petstore/petstore.openapi30.yaml",
  "real/swagger-petstore.swagger20.yaml",
  "real/uspto.openapi30.yaml",
  "real/readme.openapi31.yaml",
  "real/xkcd.openapi30.json",
];

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function operationCount(file: string): number {
  const doc = parse(readFileSync(fixture(file), "utf8")) as {
    paths: Record<string, Record<string, unknown>>;
  };
  let count = 0;
  for (const item of Object.values(doc.paths)) {
    for (const method of Object.keys(item)) if (METHODS.includes(method)) count++;
  }
  return count;
}

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

describe.each(REAL_SPECS)("%s", (file) => {
  let bridge: Connected;

  beforeAll(async () => {
    bridge = await connectSpec(fixture(file), { baseUrl: upstream.url });
  });

  afterAll(async () => {
    await bridge?.close();
  });

  it("has one tool per operation, none dropped", () => {
    expect(bridge.tools).toHaveLength(operationCount(file));
  });

  it("has unique, portable tool names", () => {
    const names = bridge.tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(name).not.toBe("undefined");
    }
  });

  it("has object input schemas without top-level combinators, and complete annotations", () => {
    for (const tool of bridge.tools) {
      expect(tool.inputSchema.type, tool.name).toBe("object");
      for (const combinator of ["oneOf", "anyOf", "allOf"]) {
        expect(tool.inputSchema, `${tool.name} ${combinator}`).not.toHaveProperty(combinator);
      }
      if (tool.outputSchema !== undefined) expect(tool.outputSchema.type, tool.name).toBe("object");
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(typeof tool.annotations?.[hint], `${tool.name} ${hint}`).toBe("boolean");
      }
      expect(tool.annotations?.openWorldHint).toBe(true);
    }
  });

  it("names tools the same way every time", async () => {
    const { buildModel } = await library();
    const again = await buildModel(fixture(file));
    expect(again.tools.map((t) => t.name)).toEqual(bridge.tools.map((t) => t.name));
  });
});

describe("calls against real specs", () => {
  it("xkcd (no operationIds): derived names work and reach the right paths", async () => {
    const bridge = await connectSpec(fixture("real/xkcd.openapi30.json"), { baseUrl: upstream.url });
    try {
      const byComic = bridge.tools.find((t) =>
        Object.keys(t.inputSchema.properties ?? {}).includes("comicId"),
      );
      expect(byComic).toBeDefined();
      upstream.setHandler((_req, res) => sendJson(res, 200, { num: 614, title: "Woodpecker" }));
      const result = await bridge.call(byComic!.name, { comicId: 614 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(["GET /614/info.0.json"]);
    } finally {
      await bridge.close();
    }
  });

  describe("Swagger Petstore 2.0", () => {
    let bridge: Connected;

    beforeAll(async () => {
      bridge = await connectSpec(fixture("real/swagger-petstore.swagger20.yaml"), {
        baseUrl: upstream.url,
        auth: { petstore_auth: "oauth-tok", api_key: "key-1" },
      });
    });

    afterAll(async () => {
      await bridge?.close();
    });

    it("findPetsByStatus: collectionFormat multi, oauth2 token as bearer", async () => {
      upstream.setHandler((_req, res) => sendJson(res, 200, [{ name: "Rex", photoUrls: [] }]));
      const result = await bridge.call("findPetsByStatus", { status: ["available", "sold"] });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(result.structuredContent).toEqual({ result: [{ name: "Rex", photoUrls: [] }] });
      const req = upstream.requests[0]!;
      expect(`${req.method} ${req.rawUrl}`).toBe("GET /pet/findByStatus?status=available&status=sold");
      expect(req.header("authorization")).toBe("Bearer oauth-tok");
    });

    it("addPet: in: body object merged at the top level", async () => {
      upstream.setHandler((_req, res) => sendJson(res, 200, {}));
      const result = await bridge.call("addPet", {
        name: "Rex",
        photoUrls: ["http://x/1.png"],
        status: "available",
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const req = upstream.requests[0]!;
      expect(`${req.method} ${req.rawUrl}`).toBe("POST /pet");
      expect(mediaType(req.header("content-type"))).toBe("application/json");
      expect(req.json()).toEqual({ name: "Rex", photoUrls: ["http://x/1.png"], status: "available" });
    });

    it("uploadFile: formData file and text field as multipart", async () => {
      upstream.setHandler((_req, res) => sendJson(res, 200, { code: 200, type: "ok", message: "uploaded" }));
      const bytes = Buffer.from("GIF89a-not-really");
      const result = await bridge.call("uploadFile", {
        petId: 12,
        additionalMetadata: "front view",
        file: { base64: bytes.toString("base64"), filename: "rex.gif", contentType: "image/gif" },
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(result.structuredContent).toEqual({ code: 200, type: "ok", message: "uploaded" });
      const req = upstream.requests[0]!;
      expect(`${req.method} ${req.rawUrl}`).toBe("POST /pet/12/uploadImage");
      expect(mediaType(req.header("content-type"))).toBe("multipart/form-data");
      const parts = parseMultipart(req.body, req.header("content-type") ?? "");
      expect(parts.map((p) => p.name).sort()).toEqual(["additionalMetadata", "file"]);
      const filePart = parts.find((p) => p.name === "file")!;
      expect(filePart.filename).toBe("rex.gif");
      expect(mediaType(filePart.contentType)).toBe("image/gif");
      expect(filePart.body.equals(bytes)).toBe(true);
      expect(parts.find((p) => p.name === "additionalMetadata")!.body.toString()).toBe("front view");
    });

    it("getPetById: api_key header", async () => {
      upstream.setHandler((_req, res) => sendJson(res, 200, { id: 3, name: "Rex", photoUrls: [] }));
      const result = await bridge.call("getPetById", { petId: 3 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      const req = upstream.requests[0]!;
      expect(`${req.method} ${req.rawUrl}`).toBe("GET /pet/3");
      expect(req.header("api_key")).toBe("key-1");
      expect(req.header("authorization")).toBeUndefined();
    });
  });
});
