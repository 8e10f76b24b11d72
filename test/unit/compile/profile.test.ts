/** Client profiles: name limits, OpenAI strict-mode schemas, tool-count warnings, null as absent. */
import { describe, expect, it } from "vitest";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import { TOOL_NAME_PATTERN } from "../../../src/generator/compile/naming.js";
import {
  applyProfile,
  type ClientProfile,
  deriveServerName,
  makeNullable,
  toolNameLimit,
  toStrictSchema,
} from "../../../src/generator/compile/profile.js";
import { type BridgeModel, IR_VERSION, type JsonSchema, type ToolNode } from "../../../src/model/types.js";
import { createArgumentValidator } from "../../../src/runtime/arguments/validate.js";
import { fixture } from "../../helpers/bridge.js";

function tool(name: string, path = `/${name}`): ToolNode {
  return {
    name,
    title: name,
    description: "",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: {
      title: name,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: { method: "get", path, parameters: [], security: [], responses: [], accept: [] },
    source: { pointer: `/paths/${path}` },
    tags: [],
    deprecated: false,
  };
}

function model(tools: ToolNode[], title = "Pets API"): BridgeModel {
  return {
    irVersion: IR_VERSION,
    info: { title, version: "1", specVersion: "3.0" },
    servers: [],
    securitySchemes: {},
    tools,
    diagnostics: [],
  };
}

describe("names", () => {
  it.each([
    { title: "Swagger Petstore - OpenAPI 3.0", want: "swagger-petstore" },
    { title: "GitHub v3 REST API", want: "github-v3-rest-a" },
    { title: "Ünïcode API", want: "unicode-api" },
    { title: "!!!", want: "api" },
  ])("deriveServerName($title) = $want", ({ title, want }) => {
    expect(deriveServerName(title)).toBe(want);
  });

  it.each([
    { profile: "mcp", server: "pets", want: undefined },
    { profile: "openai", server: "pets", want: undefined },
    { profile: "claude", server: "pets", want: 53 }, // mcp__pets__ + 53 = 64
    { profile: "claude", server: "github", want: 51 },
    { profile: "cursor", server: "pets", want: 55 }, // pets + separator + 55 = 60
  ] as const)("toolNameLimit($profile, $server) = $want", ({ profile, server, want }) => {
    expect(toolNameLimit(profile, server)).toBe(want);
  });

  const long = "reposListCommitStatusesForRefWithCombinedStatusAndChecksAlso";
  const tools = [
    tool("listPets"),
    tool(long, "/a"),
    tool(`${long}X`, "/b"), // shortens to the same head: must stay distinct
    tool("x".repeat(64), "/c"),
  ];

  it.each([
    { profile: "claude", serverName: "github", prefix: "mcp__github__", max: 64 },
    { profile: "claude", serverName: undefined, prefix: "mcp__pets-api__", max: 64 },
    { profile: "cursor", serverName: "github", prefix: "github_", max: 60 },
  ] as const)(
    "$profile with server $serverName: every full name fits $max",
    ({ profile, serverName, prefix, max }) => {
      const options = { profile, ...(serverName ? { serverName } : {}) };
      const result = applyProfile(model(tools), options);
      const names = result.tools.map((t) => t.name);
      for (const name of names) {
        expect(`${prefix}${name}`.length).toBeLessThanOrEqual(max);
        expect(name).toMatch(TOOL_NAME_PATTERN);
      }
      expect(names[0]).toBe("listPets"); // short names are kept
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      expect(applyProfile(model(tools), options).tools.map((t) => t.name)).toEqual(names); // deterministic
      expect(result.diagnostics.filter((d) => d.code === "OMB_PROFILE_NAME")).toHaveLength(3);
    },
  );

  it("a shortened name does not change when other tools are added", () => {
    const alone = applyProfile(model([tool(long, "/a")]), { profile: "claude", serverName: "github" });
    const crowded = applyProfile(model([tool("z"), tool(long, "/a"), tool("y")]), {
      profile: "claude",
      serverName: "github",
    });
    expect(crowded.tools[1]!.name).toBe(alone.tools[0]!.name);
  });

  it("a server name that leaves too little room is a warning and names are cut to 20", () => {
    const result = applyProfile(model(tools), { profile: "claude", serverName: "s".repeat(45) });
    expect(result.diagnostics.map((d) => d.code)).toContain("OMB_PROFILE_SERVER_NAME");
    for (const t of result.tools) expect(t.name.length).toBeLessThanOrEqual(20);
  });

  it("mcp returns the model itself, unchanged", () => {
    const m = model(tools);
    expect(applyProfile(m, { profile: "mcp" })).toBe(m);
    expect(applyProfile(m)).toBe(m);
  });
});

describe("tool-count warnings", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => tool(`t${i}`));
  it.each([
    { profile: "openai", count: 128, warned: false },
    { profile: "openai", count: 129, warned: true },
    { profile: "cursor", count: 40, warned: false },
    { profile: "cursor", count: 41, warned: true },
    { profile: "claude", count: 500, warned: false },
  ] as const)("$profile with $count tools: warned $warned", ({ profile, count, warned }) => {
    const result = applyProfile(model(many(count)), { profile });
    const warnings = result.diagnostics.filter((d) => d.code === "OMB_PROFILE_TOOL_COUNT");
    expect(warnings.length).toBe(warned ? 1 : 0);
    if (warned) expect(warnings[0]!.severity).toBe("warning");
  });
});

