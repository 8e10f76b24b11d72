/**
 * Reading a catalog back: a JSON or YAML file whose shape is checked field by field (what the
 * diff and the next catalog read), each problem a coded diagnostic with the field's pointer.
 * schemas/catalog.schema.json describes the same file for editors and other tools.
 */
import { failWith } from "../model/diagnostics.js";
import { isDeeperThan, MAX_DOCUMENT_DEPTH } from "../model/json-depth.js";
import { isRecord } from "../model/records.js";
import { readConfigFile } from "../runtime/config/data-file.js";
import { CATALOG_FORMAT, type CatalogDocument } from "./catalog.js";
import { isCatalogVersion } from "./catalog-version.js";

/** True for a parsed document that looks like a catalog rather than a spec or a model. */
export function isCatalogDocument(value: unknown): boolean {
  return isRecord(value) && "catalogFormat" in value && "tools" in value;
}

/** A catalog file (JSON or YAML) → the checked catalog. */
export async function readCatalogFile(file: string): Promise<CatalogDocument> {
  return checkCatalog(await readConfigFile(file, "OMB_CATALOG_READ", "catalog"), file);
}

const COMPATIBILITY = ["new", "backward-compatible", "breaking"];
const STATUS = ["active", "deprecated", "removed"];
const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/** The value as a catalog, or a coded error naming the first field that is wrong. */
export function checkCatalog(value: unknown, file: string): CatalogDocument {
  const fail = (pointer: string, message: string): never =>
    failWith("OMB_CATALOG_INVALID", message, {
      file,
      pointer,
      hint: "write it again with `openapi-mcp-bridge catalog`; schemas/catalog.schema.json describes the file",
    });
  if (!isCatalogDocument(value)) fail("", "not a tool catalog (no catalogFormat and tools)");
  // The diff walks a catalog's schemas recursively: no deeper than a spec may be.
  if (isDeeperThan(value, MAX_DOCUMENT_DEPTH))
    fail("", `the catalog nests objects more than ${MAX_DOCUMENT_DEPTH} levels deep`);
  const catalog = value as Record<string, unknown>;
  if (catalog.catalogFormat !== CATALOG_FORMAT) {
    failWith(
      "OMB_CATALOG_FORMAT",
      `the catalog has catalogFormat ${JSON.stringify(catalog.catalogFormat)}, this bridge reads ${CATALOG_FORMAT}`,
      { file, pointer: "/catalogFormat", hint: "write the catalog again with this version of the bridge" },
    );
  }
  if (typeof catalog.catalogVersion !== "string" || !isCatalogVersion(catalog.catalogVersion)) {
    failWith(
      "OMB_CATALOG_VERSION",
      `catalogVersion ${JSON.stringify(catalog.catalogVersion)} is not MAJOR.MINOR.PATCH`,
      {
        file,
        pointer: "/catalogVersion",
      },
    );
  }
  const api = catalog.api;
  if (!isRecord(api) || typeof api.title !== "string" || typeof api.version !== "string")
    fail("/api", "api must be { title, version } (strings)");
  if (!isWholeNumber(catalog.retention, 0))
    fail("/retention", "retention must be a whole number of releases (0 or more)");
  if (typeof catalog.completeResults !== "boolean")
    fail("/completeResults", "completeResults must be a boolean");
  if (!Array.isArray(catalog.tools)) fail("/tools", "tools must be an array");
  (catalog.tools as unknown[]).forEach((entry, i) => {
    checkEntry(entry, `/tools/${i}`, fail);
  });
  return catalog as unknown as CatalogDocument;
}

type Fail = (pointer: string, message: string) => never;

function checkEntry(entry: unknown, at: string, fail: Fail): void {
  if (!isRecord(entry)) fail(at, "a tool entry must be an object");
  const e = entry as Record<string, unknown>;
  for (const key of ["name", "method", "path", "digest", "docsDigest", "since"]) {
    if (typeof e[key] !== "string") fail(`${at}/${key}`, `${key} must be a string`);
  }
  if (e.operationId !== null && typeof e.operationId !== "string")
    fail(`${at}/operationId`, "operationId must be a string or null");
  if (!isWholeNumber(e.contractVersion, 1))
    fail(`${at}/contractVersion`, "contractVersion must be a whole number, 1 or more");
  if (!COMPATIBILITY.includes(e.compatibility as string))
    fail(`${at}/compatibility`, `compatibility must be one of ${COMPATIBILITY.join(", ")}`);
  if (!STATUS.includes(e.status as string))
    fail(`${at}/status`, `status must be one of ${STATUS.join(", ")}`);
  const source = e.source;
  if (!isRecord(source) || !["title", "version", "pointer"].every((k) => typeof source[k] === "string"))
    fail(`${at}/source`, "source must be { title, version, pointer } (strings)");
  for (const key of ["renamedFrom", "renamedTo", "removedIn"]) {
    if (e[key] !== undefined && typeof e[key] !== "string") fail(`${at}/${key}`, `${key} must be a string`);
  }
  if (e.releasesLeft !== undefined && !isWholeNumber(e.releasesLeft, 0))
    fail(`${at}/releasesLeft`, "releasesLeft must be a whole number");
  const contract = e.contract;
  if (!isRecord(contract)) fail(`${at}/contract`, "contract must be an object");
  if (!isRecord(contract.inputSchema)) fail(`${at}/contract/inputSchema`, "inputSchema must be an object");
  if (contract.outputSchema !== undefined && !isRecord(contract.outputSchema))
    fail(`${at}/contract/outputSchema`, "outputSchema must be an object");
  if (typeof contract.outputWrapped !== "boolean")
    fail(`${at}/contract/outputWrapped`, "outputWrapped must be a boolean");
  const annotations = contract.annotations;
  if (!isRecord(annotations) || !HINTS.every((k) => typeof annotations[k] === "boolean"))
    fail(`${at}/contract/annotations`, `annotations must hold ${HINTS.join(", ")} (booleans)`);
  const binding = contract.binding;
  if (
    !isRecord(binding) ||
    typeof binding.method !== "string" ||
    typeof binding.path !== "string" ||
    !Array.isArray(binding.parameters) ||
    !Array.isArray(binding.security) ||
    !Array.isArray(binding.responseTypes)
  ) {
    fail(`${at}/contract/binding`, "binding must hold method, path, parameters, security and responseTypes");
  }
  const b = binding as Record<string, unknown>;
  (b.parameters as unknown[]).forEach((p, i) => {
    if (
      !isRecord(p) ||
      typeof p.argument !== "string" ||
      typeof p.in !== "string" ||
      typeof p.name !== "string"
    )
      fail(`${at}/contract/binding/parameters/${i}`, "a parameter must hold argument, in and name");
  });
  (b.security as unknown[]).forEach((r, i) => {
    if (
      !isRecord(r) ||
      !Object.values(r).every((s) => Array.isArray(s) && s.every((x) => typeof x === "string"))
    )
      fail(
        `${at}/contract/binding/security/${i}`,
        "a security requirement maps scheme names to lists of scopes",
      );
  });
  const body = b.body;
  if (body !== undefined && (!isRecord(body) || typeof body.mediaType !== "string"))
    fail(`${at}/contract/binding/body`, "body must hold a mediaType");
}

function isWholeNumber(value: unknown, min: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min;
}

/**
 * A catalog as YAML text, for people who read it in review: no
 * anchors or aliases, no folded lines, so the same value always gives the same text.
 */
export async function formatCatalogYaml(value: CatalogDocument): Promise<string> {
  const { stringify } = await import("yaml");
  return stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
}
