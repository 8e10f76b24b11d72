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

function planFolder(options: { resultSchemas?: boolean; outputSchemas?: boolean }) {
  const loaded = {
    source: "spec.json",
    specVersion: "3.0",
    diagnostics: [],
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: {
        "/folders": {
          post: {
            operationId: "createFolder",
            responses: {
              "201": {
                description: "The folder.",
                content: { "application/json": { schema: ref("FolderFull") } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
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
        },
      },
    },
  } as unknown as LoadedSpec;
  return planModel(loaded, options).tools[0]!;
}

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
  function planAnswer(schema: unknown) {
    const loaded = {
      source: "spec.json",
      specVersion: "3.0",
      diagnostics: [],
      document: {
        openapi: "3.0.3",
        info: { title: "T", version: "1" },
        paths: {
          "/droplets": {
            post: {
              operationId: "createDroplet",
              responses: { "202": { description: "Created.", content: { "application/json": { schema } } } },
            },
          },
        },
      },
    } as unknown as LoadedSpec;
    return planModel(loaded, { resultSchemas: true }).tools[0]!.resultSchema;
  }
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
    const schema = planAnswer({ oneOf: [one, many] }) as JsonSchema;
    expect((schema.anyOf as JsonSchema[]).map((s) => Object.keys(s.properties as object))).toEqual([
      ["droplet"],
      ["droplets"],
    ]);
  });

  it.each([
    { name: "one shape unknown", schema: { oneOf: [one, {}] } },
    { name: "too many shapes", schema: { anyOf: [one, one, one, one, many] } },
  ])("is unknown when $name", ({ schema }) => {
    expect(planAnswer(schema)).toBeUndefined();
  });
});
