/**
 * Result outlines (code mode's result types, tools mode's output schemas) read allOf chains to
 * the end: Box's Folder--Full is allOf Folder, itself allOf Folder--Mini, allOf Folder--Base,
 * where a folder's `id` and `type` are.
 */
import { describe, expect, it } from "vitest";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { JsonSchema } from "../../../src/model/types.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** One POST whose 2xx JSON answer is `schema`, planned with `options`. */
function planAnswer(
  schema: unknown,
  options: { resultSchemas?: boolean; outputSchemas?: boolean },
  schemas: Record<string, unknown> = {},
) {
  const loaded = {
    source: "spec.json",
    specVersion: "3.0",
    diagnostics: [],
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: {
        "/things": {
          post: {
            operationId: "createThing",
            responses: { "201": { description: "Created.", content: { "application/json": { schema } } } },
          },
        },
      },
      components: { schemas },
    },
  } as unknown as LoadedSpec;
  return planModel(loaded, options).tools[0]!;
}

const FOLDERS = {
  FolderBase: {
    type: "object",
    required: ["id", "type"],
    properties: { id: { type: "string" }, type: { type: "string" } },
  },
  FolderMini: { allOf: [ref("FolderBase"), { properties: { name: { type: "string" } } }] },
  Folder: { allOf: [ref("FolderMini"), { properties: { size: { type: "integer" } } }] },
  FolderFull: {
    allOf: [ref("Folder"), { properties: { tags: { type: "array", items: { type: "string" } } } }],
  },
};

const planFolder = (options: { resultSchemas?: boolean; outputSchemas?: boolean }) =>
  planAnswer(ref("FolderFull"), options, FOLDERS);

describe("result outlines of allOf chains", () => {
  it.each([
    { option: "resultSchemas" as const, read: (tool: ReturnType<typeof planFolder>) => tool.resultSchema },
    { option: "outputSchemas" as const, read: (tool: ReturnType<typeof planFolder>) => tool.outputSchema },
  ])("$option names every level's fields, the base's required first", ({ option, read }) => {
    const schema = read(planFolder({ [option]: true })) as JsonSchema;
    expect(Object.keys(schema.properties as object)).toEqual(["id", "type", "name", "size", "tags"]);
  });
});

describe("a result of a few shapes", () => {
  const resultOf = (schema: unknown) => planAnswer(schema, { resultSchemas: true }).resultSchema;
  const one = {
    required: ["droplet"],
    properties: { droplet: { type: "object", properties: { id: { type: "integer" } } } },
  };
  const many = {
    properties: {
      droplets: { type: "array", items: { type: "object", properties: { id: { type: "integer" } } } },
    },
  };

  it("is the union of their outlines", () => {
    const schema = resultOf({ oneOf: [one, many] }) as JsonSchema;
    expect((schema.anyOf as JsonSchema[]).map((s) => Object.keys(s.properties as object))).toEqual([
      ["droplet"],
      ["droplets"],
    ]);
  });

  it.each([
    { name: "one shape unknown", schema: { oneOf: [one, {}] } },
    { name: "too many shapes", schema: { anyOf: [one, one, one, one, many] } },
  ])("is unknown when $name", ({ schema }) => {
    expect(resultOf(schema)).toBeUndefined();
  });
});

describe("a page of results one level down (Spotify's search: albums.items)", () => {
  const resultOf = (schema: unknown) => planAnswer(schema, { resultSchemas: true }).resultSchema;
  const album = {
    type: "object",
    properties: Object.fromEntries(
      ["album_type", "artists", "genres", "href", "images", "label", "markets", "id", "name", "uri"].map(
        (n) => [n, { type: "string" }],
      ),
    ),
  };
  const page = (key: string) => ({
    type: "object",
    properties: { limit: { type: "integer" }, [key]: { type: "array", items: album } },
  });

  it("outlines a page's list of items with a few fields, identity first", () => {
    const schema = resultOf({ type: "object", properties: { albums: page("items") } }) as JsonSchema;
    const albums = (schema.properties as Record<string, JsonSchema>).albums!;
    const items = (albums.properties as Record<string, JsonSchema>).items!;
    const fields = Object.keys((items.items as JsonSchema).properties as object);
    expect(fields).toHaveLength(6);
    expect(fields).toEqual(expect.arrayContaining(["id", "name", "uri"]));
  });

  it("leaves another list at the last level a plain list", () => {
    const schema = resultOf({ type: "object", properties: { albums: page("covers") } }) as JsonSchema;
    const albums = (schema.properties as Record<string, JsonSchema>).albums!;
    expect((albums.properties as Record<string, JsonSchema>).covers).toEqual({ type: "array" });
  });
});
