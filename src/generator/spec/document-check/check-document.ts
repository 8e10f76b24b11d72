/**
 * Structural validation of a document against the OpenAPI JSON Schema of its version.
 *
 * Two passes. The quick one answers yes or no at the first error; it is the validator
 * precompiled to standalone code at build time (scripts/compile-oas-validators.mjs), or, when
 * that file is missing (running from source), one compiled here. Only a document that fails
 * pays for the explaining one: compiled here with every error and verbose schema nodes, then
 * each failed `oneOf`/`anyOf` narrowed to the branch that fits best.
 */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import { createDiagnostic } from "../../../model/diagnostics.js";
import { escapePointerToken, resolvePointer } from "../../../model/pointer.js";
import type { Diagnostic, SpecVersion } from "../../../model/types.js";
import { createSchemaAjv, openApiSchema, precompiledValidatorFile, type SchemaAjv } from "./oas-schemas.js";

/**
 * Validates `doc` (as written: Swagger 2.0 before conversion); returns its problems, none when
 * it is valid. Every problem is an OMB_SPEC_INVALID error in `file`; the list is not capped.
 */
export function validateDocument(doc: unknown, version: SpecVersion, file: string): Diagnostic[] {
  if (quickValidator(version)(doc)) return [];
  const explain = explainingValidator(version);
  explain.validate(doc);
  const errors = selectBranches(explain.validate.errors ?? [], doc, explain, "", 0);
  const problems = summarizeSchemaErrors(errors, version).map((p) =>
    p.ignorable
      ? createDiagnostic("OMB_SPEC_IGNORED", `${p.message}; ignored`, {
          file,
          pointer: p.pointer,
        })
      : createDiagnostic("OMB_SPEC_INVALID", p.message, { file, pointer: p.pointer }),
  );
  if (problems.length === 0) {
    problems.push(
      createDiagnostic("OMB_SPEC_INVALID", "the document does not match the OpenAPI schema", { file }),
    );
  }
  return problems;
}

type QuickValidator = (data: unknown) => boolean;

const requireHere = createRequire(import.meta.url);
const precompiled = new Map<SpecVersion, QuickValidator | null>();
const quick = new Map<SpecVersion, QuickValidator>();

function loadPrecompiled(version: SpecVersion): QuickValidator | undefined {
  let validate = precompiled.get(version);
  if (validate === undefined) {
    validate = null;
    try {
      const loaded = requireHere(`./${precompiledValidatorFile(version)}`) as unknown;
      if (typeof loaded === "function") validate = loaded as QuickValidator;
    } catch {
      // Not built (running from source) or unusable: compile at run time instead.
    }
    precompiled.set(version, validate);
  }
  return validate ?? undefined;
}

function quickValidator(version: SpecVersion): QuickValidator {
  let validate = quick.get(version);
  if (!validate) {
    validate =
      loadPrecompiled(version) ??
      createSchemaAjv(version, { allErrors: false }).compile(openApiSchema(version));
    quick.set(version, validate);
  }
  return validate;
}

interface ExplainingValidator {
  ajv: SchemaAjv;
  validate: ValidateFunction;
  /** The OpenAPI schema's id: branch validators are fetched as `${id}#/...`. */
  id: string;
  /** Where each object of the OpenAPI schema is, to name a failed combinator's branches. */
  pointers: Map<object, string>;
}

const explaining = new Map<SpecVersion, ExplainingValidator>();

