/**
 * server.json, this package's and a generated project's, against the MCP Registry's published
 * schema (fixtures/mcp-registry/server.schema.json, 2025-12-11, byte for byte as published):
 * both validate, the schema does reject what the registry rejects (so the check can fail),
 * this package's file is what `npm run server-json` writes, and its name is package.json's
 * mcpName (the registry checks the two agree).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { emitPackageServerJson, SERVER_SCHEMA_URL } from "../../../src/generator/codegen/emit/server-json.js";
import { emitProject } from "../../../src/generator/codegen/generate.js";
import { buildModel } from "../../../src/index.js";
import { fixture, ROOT } from "../../helpers/bridge.js";

const schema = JSON.parse(readFileSync(fixture("mcp-registry", "server.schema.json"), "utf8"));
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv) => void)(ajv);
const validate = ajv.compile(schema);

function problems(document: unknown): string[] {
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const own = JSON.parse(readFileSync(join(ROOT, "server.json"), "utf8"));

describe("server.json", () => {
  it("names the schema it is checked against", () => {
    expect(schema.$id).toBe(SERVER_SCHEMA_URL);
    expect(own.$schema).toBe(SERVER_SCHEMA_URL);
  });

  it("this package's is valid, up to date (npm run server-json) and named as package.json's mcpName", () => {
    expect(problems(own)).toEqual([]);
    expect(readFileSync(join(ROOT, "server.json"), "utf8")).toBe(emitPackageServerJson(pkg));
    expect(own.name).toBe(pkg.mcpName);
    expect(own.version).toBe(pkg.version);
    expect(own.packages[0]).toMatchObject({
      registryType: "npm",
      identifier: pkg.name,
      version: pkg.version,
    });
    const variables = own.packages[0].environmentVariables.map((v: { name: string }) => v.name);
    expect(variables).toContain("OPENAPI_MCP_BASE_URL");
    expect(variables).toContain("OPENAPI_MCP_MODE");
    expect(variables.some((name: string) => name.includes("<"))).toBe(false);
  });

  it.each([
    ["petstore", "petstore/petstore.openapi30.yaml"],
    ["security", "security/requirements.openapi31.yaml"],
  ])("a generated project's is valid and lists its credentials as secrets (%s)", async (_name, spec) => {
    const model = await buildModel(fixture(...spec.split("/")));
    const files = await emitProject(model, { projectPath: "/path/to/project" });
    const text = files.find((f) => f.path === "server.json")?.contents;
    const document = JSON.parse(text ?? "null");
    expect(problems(document)).toEqual([]);
    const secrets = document.packages[0].environmentVariables.filter(
      (v: { isSecret?: boolean }) => v.isSecret,
    );
    expect(secrets.map((v: { name: string }) => v.name)).toContain("OPENAPI_MCP_HTTP_TOKEN");
    for (const scheme of Object.keys(model.securitySchemes)) {
      if (model.securitySchemes[scheme]!.type === "mutualTLS") continue;
      expect(JSON.stringify(secrets)).toContain(scheme);
    }
  });

  it.each([
    ["a name without a namespace", { name: "openapi-mcp-bridge" }],
    ["a description over 100 characters", { description: "x".repeat(101) }],
    ["the version latest for a package", { packages: [{ ...own.packages[0], version: "latest" }] }],
    [
      "a positional argument with neither value nor valueHint",
      { packages: [{ ...own.packages[0], packageArguments: [{ type: "positional" }] }] },
    ],
  ])("the schema rejects %s", (_what, change) => {
    expect(problems({ ...own, ...change }).length).toBeGreaterThan(0);
  });
});
