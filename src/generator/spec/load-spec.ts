/**
 * Loading a spec: read (file, URL or stdin), parse (JSON or YAML, by content), identify the
 * version, bundle external `$ref`s into the document (never dereferencing it), validate against
 * the OpenAPI JSON Schema, and upgrade Swagger 2.0 to OpenAPI 3.0.
 *
 * Every failure is a BridgeError with a stable code; no raw stack trace or parser dump leaks out.
 */
import { BridgeError } from "../../model/diagnostics.js";
import { MAX_DOCUMENT_DEPTH } from "../../model/json-depth.js";
import type { Diagnostic, SpecVersion } from "../../model/types.js";
import { bundleExternalRefs, nameExternalSchemas } from "./bundle-refs.js";
import {
  canValidateInWorker,
  startValidationWorker,
  type ValidationWorker,
} from "./document-check/background-check.js";
import { validateDocument } from "./document-check/check-document.js";
import { scanDocument } from "./document-scan.js";
import { checkOpenApi3, resolveRelativeServers } from "./normalize/openapi3.js";
import { convertSwagger2 } from "./normalize/swagger2.js";
import type { OpenApiDocument } from "./openapi-document.js";
import { checkDepth, detectVersion, parseSpec, withoutBom } from "./parse-text.js";
import { createReadBudget, type FileBytes, type ReadBudget, resolveRefRoots } from "./read-limits.js";
import { readSource, type SourceText } from "./read-source.js";
import {
  checkInternalRefs,
  collectRefStrings,
  collectRefs,
  findBrokenInternalRefs,
  type RefContext,
  type RefSite,
  refuseForbiddenRefs,
} from "./ref-sites.js";
import { repairSlips } from "./repair-slips.js";
import { capDiagnostics } from "./spec-errors.js";
import {
  collectReachedPointers,
  findUnresolvableRefs,
  leaveRefsOut,
  listUnreachedSites,
} from "./unreached-refs.js";

