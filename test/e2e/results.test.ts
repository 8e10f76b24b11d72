/**
 * What the client sees: tools/list (names, argument schemas, annotations, output schemas) and the
 * results of successful calls (JSON, arrays, 204, text, images), for the wire API in all three
 * spec versions. The SDK Client checks structuredContent against outputSchema on every call.
 */
import { readFileSync } from "node:fs";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Connected, connectSpec, fixture, textOf } from "../helpers/bridge.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";
import { ALL, PNG_BYTES, RAW_BYTES, type SpecVersion, WIRE_SPECS, wireResponder } from "./wire-cases.js";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function operationIds(file: string): string[] {
  const doc = parse(readFileSync(fixture(file), "utf8")) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const ids: string[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) ids.push((op as { operationId: string }).operationId);
    }
  }
  return ids.sort();
}

type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  [k: string]: unknown;
};

const ajv = new Ajv2020({ strict: false });

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream(wireResponder);
});

afterAll(async () => {
  await upstream.close();
});

describe.each(ALL)("tools and results, OpenAPI %s", (version: SpecVersion) => {
  let bridge: Connected;
  const byName = (name: string): Tool => {
    const tool = bridge.tools.find((t) => t.name === name);
    if (tool === undefined)
      throw new Error(`no tool ${name} in ${bridge.tools.map((t) => t.name).join(", ")}`);
    return tool;
  };
  const input = (name: string): Schema => byName(name).inputSchema as Schema;
  const keys = (name: string): string[] => Object.keys(input(name).properties ?? {}).sort();
  const required = (name: string): string[] => [...(input(name).required ?? [])].sort();

  beforeAll(async () => {
    bridge = await connectSpec(
      fixture(WIRE_SPECS[version]),
      { baseUrl: upstream.url },
      { outputSchemas: true },
    );
  });

  afterAll(async () => {
    await bridge?.close();
  });

  it("lists one tool per operation, named by operationId", () => {
    expect(bridge.tools.map((t) => t.name).sort()).toEqual(operationIds(WIRE_SPECS[version]));
  });

  it("gives every tool a portable name and an object input schema without top-level combinators", () => {
    for (const tool of bridge.tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.inputSchema.type, tool.name).toBe("object");
      for (const combinator of ["oneOf", "anyOf", "allOf"]) {
        expect(tool.inputSchema, `${tool.name} ${combinator}`).not.toHaveProperty(combinator);
      }
      expect(typeof tool.description).toBe("string");
    }
  });

  it.each([
    ["getPet", { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }],
    [
      "createPet",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    ],
    [
      "replacePets",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    ],
    ["deletePet", { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true }],
  ] as const)("annotates %s from its HTTP method", (name, hints) => {
    const annotations = byName(name).annotations;
    expect(annotations).toMatchObject(hints);
    expect(typeof annotations?.title).toBe("string");
    expect(annotations?.title?.length).toBeGreaterThan(0);
  });

  it("puts parameters and object-body properties at the top level, with exact required lists", () => {
    expect(keys("getPet")).toEqual(["petId"]);
    expect(required("getPet")).toEqual(["petId"]);
    expect(keys("createPet")).toEqual(["age", "dryRun", "extraProperties", "name", "tag"]);
    expect(required("createPet")).toEqual(["name"]);
    expect(keys("login")).toEqual(["password", "scopes", "username"]);
    expect(required("login")).toEqual(["password", "username"]);
    expect(keys("headerParams")).toEqual(["X-Arr", "X-Request-Id"]);
    expect(required("headerParams")).toEqual([]);
    expect(keys("queryForm")).toEqual(["arr", "arrCsv", "prim"]);
  });

  it("carries descriptions, formats and bounds over to the arguments", () => {
    const pet = input("createPet").properties!;
    expect(pet["name"]?.description).toBe("The pet's name");
    expect(pet["age"]?.minimum).toBe(0);
    const list = input("listPets").properties!;
    expect(list["limit"]?.minimum).toBe(1);
    expect(list["limit"]?.maximum).toBe(100);
    expect(input("getPet").properties!["petId"]?.format).toBe("int64");
  });

  it("suffixes clashing names: path keeps `id`, then `id__query`, then `id__body`", () => {
    expect(keys("updateThing")).toEqual(["id", "id__body", "id__query", "name"]);
    expect(required("updateThing")).toEqual(["id", "id__body", "id__query", "name"]);
    const props = input("updateThing").properties!;
    expect(props["id"]?.type).toBe("string");
    expect(props["id__query"]?.type).toBe("integer");
    expect(props["id__body"]?.type).toBe("string");
  });

  it("makes every non-object body one argument `body`", () => {
    expect(keys("replacePets")).toEqual(["body"]);
    expect(input("replacePets").properties!["body"]?.type).toBe("array");
    expect(keys("setCounter")).toEqual(["body"]);
    expect(input("setCounter").properties!["body"]?.type).toBe("integer");
    expect(keys("addPetNote")).toEqual(["body", "petId"]);
    expect(keys("uploadFile")).toEqual(["body", "name"]);
    for (const name of ["replacePets", "setCounter", "addPetNote", "uploadFile"]) {
      expect(required(name), name).toContain("body");
    }
    if (version !== "2.0") expect(keys("createShape")).toEqual(["body"]);
  });

  it("takes multipart fields at the top level", () => {
    expect(keys("uploadPetPhoto")).toEqual(
      version === "2.0" ? ["caption", "petId", "photo"] : ["caption", "meta", "petId", "photo"],
    );
    expect(required("uploadPetPhoto")).toEqual(["petId", "photo"]);
  });

  it("advertises output schemas: objects as they are, arrays wrapped in `result`, none for 204", () => {
    const pet = byName("getPet").outputSchema;
    expect(pet?.type).toBe("object");
    const validPet = ajv.compile(pet!);
    expect(validPet({ id: 1, name: "Rex" }), JSON.stringify(validPet.errors)).toBe(true);
    // scalar fields are only named (real APIs stray from their specs); lists and objects are typed
    expect(validPet({ id: "one", name: "Rex" })).toBe(true);
    expect(Object.keys((pet?.properties ?? {}) as object)).toEqual(expect.arrayContaining(["id", "name"]));
    expect(validPet([{ id: 1, name: "Rex" }])).toBe(false);
    const list = byName("listPets").outputSchema;
    expect(list?.type).toBe("object");
    const validList = ajv.compile(list!);
    expect(validList({ result: [{ id: 1, name: "Rex" }] }), JSON.stringify(validList.errors)).toBe(true);
    expect(validList({ result: { id: 1 } })).toBe(false);
    expect(validList([{ id: 1, name: "Rex" }])).toBe(false);
    expect(byName("deletePet").outputSchema).toBeUndefined();
  });

  it("returns a JSON object as structuredContent plus a text copy", async () => {
    const result = await bridge.call("getPet", { petId: 1 });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ id: 1, name: "Rex" });
    expect(JSON.parse(textOf(result))).toEqual({ id: 1, name: "Rex" });
  });

  it("wraps a JSON array as { result: [...] }", async () => {
    const result = await bridge.call("listPets", { limit: 1 });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ result: [{ id: 1, name: "Rex" }] });
    expect(textOf(result)).toContain("Rex");
  });

  it("accepts a 201 answer as success", async () => {
    const result = await bridge.call("createPet", { name: "Rex" });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toEqual({ id: 1, name: "Rex" });
  });

  it("answers a 204 with a successful result", async () => {
    const result = await bridge.call("deletePet", { petId: 1 });
    expect(result.isError ?? false).toBe(false);
    expect(Array.isArray(result.content)).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });

  it("returns text/plain as text", async () => {
    const result = await bridge.call("getPetNotes", { petId: 1 });
    expect(result.isError ?? false).toBe(false);
    expect(textOf(result)).toContain("likes walks");
  });

  it("returns an image as image content", async () => {
    const result = await bridge.call("getPetPhoto", { petId: 1 });
    expect(result.isError ?? false).toBe(false);
    const image = result.content.find((c) => c.type === "image");
    expect(image).toEqual(expect.objectContaining({ type: "image", mimeType: "image/png" }));
    expect(Buffer.from((image as { data: string }).data, "base64").equals(PNG_BYTES)).toBe(true);
  });

  it("returns other binary bodies as an embedded resource", async () => {
    const result = await bridge.call("downloadFile", { name: "report.bin" });
    expect(result.isError ?? false).toBe(false);
    const resource = result.content.find((c) => c.type === "resource") as
      | { type: "resource"; resource: { uri: string; mimeType?: string; blob?: string } }
      | undefined;
    expect(resource, JSON.stringify(result.content)).toBeDefined();
    expect(resource!.resource.mimeType).toBe("application/octet-stream");
    expect(Buffer.from(resource!.resource.blob ?? "", "base64").equals(RAW_BYTES)).toBe(true);
  });

  it("coerces what real clients send: numbers and booleans as strings, one value for an array", async () => {
    upstream.reset();
    const result = await bridge.call("queryForm", { arr: "solo" });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests[0]?.rawQuery).toBe("arr=solo");
    upstream.reset();
    const created = await bridge.call("createPet", { name: "Rex", age: "3", dryRun: "true" });
    expect(created.isError ?? false, textOf(created)).toBe(false);
    expect(upstream.requests[0]?.rawQuery).toBe("dryRun=true");
    expect(upstream.requests[0]?.json()).toEqual({ name: "Rex", age: 3 });
  });

  it("coerces objects and arrays sent as JSON strings", async () => {
    upstream.reset();
    const result = await bridge.call("replacePets", { body: JSON.stringify([{ name: "A" }]) });
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests[0]?.json()).toEqual([{ name: "A" }]);
    upstream.reset();
    const headers = await bridge.call("headerParams", { "X-Arr": "[1,2]" });
    expect(headers.isError ?? false, textOf(headers)).toBe(false);
    expect(upstream.requests[0]?.header("x-arr")).toBe("1,2");
  });
});
