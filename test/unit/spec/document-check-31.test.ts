/**
 * Structural validation of OpenAPI 3.1 documents against the OAS 3.1 schema: what the
 * specification allows must pass (§4.8.6 Server Variable Object: enum, default, description).
 */
import { describe, expect, it } from "vitest";
import { validateDocument } from "../../../src/generator/spec/document-check/check-document.js";

function documentWithVariable(variable: Record<string, unknown>): unknown {
  return {
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    servers: [{ url: "https://{tenant}.example.com", variables: { tenant: variable } }],
    paths: {},
  };
}

describe("OAS 3.1 server variables", () => {
  it("accept enum, default and description", () => {
    const doc = documentWithVariable({
      default: "acme",
      enum: ["acme", "other"],
      description: "The tenant.",
    });
    expect(validateDocument(doc, "3.1", "spec.yaml")).toEqual([]);
  });

  it("still report unknown fields (a warning: ignored) and refuse a missing default", () => {
    const unknown = validateDocument(documentWithVariable({ default: "a", descriptions: "x" }), "3.1", "s");
    expect(unknown.map((d) => [d.code, d.severity])).toContainEqual(["OMB_SPEC_IGNORED", "warning"]);
    const noDefault = validateDocument(documentWithVariable({ description: "x" }), "3.1", "s");
    expect(noDefault.map((d) => d.code)).toContain("OMB_SPEC_INVALID");
  });
});