describe("OpenAI strict schemas", () => {
  it.each([
    {
      title: "optional properties become required and nullable, and are listed",
      given: {
        type: "object",
        properties: { id: { type: "string" }, limit: { type: "integer", minimum: 1 } },
        required: ["id"],
        additionalProperties: false,
      },
      want: {
        type: "object",
        properties: { id: { type: "string" }, limit: { type: ["integer", "null"], minimum: 1 } },
        required: ["id", "limit"],
        additionalProperties: false,
        "x-omb-optional": ["limit"],
      },
    },
    {
      title: "a required nullable property stays as it is and is not listed",
      given: { type: "object", properties: { p: { type: ["string", "null"] } }, required: ["p"] },
      want: {
        type: "object",
        properties: { p: { type: ["string", "null"] } },
        required: ["p"],
        additionalProperties: false,
      },
    },
    {
      title: "enums get null; unsupported keywords and formats are left out",
      given: {
        type: "object",
        properties: {
          s: { type: "string", enum: ["a", "b"], default: "a", examples: ["a"] },
          u: { type: "string", format: "uri", minLength: 1, maxLength: 9, pattern: "^h" },
          d: { type: "string", format: "date-time", readOnly: true },
          a: { type: "array", items: { type: "string" }, uniqueItems: true, minItems: 1, maxItems: 3 },
        },
        required: ["s", "u", "d", "a"],
      },
      want: {
        type: "object",
        properties: {
          s: { type: "string", enum: ["a", "b"] },
          u: { type: "string", pattern: "^h" },
          d: { type: "string", format: "date-time" },
          a: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
        },
        required: ["s", "u", "d", "a"],
        additionalProperties: false,
      },
    },
    {
      title: "oneOf becomes anyOf; a $ref next to other keywords is wrapped; optional refs get a null branch",
      given: {
        type: "object",
        properties: {
          file: { oneOf: [{ type: "string" }, { type: "integer" }], description: "f" },
          pet: { $ref: "#/$defs/Pet", description: "the pet" },
          owner: { $ref: "#/$defs/Pet" },
        },
        required: ["file", "pet"],
        $defs: { Pet: { type: "object", properties: { name: { type: "string" } } } },
      },
      want: {
        type: "object",
        properties: {
          file: { anyOf: [{ type: "string" }, { type: "integer" }], description: "f" },
          pet: { description: "the pet", anyOf: [{ $ref: "#/$defs/Pet" }] },
          owner: { anyOf: [{ $ref: "#/$defs/Pet" }, { type: "null" }] },
        },
        required: ["file", "pet", "owner"],
        additionalProperties: false,
        "x-omb-optional": ["owner"],
        $defs: {
          Pet: {
            type: "object",
            properties: { name: { type: ["string", "null"] } },
            required: ["name"],
            additionalProperties: false,
            "x-omb-optional": ["name"],
          },
        },
      },
    },
    {
      title: "allOf is merged (refs resolved), properties and required united",
      given: {
        type: "object",
        properties: {
          x: {
            allOf: [
              { $ref: "#/$defs/Base" },
              { type: "object", properties: { b: { type: "integer" } }, required: ["b"] },
            ],
          },
        },
        required: ["x"],
        $defs: { Base: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } },
      },
      want: {
        type: "object",
        properties: {
          x: {
            type: "object",
            properties: { a: { type: "string" }, b: { type: "integer" } },
            required: ["a", "b"],
            additionalProperties: false,
          },
        },
        required: ["x"],
        additionalProperties: false,
        $defs: {
          Base: {
            type: "object",
            properties: { a: { type: "string" } },
            required: ["a"],
            additionalProperties: false,
          },
        },
      },
    },
  ])("$title", ({ given, want }) => {
    const { schema } = toStrictSchema(given as unknown as JsonSchema);
    expect(schema).toEqual(want);
    // Applying the profile again (a saved model served with it) changes nothing.
    expect(toStrictSchema(schema).schema).toEqual(want);
  });

  it.each([
    { given: { type: "string" }, want: { type: ["string", "null"] } },
    { given: { type: ["string", "integer"] }, want: { type: ["string", "integer", "null"] } },
    { given: { enum: ["a"] }, want: { enum: ["a", null] } },
    {
      given: { const: 1, description: "d" },
      want: { description: "d", anyOf: [{ const: 1 }, { type: "null" }] },
    },
    { given: { anyOf: [{ type: "string" }] }, want: { anyOf: [{ type: "string" }, { type: "null" }] } },
    { given: { anyOf: [{ type: "null" }] }, want: { anyOf: [{ type: "null" }] } },
    { given: { type: ["string", "null"] }, want: { type: ["string", "null"] } },
  ])("makeNullable($given)", ({ given, want }) => {
    expect(makeNullable(given as unknown as JsonSchema)).toEqual(want);
  });

  it("reports free-form objects, which strict mode can only send empty", () => {
    const { freeForm } = toStrictSchema({
      type: "object",
      properties: {
        meta: { type: "object" },
        nested: {
          type: "object",
          properties: { labels: { type: "object", additionalProperties: { type: "string" } } },
        },
      },
    });
    expect(freeForm).toEqual(["meta", "nested.labels"]);
  });

  /** Strict mode's rules, checked on every schema node. */
  function strictProblems(node: unknown, where: string, out: string[]): string[] {
    if (typeof node !== "object" || node === null) return out;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) strictProblems(item, `${where}/${i}`, out);
      return out;
    }
    const record = node as Record<string, unknown>;
    const allowed = new Set([
      "type",
      "properties",
      "required",
      "additionalProperties",
      "items",
      "anyOf",
      "enum",
      "const",
      "description",
      "title",
      "$ref",
      "$defs",
      "pattern",
      "format",
      "multipleOf",
      "maximum",
      "exclusiveMaximum",
      "minimum",
      "exclusiveMinimum",
      "minItems",
      "maxItems",
      "x-omb-optional",
    ]);
    for (const key of Object.keys(record)) if (!allowed.has(key)) out.push(`${where}: ${key}`);
    if (typeof record.$ref === "string" && Object.keys(record).length > 1)
      out.push(`${where}: $ref with siblings`);
    if (record.properties !== undefined || record.type === "object") {
      if (record.additionalProperties !== false) out.push(`${where}: additionalProperties`);
      const keys = Object.keys((record.properties as object) ?? {});
      if (JSON.stringify(record.required) !== JSON.stringify(keys)) out.push(`${where}: required`);
    }
    for (const [key, value] of Object.entries(record)) {
      if (key === "properties" || key === "$defs") {
        for (const [name, sub] of Object.entries(value as object))
          strictProblems(sub, `${where}/${key}/${name}`, out);
      } else if (key === "items" || key === "anyOf") strictProblems(value, `${where}/${key}`, out);
    }
    return out;
  }

  it.each([
    ["petstore", "petstore.openapi30.yaml"],
    ["real", "swagger-petstore.swagger20.yaml"],
    ["real", "uspto.openapi30.yaml"],
    ["real", "readme.openapi31.yaml"],
    ["codegen", "adversarial.openapi31.yaml"],
  ])("every input schema of %s/%s follows strict mode", async (dir, file) => {
    const planned = await buildModel(fixture(dir, file), { profile: "openai", cache: false });
    expect(planned.tools.length).toBeGreaterThan(0);
    for (const t of planned.tools) expect(strictProblems(t.inputSchema, t.name, [])).toEqual([]);
  });

  it("the default profile's schemas are not strict (the check can fail)", async () => {
    const planned = await buildModel(fixture("petstore", "petstore.openapi30.yaml"), { cache: false });
    const problems = planned.tools.flatMap((t) => strictProblems(t.inputSchema, t.name, []));
    expect(problems.length).toBeGreaterThan(0);
  });
});

