/**
 * Header parameters mirrored as Mcp-Param-* (x-mcp-header in the input schema): asked for by
 * the spec's own `x-mcp-header` or an override's `mcpHeaders`, refused for secrets and for
 * anything a conforming client would reject.
 */
import { describe, expect, it } from "vitest";
import {
  type LoadedOverrides,
  parseMcpOverride,
  parseOverridesDocument,
} from "../../../src/generator/compile/overrides.js";
import { planModel } from "../../../src/generator/compile/plan-model.js";
import type { LoadedSpec } from "../../../src/generator/spec/load-spec.js";
import type { BridgeModel } from "../../../src/model/types.js";

const ok = { responses: { "200": { description: "ok" } } };

function plan(
  parameters: Record<string, unknown>[],
  overrides?: Record<string, unknown>,
  components: Record<string, unknown> = {},
): BridgeModel {
  const loaded = {
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { "/things": { get: { operationId: "listThings", parameters, ...ok } } },
      components,
    },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  const map = overrides
    ? (parseOverridesDocument(overrides, "over.yaml", "") as Extract<LoadedOverrides, { kind: "map" }>).map
    : undefined;
  return planModel(loaded, map ? { overrides: map } : {});
}

const header = (name: string, schema: Record<string, unknown> = { type: "string" }, extra = {}) => ({
  name,
  in: "header",
  schema,
  ...extra,
});

/** The x-mcp-header of each argument that has one. */
function mirrored(model: BridgeModel): Record<string, unknown> {
  const properties = model.tools[0]!.inputSchema.properties as Record<string, Record<string, unknown>>;
  return Object.fromEntries(
    Object.entries(properties)
      .filter(([, schema]) => "x-mcp-header" in schema)
      .map(([name, schema]) => [name, schema["x-mcp-header"]]),
  );
}

function refusals(model: BridgeModel): string[] {
  return model.diagnostics.filter((d) => d.code === "OMB_MCP_HEADER_REFUSED").map((d) => d.message);
}

describe("asking for a mirrored header", () => {
  const cases: {
    why: string;
    parameters: Record<string, unknown>[];
    overrides?: Record<string, unknown>;
    want: Record<string, unknown>;
    refused?: number;
  }[] = [
    {
      why: "the spec's x-mcp-header on the parameter",
      parameters: [header("X-Tenant-Id", { type: "string" }, { "x-mcp-header": "Tenant" })],
      want: { "X-Tenant-Id": "Tenant" },
    },
    {
      why: "an override by operationId, true: the parameter's own name",
      parameters: [header("X-Region"), header("X-Api-Version", { type: "integer" })],
      overrides: { listThings: { mcpHeaders: { "x-region": true, "X-Api-Version": "Api-Version" } } },
      want: { "X-Region": "X-Region", "X-Api-Version": "Api-Version" },
    },
    {
      why: "an override saying false undoes the spec's",
      parameters: [header("X-Tenant-Id", { type: "string" }, { "x-mcp-header": "Tenant" })],
      overrides: { "GET /things": { mcpHeaders: { "X-Tenant-Id": false } } },
      want: {},
    },
    {
      why: "an override renames the spec's",
      parameters: [header("X-Tenant-Id", { type: "string" }, { "x-mcp-header": "Tenant" })],
      overrides: { listThings: { mcpHeaders: { "X-Tenant-Id": "Org" } } },
      want: { "X-Tenant-Id": "Org" },
    },
    {
      why: "a boolean is a primitive",
      parameters: [header("X-Dry-Run", { type: "boolean" }, { "x-mcp-header": true })],
      want: { "X-Dry-Run": "X-Dry-Run" },
    },
    {
      why: "a credential-looking header is never mirrored",
      parameters: [header("X-Auth-Token", { type: "string" }, { "x-mcp-header": "Token" })],
      want: {},
      refused: 1,
    },
    {
      why: "format: password is never mirrored",
      parameters: [header("X-Pin", { type: "string", format: "password" }, { "x-mcp-header": "Pin" })],
      want: {},
      refused: 1,
    },
    {
      why: "a number is not allowed by the spec",
      parameters: [header("X-Weight", { type: "number" }, { "x-mcp-header": "Weight" })],
      want: {},
      refused: 1,
    },
    {
      why: "an array is not a primitive",
      parameters: [
        header("X-Tags", { type: "array", items: { type: "string" } }, { "x-mcp-header": "Tags" }),
      ],
      want: {},
      refused: 1,
    },
    {
      why: "a name that is not a token",
      parameters: [header("X-Region", { type: "string" }, { "x-mcp-header": "Region Name" })],
      want: {},
      refused: 1,
    },
    {
      why: "a name used twice, without regard to case: the second is refused",
      parameters: [
        header("X-Region", { type: "string" }, { "x-mcp-header": "Region" }),
        header("X-Zone", { type: "string" }, { "x-mcp-header": "region" }),
      ],
      want: { "X-Region": "Region" },
      refused: 1,
    },
    {
      why: "an override naming no header parameter",
      parameters: [header("X-Region")],
      overrides: { listThings: { mcpHeaders: { "X-Nope": true } } },
      want: {},
      refused: 1,
    },
    {
      why: "a query parameter's x-mcp-header is not looked at",
      parameters: [{ name: "region", in: "query", schema: { type: "string" }, "x-mcp-header": "Region" }],
      want: {},
    },
  ];
  it.each(cases)("$why", ({ parameters, overrides, want, refused }) => {
    const model = plan(parameters, overrides);
    expect(mirrored(model)).toEqual(want);
    expect(refusals(model)).toHaveLength(refused ?? 0);
  });

  it("never mirrors an apiKey security scheme's header, whatever its name", () => {
    const model = plan([header("X-Partner", { type: "string" }, { "x-mcp-header": "Partner" })], undefined, {
      securitySchemes: { partner: { type: "apiKey", in: "header", name: "x-partner" } },
    });
    expect(mirrored(model)).toEqual({});
    expect(refusals(model)[0]).toContain("credential");
  });

  it("inlines a primitive $ref, where the keyword may not stand behind a reference", () => {
    const model = plan(
      [header("X-Region", { $ref: "#/components/schemas/Region" }, { "x-mcp-header": "Region" })],
      undefined,
      { schemas: { Region: { type: "string", enum: ["eu", "us"] } } },
    );
    const property = (model.tools[0]!.inputSchema.properties as Record<string, Record<string, unknown>>)[
      "X-Region"
    ];
    expect(property).toMatchObject({ type: "string", enum: ["eu", "us"], "x-mcp-header": "Region" });
    expect(property).not.toHaveProperty("$ref");
  });

  it("leaves the input schema untouched when nothing asks", () => {
    const model = plan([header("X-Region"), { name: "q", in: "query", schema: { type: "string" } }]);
    expect(JSON.stringify(model.tools[0]!.inputSchema)).not.toContain("x-mcp-header");
    expect(model.diagnostics.filter((d) => d.code.startsWith("OMB_MCP"))).toEqual([]);
  });
});

describe("mcpHeaders in an override", () => {
  it.each([
    [{ "X-Region": "Region" }, 0],
    [{ "X-Region": true, "X-Zone": false }, 0],
    [{ "X-Region": "" }, 1],
    [{ "X-Region": 3 }, 1],
    [["X-Region"], 1],
  ])("%j → %i problem(s)", (mcpHeaders, problems) => {
    expect(parseMcpOverride({ mcpHeaders }, "").problems).toHaveLength(problems);
  });
});