function explainingValidator(version: SpecVersion): ExplainingValidator {
  const cached = explaining.get(version);
  if (cached) return cached;
  const schema = openApiSchema(version);
  const ajv = createSchemaAjv(version, { allErrors: true, verbose: true });
  const record = schema as Record<string, unknown>;
  const id = String(record["$id"] ?? record["id"] ?? "").replace(/#$/, "");
  const pointers = new Map<object, string>();
  const visit = (node: unknown, pointer: string): void => {
    if (node === null || typeof node !== "object" || pointers.has(node)) return;
    pointers.set(node, pointer);
    for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${escapePointerToken(key)}`);
  };
  visit(schema, "");
  const validator = { ajv, validate: ajv.compile(schema), id, pointers };
  explaining.set(version, validator);
  return validator;
}

const MAX_BRANCH_DEPTH = 8;

function isCombinator(e: ErrorObject): boolean {
  return e.keyword === "oneOf" || e.keyword === "anyOf";
}

function isUnder(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

/**
 * Ajv reports every failed branch of every `oneOf`/`anyOf` (a schema or a reference, each
 * parameter kind...). For each failed combinator, validate the node against each branch alone
 * and keep the errors of the branch that fits best (fewest errors, a reference branch last):
 * those are what a person has to fix. `base` is the pointer of the data `errors` are about.
 */
function selectBranches(
  errors: ErrorObject[],
  doc: unknown,
  validator: ExplainingValidator,
  base: string,
  depth: number,
): ErrorObject[] {
  const consumed = new Set<number>();
  const replaced = new Map<number, ErrorObject[]>();
  // Outer combinators come after the errors of their branches: walk backwards.
  for (let i = errors.length - 1; i >= 0; i--) {
    const combinator = errors[i]!;
    if (consumed.has(i) || !isCombinator(combinator)) continue;
    consumed.add(i);
    for (let j = i - 1; j >= 0 && !consumed.has(j); j--) {
      const e = errors[j]!;
      // Errors of the combinator's sibling keywords (same schema object) are not its branches'.
      if (e.parentSchema !== undefined && e.parentSchema === combinator.parentSchema) break;
      const inBranch =
        e.schemaPath.startsWith(`${combinator.schemaPath}/`) ||
        ((combinator.instancePath !== "" || depth > 0) && isUnder(e.instancePath, combinator.instancePath));
      if (!inBranch) break;
      consumed.add(j);
    }
    replaced.set(i, bestBranch(combinator, doc, validator, base, depth));
  }
  // Keep Ajv's order (document order, mostly), each combinator replaced by its best branch.
  return errors.flatMap((e, i) => {
    if (replaced.has(i)) return replaced.get(i)!;
    if (consumed.has(i) || isCombinator(e)) return [];
    return [{ ...e, instancePath: `${base}${e.instancePath}` }];
  });
}

function bestBranch(
  combinator: ErrorObject,
  doc: unknown,
  validator: ExplainingValidator,
  base: string,
  depth: number,
): ErrorObject[] {
  const at = `${base}${combinator.instancePath}`;
  const fallback = [{ ...combinator, instancePath: at }];
  const parent = combinator.parentSchema;
  const parentPointer = parent ? validator.pointers.get(parent) : undefined;
  const list = parent ? (parent as Record<string, unknown>)[combinator.keyword] : undefined;
  if (depth >= MAX_BRANCH_DEPTH || parentPointer === undefined || !Array.isArray(list)) return fallback;
  const data = resolvePointer(doc, at);
  let best: { score: number; errors: ErrorObject[] } | undefined;
  for (let k = 0; k < list.length; k++) {
    let branch: ValidateFunction | undefined;
    try {
      branch = validator.ajv.getSchema(`${validator.id}#${parentPointer}/${combinator.keyword}/${k}`);
    } catch {
      branch = undefined;
    }
    if (!branch) return fallback;
    // A oneOf whose node matches several branches is reported as is.
    if (branch(data)) return fallback;
    const errors = selectBranches(branch.errors ?? [], doc, validator, at, depth + 1);
    // A branch for another kind of object fails on its one-value discriminator (`in: [body]`),
    // a reference branch only on the missing `$ref`: those fit worst.
    const onlyMissingRef = errors.every(
      (e) => e.keyword === "required" && e.params["missingProperty"] === "$ref",
    );
    const otherKind = errors.some(
      (e) =>
        (e.keyword === "enum" && (e.params["allowedValues"] as unknown[]).length === 1) ||
        e.keyword === "const",
    );
    const score = errors.length + (onlyMissingRef ? 1000 : 0) + (otherKind ? 100 : 0);
    if (!best || score < best.score) best = { score, errors };
  }
  return best?.errors ?? fallback;
}

/** One problem per pointer and message, "missing $ref" only when nothing better is known. */
function summarizeSchemaErrors(
  errors: ErrorObject[],
  version: SpecVersion,
): { pointer: string; message: string; ignorable: boolean }[] {
  // "must match then schema" repeats the errors of the branch; a combinator summary is kept
  // only where nothing more precise was found at or under its node.
  const precise = errors.filter((e) => !["if", "then", "else"].includes(e.keyword) && !isCombinator(e));
  const kept = errors.filter(
    (e) =>
      !["if", "then", "else"].includes(e.keyword) &&
      (!isCombinator(e) || !precise.some((p) => isUnder(p.instancePath, e.instancePath))),
  );
  const byPointer = new Map<string, ErrorObject[]>();
  for (const e of kept) {
    const list = byPointer.get(e.instancePath) ?? [];
    list.push(e);
    byPointer.set(e.instancePath, list);
  }
  const out: { pointer: string; message: string; ignorable: boolean }[] = [];
  const seen = new Set<string>();
  for (const list of byPointer.values()) {
    let shown = list.filter((e) => !(e.keyword === "required" && e.params["missingProperty"] === "$ref"));
    if (shown.length === 0) shown = list;
    for (const e of shown) {
      const item = describeSchemaError(e, version);
      const key = `${item.pointer}\u0000${item.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...item, ignorable: isIgnorable(e) });
    }
  }
  return out;
}

/**
 * Problems that change nothing the bridge reads, so they are warnings: a property OpenAPI does
 * not define (a misplaced `example`, a vendor key without `x-`; the bridge ignores unknown keys)
 * and an operation with an empty `responses` object (the tool then promises no result shape).
 * Real specs are full of both (APIs.guru: googleapis.com cloudbuild, opensuse.org obs).
 */
function isIgnorable(e: ErrorObject): boolean {
  if (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties") return true;
  return e.keyword === "minProperties" && /\/responses$/.test(e.instancePath);
}

function describeSchemaError(e: ErrorObject, version: SpecVersion): { pointer: string; message: string } {
  const pointer = e.instancePath;
  const params = e.params as Record<string, unknown>;
  const family = version === "2.0" ? "Swagger 2.0" : `OpenAPI ${version}`;
  switch (e.keyword) {
    case "required":
      return { pointer, message: `missing required property "${String(params["missingProperty"])}"` };
    case "additionalProperties":
    case "unevaluatedProperties": {
      const name = String(params["additionalProperty"] ?? params["unevaluatedProperty"]);
      return {
        pointer: `${pointer}/${escapePointerToken(name)}`,
        message: `property "${name}" is not allowed here by ${family} (vendor extensions must start with "x-")`,
      };
    }
    case "enum":
      return {
        pointer,
        message: `must be one of ${(params["allowedValues"] as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "type":
      return { pointer, message: `must be of type ${String(params["type"])}` };
    case "oneOf":
    case "anyOf":
      return { pointer, message: `does not match any of the forms ${family} allows here` };
    default:
      return { pointer, message: e.message ?? `fails "${e.keyword}"` };
  }
}