describe("null for an optional argument is absent (validator)", () => {
  const spec: JsonSchema = {
    type: "object",
    properties: {
      id: { type: "string" },
      note: { type: ["string", "null"] },
      limit: { type: "integer" },
      filter: {
        type: "object",
        properties: { status: { type: "string" }, tag: { type: "string" } },
        required: ["status"],
      },
      items: { type: "array", items: { $ref: "#/$defs/Item" } },
    },
    required: ["id", "note"],
    additionalProperties: false,
    $defs: {
      Item: {
        type: "object",
        properties: { n: { type: "integer" }, label: { type: "string" } },
        required: ["n"],
      },
    },
  };
  const strict = toStrictSchema(spec).schema;

  it.each([
    {
      title: "null optionals are dropped, a required nullable keeps its null",
      given: { id: "a", note: null, limit: null, filter: null, items: null },
      want: { id: "a", note: null },
    },
    {
      title: "nested and in array items through $ref",
      given: {
        id: "a",
        note: "n",
        limit: 3,
        filter: { status: "x", tag: null },
        items: [{ n: "1", label: null }],
      },
      want: { id: "a", note: "n", limit: 3, filter: { status: "x" }, items: [{ n: 1 }] },
    },
    {
      title: "the text null for a number (coerced to null) is absent too; for a string it is text",
      given: { id: "a", note: null, limit: "null", filter: { status: "x", tag: "null" } },
      want: { id: "a", note: null, filter: { status: "x", tag: "null" } },
    },
    {
      title: "optionals may also be left out (non-strict clients)",
      given: { id: "a", note: null },
      want: { id: "a", note: null },
    },
  ])("$title", ({ given, want }) => {
    const check = createArgumentValidator(strict)(given);
    expect(check).toEqual({ ok: true, value: want });
  });

  it("required arguments are still required, null for them is still checked", () => {
    const check = createArgumentValidator(strict)({ note: "x", limit: null });
    expect(check.ok).toBe(false);
    const typed = createArgumentValidator(strict)({ id: null, note: "x" });
    expect(typed.ok).toBe(false);
  });

  it("schemas of the default profile keep null as a value (no change of behaviour)", () => {
    const nullable: JsonSchema = {
      type: "object",
      properties: { note: { type: ["string", "null"] } },
      additionalProperties: false,
    };
    expect(createArgumentValidator(nullable)({ note: null })).toEqual({ ok: true, value: { note: null } });
    expect(createArgumentValidator(spec)({ id: "a", note: null, limit: null }).ok).toBe(false);
  });
});