export interface LoadOptions {
  /** Default false: a `$ref` to an http(s) URL is refused with OMB_REF_NETWORK. */
  allowNetworkRefs?: boolean;
  /**
   * Default true: a `$ref` to a file (relative to the file that holds it) is read, when it is a
   * regular file inside the spec's own folder tree or one of `refRoots` (symlinks resolved);
   * any other is refused with OMB_REF_OUTSIDE_ROOT or OMB_REF_NOT_FILE.
   */
  allowFileRefs?: boolean;
  /** More folders file `$ref`s may read from (relative ones from the current directory). */
  refRoots?: string[];
  /**
   * Bytes read from any one document: the spec, or a file or URL a `$ref` names (default
   * DEFAULT_MAX_FILE_BYTES, read-limits.ts); a larger one is OMB_SPEC_TOO_LARGE. All of them
   * together may read `maxTotalSpecBytes` (default twice this, at least DEFAULT_MAX_TOTAL_BYTES).
   */
  maxSpecBytes?: number;
  maxTotalSpecBytes?: number;
  /** Default true: structural validation against the OpenAPI JSON Schema. */
  validate?: boolean;
  /**
   * Default false: the spec is read leniently. Numbers and booleans written as strings where
   * the keyword leaves no doubt are read as meant (repair-slips.ts), and a `$ref` no operation
   * reaches that would be refused or points to nothing is left out (unreached-refs.ts), each
   * with a warning. True refuses such a spec, as every problem is refused.
   */
  strict?: boolean;
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
  document: OpenApiDocument;
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

const DEFAULT_TIMEOUT_MS = 30_000;
/** Spec text longer than this is validated in a worker when validation may be deferred. */
const WORKER_MIN_CHARS = 1_000_000;

/**
 * `read`: the spec file's bytes when the caller read them already (the model cache hashes them
 * before a load): the file is read once, and what is loaded is what was hashed.
 */
export async function loadSpec(
  source: string,
  options: LoadOptions = {},
  read?: FileBytes,
): Promise<LoadedSpec> {
  const budget = createReadBudget(options.maxSpecBytes, options.maxTotalSpecBytes);
  const input = await readSource(
    source,
    options.stdin,
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    budget,
    read,
  );
  const worker = startWorkerFor(input.text, options);
  try {
    return await loadText(input, options, worker, budget);
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
  budget: ReadBudget,
): Promise<LoadedSpec> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const parsed = parseSpec(input.text, input.display, input.readAsWritten, true);
  const lenient = options.strict !== true;
  // The depth limit (for JSON: parseSpec left it to this walk), the `$ref` strings and the slips
  // to repair, in one walk of the parsed tree. The slips are found for the version the document
  // says; when it says none that loads, detectVersion refuses it below and they are never made.
  const scan = scanDocument(parsed.value, {
    limit: MAX_DOCUMENT_DEPTH,
    ...(lenient ? { slipsOf: peekVersion(parsed.value) } : {}),
  });
  if (scan.tooDeep) checkDepth(parsed.value, input.display);
  const specVersion = detectVersion(parsed.value, input.display);
  let doc = parsed.value as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [];

  if (input.remote && specVersion !== "2.0") resolveRelativeServers(doc, input.location);

  const refs: RefContext = {
    allowNetwork: options.allowNetworkRefs === true,
    allowFile: options.allowFileRefs !== false && !input.remote,
    refRoots: [],
    budget,
    timeoutMs,
    rootLocation: input.location,
    rootDisplay: input.display,
    root: doc,
    rootSites: [],
    loaded: new Map(),
    failures: [],
  };
  // (A scan that found the document too deep never gets here: checkDepth threw.)
  let refStrings = scan.tooDeep ? collectRefStrings(doc) : scan.refStrings;
  // Whether `doc` is no longer what the text says (the worker must be sent it, not the text;
  // the slips the scan found are found again in what it is now).
  let changed = false;
  // Whether bundling ran: the bundler may put one object in two places; a parse is a tree.
  let bundled = false;
  if ([...refStrings].some((ref) => !ref.startsWith("#"))) {
    const sites = collectRefs(doc);
    let external = sites.filter((r) => !r.ref.startsWith("#"));
    const resolveRoots = async () => {
      if (refs.allowFile) refs.refRoots = await resolveRefRoots(input.location, options.refRoots ?? []);
    };
    if (lenient) {
      await resolveRoots();
      const left = await leaveOutUnreachedExternalRefs(doc, external, refs);
      diagnostics.push(...left.diagnostics);
      external = left.kept;
      changed = left.diagnostics.length > 0;
    }
    if (external.length > 0) {
      // As written (local ones too, for a ref into the root that bundling finds broken).
      const kept = new Set(external);
      refs.rootSites = sites.filter((site) => site.ref.startsWith("#") || kept.has(site));
      refuseForbiddenRefs(external, refs);
      if (!lenient) await resolveRoots();
      nameExternalSchemas(doc, specVersion, external, input.location);
      // Inlining documents that are each within the depth limit can still go beyond it.
      doc = checkDepth(await bundleExternalRefs(doc, input, refs), input.display);
      changed = true;
      bundled = true;
    }
    refStrings = collectRefStrings(doc);
  }
  if (lenient) {
    const left = leaveOutBrokenUnreachedRefs(doc, refStrings, input.display);
    if (left.length > 0) {
      diagnostics.push(...left);
      refStrings = collectRefStrings(doc);
      changed = true;
    }
  }
  checkInternalRefs(doc, refStrings, input.display);
  if (lenient) {
    const slips = scan.tooDeep || changed ? undefined : scan.slips;
    const repaired =
      slips?.repair(input.display) ?? repairSlips(doc, specVersion, input.display, { tree: !bundled });
    diagnostics.push(...repaired);
    if (repaired.length > 0) changed = true;
  }

  let validation: Promise<Diagnostic[]> | undefined;
  if (worker) {
    validation = validateInBackground(
      worker,
      doc,
      specVersion,
      input.display,
      changed ? undefined : parsed.json,
    );
  } else if (options.validate !== false) {
    diagnostics.push(...throwProblems(validateDocument(doc, specVersion, input.display)));
  }

  let document: OpenApiDocument;
  try {
    if (specVersion === "2.0") {
      const converted = convertSwagger2(doc, input.display);
      diagnostics.push(...converted.diagnostics);
      document = converted.document;
      if (input.remote) resolveRelativeServers(document, input.location);
    } else {
      // detectVersion checked `openapi`; validation (unless turned off) the rest.
      document = doc as OpenApiDocument;
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
 * The external refs no operation reaches that would be refused or name a missing file, left
 * out of `doc` (never read), with a warning each; `kept`: the refs to bundle as before.
 */
async function leaveOutUnreachedExternalRefs(
  doc: Record<string, unknown>,
  external: RefSite[],
  refs: RefContext,
): Promise<{ kept: RefSite[]; diagnostics: Diagnostic[] }> {
  const unreached = listUnreachedSites(external, collectReachedPointers(doc));
  if (unreached.length === 0) return { kept: external, diagnostics: [] };
  const failing = await findUnresolvableRefs(unreached, refs);
  const left = new Set(failing.map((f) => f.site));
  return {
    kept: external.filter((site) => !left.has(site)),
    diagnostics: leaveRefsOut(doc, failing, refs.rootDisplay),
  };
}

/**
 * Local refs that point to nothing, left out of `doc` with a warning each when no operation
 * reaches any of them; when one is reached the spec is refused, naming them all.
 */
function leaveOutBrokenUnreachedRefs(doc: unknown, refStrings: Set<string>, file: string): Diagnostic[] {
  const broken = findBrokenInternalRefs(doc, refStrings);
  if (broken.size === 0) return [];
  const sites = collectRefs(doc).filter((site) => broken.has(site.ref));
  const unreached = listUnreachedSites(sites, collectReachedPointers(doc));
  if (unreached.length < sites.length) return [];
  const reason = "it points to nothing in this document";
  return leaveRefsOut(
    doc,
    unreached.map((site) => ({ site, reason })),
    file,
  );
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

/**
 * The version detectVersion will find, without its errors: a document it refuses is refused
 * before any slip is made, so the version slips are looked for under does not matter then.
 */
function peekVersion(value: unknown): SpecVersion {
  const record = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  if ("swagger" in record) return "2.0";
  const openapi = record["openapi"];
  return typeof openapi === "string" && /^3\.1\.\d+(-.+)?$/.test(openapi) ? "3.1" : "3.0";
}

// ---------------------------------------------------------------------------------------------
// Reading
