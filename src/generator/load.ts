/**
 * Loading a spec: read (file, URL or stdin), parse (JSON or YAML, by content), identify the
 * version, bundle external `$ref`s into the document (never dereferencing it), validate against
 * the OpenAPI JSON Schema, and upgrade Swagger 2.0 to OpenAPI 3.0.
 *
 * Every failure is a BridgeError with a stable code; no raw stack trace or parser dump leaks out.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV2, OpenAPIV3, OpenAPIV3_1 } from "openapi-types";
import { BridgeError, createDiagnostic } from "../model/diagnostics.js";
import { escapePointerToken, joinPointer, resolvePointer, splitPointer } from "../model/pointer.js";
import { isRecord } from "../model/records.js";
import type { Diagnostic, SpecVersion } from "../model/types.js";
import { checkOpenApi3, resolveRelativeServers } from "./normalize/openapi3.js";
import { convertSwagger2 } from "./normalize/swagger2.js";
import {
  canValidateInWorker,
  startValidationWorker,
  type ValidationWorker,
} from "./validation/background.js";
import { validateDocument } from "./validation/validate.js";

const requireHere = createRequire(import.meta.url);

/** The YAML parser is loaded on the first YAML document: JSON specs (most large ones) never need it. */
function loadYaml(): typeof import("yaml") {
  return requireHere("yaml") as typeof import("yaml");
}

export interface LoadOptions {
  /** Default false: a `$ref` to an http(s) URL is refused with OMB_REF_NETWORK. */
  allowNetworkRefs?: boolean;
  /** Default true: a `$ref` to a file (relative to the spec file) is read. */
  allowFileRefs?: boolean;
  /** Default true: structural validation against the OpenAPI JSON Schema. */
  validate?: boolean;
  /**
   * Default false: loadSpec returns once validation is done. When true, a large document (over
   * 1 MB, with cores to spare) is validated in a worker thread while the caller goes on, and
   * `LoadedSpec.validation` settles when it is done (rejecting with the BridgeError loadSpec
   * would have thrown). Problems found before loadSpec returns (any document validated
   * in-thread) are still thrown.
   */
  deferValidation?: boolean;
  /** Read when the source is `-`; defaults to `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** Timeout for fetching a URL source or network `$ref`, default 30000 ms. */
  timeoutMs?: number;
}

export interface LoadedSpec {
  /** OpenAPI 3.x shaped (Swagger 2.0 converted), bundled: every `$ref` is internal, none inlined. */
  document: OpenAPIV3.Document | OpenAPIV3_1.Document;
  /** What the source was before normalisation. */
  specVersion: SpecVersion;
  /** The path or URL as given, `<stdin>` for `-`. */
  source: string;
  /** Warnings (conversion, duplicate operationIds...). */
  diagnostics: Diagnostic[];
  /**
   * With `deferValidation`: resolves when the document is valid (or was not validated), rejects
   * with a BridgeError of OMB_SPEC_INVALID problems; resolves with the warnings found (these
   * are not in `diagnostics`). Never an unhandled rejection if ignored.
   */
  validation?: Promise<Diagnostic[]>;
}

/** At most this many diagnostics of one kind are reported, plus a note saying how many more. */
const MAX_REPORTED = 20;
/** YAML alias expansions allowed in one document: enough for real specs, not for billion laughs. */
const MAX_YAML_ALIASES = 100;
const DEFAULT_TIMEOUT_MS = 30_000;
const STDIN_SOURCE = "<stdin>";
/** Spec text longer than this is validated in a worker when validation may be deferred. */
const WORKER_MIN_CHARS = 1_000_000;