describe("profiles through buildModel", () => {
  it.each(["claude", "cursor", "openai"] as ClientProfile[])(
    "%s: the petstore names and schemas",
    async (profile) => {
      const planned = await buildModel(fixture("petstore", "petstore.openapi30.yaml"), {
        profile,
        cache: false,
      });
      const plain = await buildModel(fixture("petstore", "petstore.openapi30.yaml"), { cache: false });
      expect(planned.tools.map((t) => t.name)).toEqual(plain.tools.map((t) => t.name)); // all short already
      if (profile === "openai")
        expect(planned.tools.map((t) => t.inputSchema)).not.toEqual(plain.tools.map((t) => t.inputSchema));
      else expect(planned.tools).toEqual(plain.tools);
    },
  );
});

describe("openai: the body's extraProperties", () => {
  it("is left out (strict mode could only send it empty), with no free-form warning", () => {
    const base = tool("createPet", "/pets");
    const withExtra: ToolNode = {
      ...base,
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string" },
          tag: { type: "string" },
          extraProperties: { type: "object" },
        },
        dependentRequired: { tag: ["name"], extraProperties: ["name"] },
        additionalProperties: false,
      },
      http: {
        ...base.http,
        method: "post",
        body: {
          mediaType: "application/json",
          required: false,
          mode: "properties",
          kind: "json",
          properties: [
            { argument: "name", name: "name", shape: "primitive" },
            { argument: "tag", name: "tag", shape: "primitive" },
          ],
          extraArgument: "extraProperties",
        },
      },
    };
    const result = applyProfile(model([withExtra]), { profile: "openai" });
    const planned = result.tools[0]!;
    expect(Object.keys(planned.inputSchema.properties as object)).toEqual(["name", "tag"]);
    expect(planned.http.body?.extraArgument).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).not.toContain("OMB_PROFILE_FREE_FORM");
    expect(applyProfile(model([withExtra]), { profile: "mcp" }).tools[0]).toBe(withExtra);
  });
});