export async function loadSpec(source: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  const input = await readSource(source, options.stdin, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const worker = startWorkerFor(input.text, options);
  try {
    return await loadText(input, options, worker);
  } catch (error) {
    worker?.cancel();
    throw error;
  }
}

/**
 * A worker, started before parsing so that it parses the text alongside this thread, when
 * validation may be deferred and the document is large.
 */
function startWorkerFor(text: string, options: LoadOptions): ValidationWorker | undefined {
  if (options.validate === false || options.deferValidation !== true) return undefined;
  if (text.length <= WORKER_MIN_CHARS || !canValidateInWorker()) return undefined;
  const body = withoutBom(text);
  return startValidationWorker(/^\s*[{[]/.test(body) ? { text: body } : {});
}

async function loadText(
  input: SourceText,
  options: LoadOptions,
  worker: ValidationWorker | undefined,
): Promise<LoadedSpec> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const parsed = parseSpec(input.text, input.display);
  const specVersion = detectVersion(parsed.value, input.display);
  let doc = parsed.value as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [];

  if (input.remote && specVersion !== "2.0") resolveRelativeServers(doc, input.location);

  const refs: RefContext = {
    allowNetwork: options.allowNetworkRefs === true,
    allowFile: options.allowFileRefs !== false && !input.remote,
    timeoutMs,
    rootLocation: input.location,
    rootDisplay: input.display,
    root: doc,
    rootSites: [],
    loaded: new Map(),
    failures: [],
  };
  let refStrings = collectRefStrings(doc);
  let bundled = false;
  if ([...refStrings].some((ref) => !ref.startsWith("#"))) {
    const external = collectRefs(doc).filter((r) => !r.ref.startsWith("#"));
    refs.rootSites = external;
    refuseForbiddenRefs(external, refs);
    nameExternalSchemas(doc, specVersion, external, input.location);
    doc = await bundleExternalRefs(doc, specVersion, input, refs);
    refStrings = collectRefStrings(doc);
    bundled = true;
  }
  checkInternalRefs(doc, refStrings, input.display);

  let validation: Promise<Diagnostic[]> | undefined;
  if (worker) {
    validation = validateInBackground(
      worker,
      doc,
      specVersion,
      input.display,
      bundled ? undefined : parsed.json,
    );
  } else if (options.validate !== false) {
    diagnostics.push(...throwProblems(validateDocument(doc, specVersion, input.display)));
  }

  let document: OpenAPIV3.Document | OpenAPIV3_1.Document;
  try {
    if (specVersion === "2.0") {
      const converted = convertSwagger2(doc as unknown as OpenAPIV2.Document, input.display);
      diagnostics.push(...converted.diagnostics);
      document = converted.document;
      if (input.remote)
        resolveRelativeServers(document as unknown as Record<string, unknown>, input.location);
    } else {
      document = doc as unknown as OpenAPIV3.Document | OpenAPIV3_1.Document;
    }
    diagnostics.push(...checkOpenApi3(document, input.display));
  } catch (error) {
    // A document still being validated may be invalid: its schema problems explain it better.
    await validation;
    throw error;
  }
  const loaded: LoadedSpec = { document, specVersion, source: input.display, diagnostics };
  // Only a deferred validation runs in a worker: otherwise it is done by now.
  if (options.deferValidation === true) loaded.validation = validation ?? Promise.resolve([]);
  return loaded;
}

/**
 * Throws the problems when any is an error (with a hint on the first); otherwise returns the
 * warnings (ignored properties and the like), for the model's diagnostics.
 */
function throwProblems(problems: Diagnostic[]): Diagnostic[] {
  const errors = problems.filter((p) => p.severity === "error");
  if (errors.length === 0) return problems;
  const first = errors[0]!;
  errors[0] = {
    ...first,
    hint:
      first.hint ??
      "fix the spec at that place; or skip this check with --no-validate (validate: false) and let the bridge plan what it can",
  };
  throw new BridgeError(capDiagnostics(errors));
}

/**
 * Validates in the worker: given `json`, the text `doc` was parsed from as is (no bundling),
 * the worker validates its own parse of it; otherwise it is sent `doc`. The promise returned
 * is already handled, so that an ignored rejection is never an unhandled one.
 */
function validateInBackground(
  worker: ValidationWorker,
  doc: unknown,
  version: SpecVersion,
  file: string,
  json: string | undefined,
): Promise<Diagnostic[]> {
  const job = json === undefined ? { version, file, document: doc } : { version, file };
  const fallback = () => validateDocument(json === undefined ? doc : JSON.parse(json), version, file);
  const validation = worker.validate(job, fallback).then(throwProblems);
  validation.catch(() => {});
  return validation;
}

// ---------------------------------------------------------------------------------------------
// Reading

interface SourceText {
  text: string;
  /** As given, for messages. */
  display: string;
  /** Absolute file path or URL (after redirects): the base for relative `$ref`s. */
  location: string;
  /** Fetched over the network: relative refs are network refs, file refs are refused. */
  remote: boolean;
}

async function readSource(
  source: string,
  stdin: NodeJS.ReadableStream | undefined,
  timeoutMs: number,
): Promise<SourceText> {
  if (source === "-") {
    const text = await readStream(stdin ?? process.stdin);
    return { text, display: STDIN_SOURCE, location: path.join(process.cwd(), "stdin"), remote: false };
  }
  if (isHttpUrl(source)) {
    const { text, finalUrl } = await fetchText(source, timeoutMs, "OMB_SPEC_FETCH", source);
    return { text, display: source, location: finalUrl, remote: true };
  }
  let filePath = source;
  if (/^file:/i.test(source)) {
    try {
      filePath = fileURLToPath(source);
    } catch {
      throw new BridgeError([
        createDiagnostic("OMB_SPEC_NOT_FOUND", `not a valid file URL: ${source}`, { file: source }),
      ]);
    }
  } else if (/^[a-z][a-z0-9+.-]+:\/\//i.test(source)) {
    throw new BridgeError([
      createDiagnostic("OMB_SPEC_NOT_FOUND", `unsupported URL scheme in ${source}`, {
        file: source,
        hint: "give a file path, an http(s) URL, or - for standard input",
      }),
    ]);
  }
  const location = path.resolve(filePath);
  try {
    return { text: await readFile(location, "utf8"), display: source, location, remote: false };
  } catch (error) {
    throw new BridgeError([fileErrorDiagnostic(error, source, location)]);
  }
}

function fileErrorDiagnostic(error: unknown, source: string, location: string): Diagnostic {
  const code = errorCode(error);
  if (code === "ENOENT" || code === "ENOTDIR") {
    return createDiagnostic("OMB_SPEC_NOT_FOUND", `spec file not found: ${location}`, {
      file: source,
      hint: "check the path; relative paths are resolved from the current directory",
    });
  }
  const reason =
    code === "EISDIR"
      ? "it is a directory"
      : code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : (code ?? "unknown error");
  return createDiagnostic("OMB_SPEC_UNREADABLE", `cannot read spec file ${location}: ${reason}`, {
    file: source,
  });
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  } catch (error) {
    throw new BridgeError([
      createDiagnostic("OMB_SPEC_UNREADABLE", `cannot read standard input: ${shortMessage(error)}`, {
        file: STDIN_SOURCE,
      }),
    ]);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** GETs a URL as text; any failure becomes one diagnostic with `code`. */
async function fetchText(
  url: string,
  timeoutMs: number,
  code: string,
  file: string,
): Promise<{ text: string; finalUrl: string }> {
  const fail = (message: string, hint?: string): never => {
    throw new BridgeError([createDiagnostic(code, message, hint === undefined ? { file } : { file, hint })]);
  };
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json, application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.8" },
      redirect: "follow",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return fail(describeFetchError(error, url, timeoutMs), "check the URL and that the host is reachable");
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => {});
    return fail(
      `GET ${url} returned HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
    );
  }
  try {
    return { text: await response.text(), finalUrl: response.url || url };
  } catch (error) {
    return fail(describeFetchError(error, url, timeoutMs));
  }
}

function describeFetchError(error: unknown, url: string, timeoutMs: number): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "TimeoutError" || name === "AbortError") return `GET ${url} timed out after ${timeoutMs} ms`;
  const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
  const code = errorCode(cause) ?? errorCode(error);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the URL
  }
  switch (code) {
    case "ECONNREFUSED":
      return `cannot reach ${host}: connection refused`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot reach ${host}: host not found`;
    case "ECONNRESET":
      return `cannot reach ${host}: connection reset`;
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ETIMEDOUT":
      return `cannot reach ${host}: connection timed out`;
    default:
      return `cannot fetch ${url}: ${code ?? shortMessage(cause ?? error)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

/**
 * Parses JSON or YAML, chosen by content: text starting with `{` or `[` is tried as JSON first.
 * YAML is limited to MAX_YAML_ALIASES alias expansions and must not be recursive.
 */
export function parseSpecText(text: string, file: string): unknown {
  return parseSpec(text, file).value;
}

/** parseSpecText, also giving the text JSON.parse read the value from, when it was JSON. */
function parseSpec(text: string, file: string): { value: unknown; json?: string } {
  const body = withoutBom(text);
  const trimmed = body.trimStart();
  if (trimmed === "") throw parseError(file, "the document is empty");
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return { value: JSON.parse(body), json: body };
    } catch (jsonError) {
      // Flow-style YAML also starts with `{`: accept it, but report the JSON error if both fail.
      try {
        return { value: parseYaml(body, file) };
      } catch {
        throw jsonParseError(jsonError, body, file);
      }
    }
  }
  return { value: parseYaml(body, file) };
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parseYaml(text: string, file: string): unknown {
  const { parseDocument } = loadYaml();
  const doc = parseDocument(text, { merge: true, prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const message = first.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw parseError(file, `YAML syntax error: ${message}`, pos?.line, pos?.col);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw parseError(
        file,
        `YAML aliases expand too much (limit ${MAX_YAML_ALIASES}); refusing a possible "billion laughs" document`,
      );
    }
    throw parseError(file, `YAML error: ${shortMessage(error)}`);
  }
  return copyTree(value, file);
}

/** Aliases yield shared (even cyclic) objects: copy into a plain tree, refusing cycles. */
function copyTree(value: unknown, file: string): unknown {
  const ancestors = new Set<object>();
  const copy = (node: unknown): unknown => {
    if (node === null || typeof node !== "object") return node;
    if (ancestors.has(node)) throw parseError(file, "a YAML alias refers to one of its own ancestors");
    ancestors.add(node);
    let result: unknown;
    if (Array.isArray(node)) {
      result = node.map(copy);
    } else {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        Object.defineProperty(out, key, {
          value: copy(child),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      result = out;
    }
    ancestors.delete(node);
    return result;
  };
  return copy(value);
}

function jsonParseError(error: unknown, text: string, file: string): BridgeError {
  const message = shortMessage(error);
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : text.length;
  const before = text.slice(0, offset).split("\n");
  const line = before.length;
  const col = (before.at(-1)?.length ?? 0) + 1;
  const reason = message
    .replace(/\s*in JSON at position \d+.*$/s, "")
    .replace(/\s*\(line \d+ column \d+\)$/, "");
  return parseError(file, `JSON syntax error: ${reason}`, line, col);
}

function parseError(file: string, message: string, line?: number, col?: number): BridgeError {
  const where = line !== undefined ? `${file}:${line}:${col ?? 1}` : file;
  return new BridgeError([createDiagnostic("OMB_SPEC_PARSE", `${where}: ${message}`, { file })]);
}

// ---------------------------------------------------------------------------------------------
// Version

function detectVersion(doc: unknown, file: string): SpecVersion {
  const fail = (message: string, hint?: string): never => {
    throw new BridgeError([
      createDiagnostic("OMB_SPEC_VERSION", message, hint === undefined ? { file } : { file, hint }),
    ]);
  };
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    return fail(`${file} is not an OpenAPI document: expected an object at the top level`);
  }
  const record = doc as Record<string, unknown>;
  const quoteHint = "quote the version so YAML reads it as a string";
  if ("swagger" in record) {
    const swagger = record["swagger"];
    if (swagger === "2.0") return "2.0";
    if (typeof swagger === "number") {
      return fail(
        `${file}: swagger version must be the string "2.0", found the number ${swagger}`,
        quoteHint,
      );
    }
    return fail(`${file}: unsupported Swagger version ${JSON.stringify(swagger)}; only "2.0" is supported`);
  }
  if ("openapi" in record) {
    const openapi = record["openapi"];
    if (typeof openapi === "string") {
      if (/^3\.0\.\d+(-.+)?$/.test(openapi)) return "3.0";
      if (/^3\.1\.\d+(-.+)?$/.test(openapi)) return "3.1";
      return fail(`${file}: unsupported OpenAPI version "${openapi}"; supported: 2.0, 3.0.x, 3.1.x`);
    }
    return fail(
      `${file}: openapi version must be a string like "3.1.0", found ${JSON.stringify(openapi)}`,
      quoteHint,
    );
  }
  return fail(
    `${file} is not an OpenAPI document: no "openapi" or "swagger" field`,
    'an OpenAPI description starts with `openapi: 3.x.y` (or `swagger: "2.0"`)',
  );
}

// ---------------------------------------------------------------------------------------------
// $ref handling

interface RefSite {
  ref: string;
  /** Pointer of the object holding `$ref`. */
  pointer: string;
}

interface RefContext {
  allowNetwork: boolean;
  allowFile: boolean;
  timeoutMs: number;
  rootLocation: string;
  rootDisplay: string;
  root: unknown;
  /** The root's refs as written (before any rewriting), for naming where a failed ref is. */
  rootSites: RefSite[];
  /** External documents parsed so far, by location (absolute path or URL without hash). */
  loaded: Map<string, unknown>;
  /** Diagnostics recorded by the resolvers and parser: their errors reach us wrapped. */
  failures: Diagnostic[];
}

/** Keys whose values are maps of names; their children are never data keywords. */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "headers",
  "examples",
  "requestBodies",
  "securitySchemes",
  "links",
  "callbacks",
  "pathItems",
  "paths",
  "webhooks",
  "content",
  "encoding",
  "variables",
]);
/** Keywords whose values are data (examples, defaults), where a `$ref` key is not a reference. */
const DATA_KEYS = new Set(["example", "default", "const", "enum", "value"]);

/** Every `$ref` string in a document, with the pointer of the object holding it. */
export function collectRefs(root: unknown): RefSite[] {
  const sites: RefSite[] = [];
  const tokens: string[] = [];
  walkRefs(root, tokens, (ref) => sites.push({ ref, pointer: fastPointer(tokens) }));
  return sites;
}

/** Every distinct `$ref` string in a document: collectRefs without the cost of the pointers. */
function collectRefStrings(root: unknown): Set<string> {
  const refs = new Set<string>();
  walkRefs(root, undefined, (ref) => refs.add(ref));
  return refs;
}

/** Calls `onRef` for each `$ref`; `tokens`, when given, holds the path to its object meanwhile. */
function walkRefs(root: unknown, tokens: string[] | undefined, onRef: (ref: string) => void): void {
  const visit = (node: unknown, parentKey: string | undefined): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child = node[i];
        if (child !== null && typeof child === "object") {
          tokens?.push(String(i));
          visit(child, undefined);
          tokens?.pop();
        }
      }
      return;
    }
    const record = node as Record<string, unknown>;
    const isNameMap = parentKey !== undefined && NAME_MAPS.has(parentKey);
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (key === "$ref" && typeof child === "string") {
        onRef(child);
      } else if (child !== null && typeof child === "object" && (isNameMap || !DATA_KEYS.has(key))) {
        tokens?.push(key);
        visit(child, key);
        tokens?.pop();
      }
    }
  };
  if (root !== null && typeof root === "object") visit(root, undefined);
}

/** joinPointer, without the replaceAll calls for the (usual) tokens that need no escaping. */
function fastPointer(tokens: string[]): string {
  let pointer = "";
  for (const token of tokens) {
    pointer += `/${token.includes("~") || token.includes("/") ? escapePointerToken(token) : token}`;
  }
  return pointer;
}

interface ResolvedRef {
  kind: "file" | "http" | "other";
  /** Absolute file path or URL, without the fragment. */
  location: string;
}

function resolveRef(ref: string, base: string): ResolvedRef {
  try {
    const url = new URL(ref, isHttpUrl(base) ? base : pathToFileURL(base));
    url.hash = "";
    if (url.protocol === "file:") return { kind: "file", location: fileURLToPath(url) };
    if (url.protocol === "http:" || url.protocol === "https:") return { kind: "http", location: url.href };
    return { kind: "other", location: url.href };
  } catch {
    return { kind: "other", location: ref };
  }
}

function displayLocation(location: string, ctx: RefContext): string {
  if (location === ctx.rootLocation) return ctx.rootDisplay;
  if (isHttpUrl(location)) return location;
  const relative = path.relative(process.cwd(), location);
  return relative.startsWith("..") || path.isAbsolute(relative) ? location : relative;
}

function networkRefDiagnostic(site: RefSite, file: string, target: string): Diagnostic {
  return createDiagnostic("OMB_REF_NETWORK", `network $ref "${site.ref}" refused (resolves to ${target})`, {
    file,
    pointer: site.pointer,
    hint: "network references are off by default; pass --allow-network-refs (allowNetworkRefs: true) to fetch them",
  });
}

function fileRefDiagnostic(site: RefSite, file: string, ctx: RefContext): Diagnostic {
  const why = isHttpUrl(ctx.rootLocation)
    ? "a spec fetched from a URL may not read local files"
    : "file references are disabled (allowFileRefs: false)";
  return createDiagnostic("OMB_REF_FILE", `file $ref "${site.ref}" refused: ${why}`, {
    file,
    pointer: site.pointer,
  });
}

/** Refuses, all at once, the root document's refs that the options forbid. */
function refuseForbiddenRefs(sites: RefSite[], ctx: RefContext): void {
  const problems: Diagnostic[] = [];
  for (const site of sites) {
    const target = resolveRef(site.ref, ctx.rootLocation);
    if (target.kind === "http" && !ctx.allowNetwork) {
      problems.push(networkRefDiagnostic(site, ctx.rootDisplay, target.location));
    } else if (target.kind === "file" && !ctx.allowFile) {
      problems.push(fileRefDiagnostic(site, ctx.rootDisplay, ctx));
    } else if (target.kind === "other") {
      problems.push(
        createDiagnostic("OMB_REF_UNRESOLVED", `$ref "${site.ref}" uses an unsupported scheme`, {
          file: ctx.rootDisplay,
          pointer: site.pointer,
        }),
      );
    }
  }
  if (problems.length > 0) throw new BridgeError(capDiagnostics(problems));
}

/**
 * Bundling inlines an external schema at the first place that references it, so the other
 * references point into `/paths/...` and the planner has no name for it. Give each externally
 * referenced schema a component of its own first (named after the ref's last pointer token or
 * the file name): `$ref: pet.yaml#/Pet` in a schema position becomes `#/components/schemas/Pet`
 * (`#/definitions/Pet` in 2.0), whose entry holds the external ref that bundling then inlines.
 * Mutates `doc`.
 */
function nameExternalSchemas(
  doc: Record<string, unknown>,
  version: SpecVersion,
  sites: RefSite[],
  base: string,
): void {
  const containerPath = version === "2.0" ? ["definitions"] : ["components", "schemas"];
  const keyOf = (ref: string) => {
    const hash = ref.includes("#") ? ref.slice(ref.indexOf("#")) : "#";
    return `${resolveRef(ref, base).location}${hash}`;
  };
  const existing = resolvePointer(doc, joinPointer(...containerPath));
  const used = new Set(isRecord(existing) ? Object.keys(existing) : []);
  const names = new Map<string, string>();
  const componentPointer = (name: string) => joinPointer(...containerPath, name);
  // A component that is itself an external ref already names its target.
  for (const site of sites) {
    const tokens = splitPointer(site.pointer);
    if (tokens.length === containerPath.length + 1 && site.pointer === componentPointer(tokens.at(-1)!)) {
      if (!names.has(keyOf(site.ref))) names.set(keyOf(site.ref), tokens.at(-1)!);
    }
  }
  for (const site of sites) {
    const tokens = splitPointer(site.pointer);
    const inContainer = containerPath.every((t, i) => tokens[i] === t);
    if (inContainer && tokens.length === containerPath.length + 1) continue;
    if (!(inContainer || tokens.includes("schema"))) continue;
    const key = keyOf(site.ref);
    let name = names.get(key);
    if (name === undefined) {
      name = uniqueName(externalSchemaName(site.ref), used);
      names.set(key, name);
      let container: Record<string, unknown> = doc;
      for (const token of containerPath) {
        if (!isRecord(container[token])) container[token] = {};
        container = container[token] as Record<string, unknown>;
      }
      container[name] = { $ref: site.ref };
    }
    const node = resolvePointer(doc, site.pointer);
    if (isRecord(node)) node["$ref"] = `#${componentPointer(name)}`;
  }
}

function externalSchemaName(ref: string): string {
  const hash = ref.includes("#") ? ref.slice(ref.indexOf("#") + 1) : "";
  const tokens = hash === "" ? [] : splitPointer(`#${hash}`);
  let raw = tokens.at(-1) ?? "";
  if (raw === "" || /^\d+$/.test(raw)) {
    const file = ref.replace(/#.*$/, "").split(/[\\/]/).at(-1) ?? "";
    raw = file.replace(/\.(ya?ml|json)$/i, "");
  }
  return raw.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "") || "Schema";
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
  used.add(name);
  return name;
}

/** Where (in the root or an already loaded external file) a failed location is referenced. */
function findReferrers(location: string, ctx: RefContext): { file: string; site: RefSite }[] {
  const found: { file: string; site: RefSite }[] = [];
  const documents: [string, RefSite[]][] = [
    [ctx.rootLocation, ctx.rootSites],
    ...[...ctx.loaded].map(([location, doc]): [string, RefSite[]] => [location, collectRefs(doc)]),
  ];
  for (const [docLocation, sites] of documents) {
    for (const site of sites) {
      if (site.ref.startsWith("#")) continue;
      if (resolveRef(site.ref, docLocation).location === location) {
        found.push({ file: displayLocation(docLocation, ctx), site });
      }
    }
  }
  return found;
}

/** Records one failure per place the location is referenced from, then returns an Error to throw. */
function recordRefFailure(
  ctx: RefContext,
  location: string,
  make: (site: RefSite, file: string) => Diagnostic,
): Error {
  const referrers = findReferrers(location, ctx);
  if (referrers.length === 0) {
    ctx.failures.push(make({ ref: location, pointer: "" }, displayLocation(location, ctx)));
  }
  for (const { file, site } of referrers) ctx.failures.push(make(site, file));
  return new Error(`refused ${location}`);
}

function locationOfFileUrl(url: string): string {
  if (/^file:/i.test(url)) return fileURLToPath(url);
  try {
    return path.resolve(decodeURIComponent(url));
  } catch {
    return path.resolve(url);
  }
}

async function bundleExternalRefs(
  doc: Record<string, unknown>,
  version: SpecVersion,
  input: SourceText,
  ctx: RefContext,
): Promise<Record<string, unknown>> {
  const fileResolver = {
    order: 100,
    canRead: (file: { url: string }) => !isHttpUrl(file.url),
    read: async (file: { url: string }): Promise<Buffer> => {
      const location = locationOfFileUrl(file.url);
      if (!ctx.allowFile) {
        throw recordRefFailure(ctx, location, (site, from) => fileRefDiagnostic(site, from, ctx));
      }
      try {
        return await readFile(location);
      } catch (error) {
        const code = errorCode(error);
        const reason =
          code === "ENOENT" ? "file not found" : `cannot read it (${code ?? shortMessage(error)})`;
        throw recordRefFailure(ctx, location, (site, from) =>
          createDiagnostic("OMB_REF_UNRESOLVED", `$ref "${site.ref}": ${reason}: ${location}`, {
            file: from,
            pointer: site.pointer,
          }),
        );
      }
    },
  };
  const httpResolver = {
    order: 200,
    canRead: (file: { url: string }) => isHttpUrl(file.url),
    read: async (file: { url: string }): Promise<string> => {
      const location = file.url.replace(/#.*$/, "");
      if (!ctx.allowNetwork) {
        throw recordRefFailure(ctx, location, (site, from) => networkRefDiagnostic(site, from, location));
      }
      try {
        return (await fetchText(location, ctx.timeoutMs, "OMB_REF_UNRESOLVED", location)).text;
      } catch (error) {
        const reason = error instanceof BridgeError ? error.diagnostics[0]!.message : shortMessage(error);
        throw recordRefFailure(ctx, location, (site, from) =>
          createDiagnostic("OMB_REF_UNRESOLVED", `$ref "${site.ref}": ${reason}`, {
            file: from,
            pointer: site.pointer,
          }),
        );
      }
    },
  };
  const specParser = {
    order: 1,
    allowEmpty: false,
    canParse: true,
    parse: (file: { url: string; data: string | Buffer }): unknown => {
      const location = isHttpUrl(file.url) ? file.url.replace(/#.*$/, "") : locationOfFileUrl(file.url);
      const text = typeof file.data === "string" ? file.data : file.data.toString("utf8");
      try {
        const value = parseSpecText(text, displayLocation(location, ctx));
        ctx.loaded.set(location, value);
        return value;
      } catch (error) {
        if (error instanceof BridgeError) ctx.failures.push(...error.diagnostics);
        throw error;
      }
    },
  };

  const restore = quietParserChecks(doc, version);
  try {
    const options = {
      parse: { json: false, yaml: false, text: false, binary: false, spec: specParser },
      resolve: { external: true, file: fileResolver, http: httpResolver },
      dereference: { circular: true },
      mutateInputSchema: true,
    } as unknown as SwaggerParser.Options;
    // swagger-parser is loaded only for specs with external refs: most specs are one file.
    const parser = (await import("@apidevtools/swagger-parser")) as unknown as {
      default: typeof SwaggerParser;
    };
    const bundled = (await parser.default.bundle(input.location, doc as never, options)) as unknown as Record<
      string,
      unknown
    >;
    restore(bundled);
    return bundled;
  } catch (error) {
    restore(doc);
    if (ctx.failures.length > 0) throw new BridgeError(capDiagnostics(dedupe(ctx.failures)));
    throw new BridgeError([refErrorDiagnostic(error, ctx)]);
  }
}

/**
 * swagger-parser's own checks before bundling (a fixed list of patch versions, `paths`
 * required, `info.version` a string) would end loading with its message; validation reports
 * those problems properly later. Satisfy them for the duration of the bundling; the function
 * returned puts the document's own values back.
 */
function quietParserChecks(
  doc: Record<string, unknown>,
  version: SpecVersion,
): (target: Record<string, unknown>) => void {
  const declared = doc["openapi"];
  const hadPaths = "paths" in doc;
  const info = isRecord(doc["info"]) ? doc["info"] : undefined;
  const infoVersion = info?.["version"];
  if (version === "3.0") doc["openapi"] = "3.0.3";
  if (version === "3.1") doc["openapi"] = "3.1.0";
  if (version !== "2.0" && doc["paths"] === undefined) doc["paths"] = {};
  if (info && typeof infoVersion === "number") info["version"] = String(infoVersion);
  return (target) => {
    if (declared !== undefined) target["openapi"] = declared;
    if (!hadPaths) delete target["paths"];
    const targetInfo = target["info"];
    if (isRecord(targetInfo) && typeof infoVersion === "number") targetInfo["version"] = infoVersion;
  };
}

/** Maps a json-schema-ref-parser error that no resolver recorded (e.g. a missing pointer). */
function refErrorDiagnostic(error: unknown, ctx: RefContext): Diagnostic {
  const e = error as { name?: string; message?: string; targetRef?: string; source?: string };
  const message = shortMessage(error);
  if (e.name === "MissingPointerError" || /Missing \$ref pointer/.test(message)) {
    const target = e.targetRef ?? /"([^"]+)"/.exec(message)?.[1] ?? "";
    const hash = target.includes("#") ? target.slice(target.indexOf("#")) : "";
    const location = target.replace(/#.*$/, "");
    const resolved = location === "" ? ctx.rootLocation : locationOfRefTarget(location);
    const referrer = findReferrers(resolved, ctx).find((r) => hash === "" || r.site.ref.endsWith(hash));
    return createDiagnostic(
      "OMB_REF_UNRESOLVED",
      `$ref "${referrer?.site.ref ?? target}": pointer ${hash || "#"} does not exist in ${displayLocation(resolved, ctx)}`,
      referrer ? { file: referrer.file, pointer: referrer.site.pointer } : { file: ctx.rootDisplay },
    );
  }
  return createDiagnostic("OMB_REF_UNRESOLVED", `cannot resolve $refs: ${message}`, {
    file: ctx.rootDisplay,
  });
}

function locationOfRefTarget(target: string): string {
  return isHttpUrl(target) ? target : locationOfFileUrl(target);
}

/**
 * Every local `#/...` ref must point at something: checked here so the planner can trust them.
 * Each distinct ref is resolved once; only when some fail are the pointers of the places that
 * hold them computed (a second walk), for the messages.
 */
function checkInternalRefs(doc: unknown, refs: Iterable<string>, file: string): void {
  const broken = new Set<string>();
  for (const ref of refs) {
    if (ref !== "#" && !ref.startsWith("#/")) continue;
    if (resolvePointer(doc, ref) === undefined) broken.add(ref);
  }
  if (broken.size === 0) return;
  const problems = collectRefs(doc)
    .filter((site) => broken.has(site.ref))
    .map((site) =>
      createDiagnostic("OMB_REF_UNRESOLVED", `$ref "${site.ref}" points to nothing in this document`, {
        file,
        pointer: site.pointer,
      }),
    );
  throw new BridgeError(capDiagnostics(problems));
}

// ---------------------------------------------------------------------------------------------
// Helpers

function capDiagnostics(list: Diagnostic[]): Diagnostic[] {
  if (list.length <= MAX_REPORTED) return list;
  const first = list[0]!;
  const more = list.length - MAX_REPORTED;
  return [
    ...list.slice(0, MAX_REPORTED),
    createDiagnostic(first.code, `... and ${more} more problem${more === 1 ? "" : "s"} like these`, {
      ...(first.file !== undefined ? { file: first.file } : {}),
    }),
  ];
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.code}\u0000${d.file}\u0000${d.pointer}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function errorCode(error: unknown): string | undefined {
  if (error !== null && typeof error === "object" && "code" in error) {
    const code = (error as { code: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** First line of an error's message, bounded: never a stack, never a multi-kilobyte dump. */
function shortMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split("\n")[0] ?? "";
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
