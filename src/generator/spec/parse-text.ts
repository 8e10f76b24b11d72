/**
 * Spec text → a JSON value: JSON or YAML chosen by content, YAML with alias limits and no
 * recursion, errors with the line and column; then which OpenAPI version the document is.
 */

import { createRequire } from "node:module";
import { BridgeError, createDiagnostic } from "../../model/diagnostics.js";
import { isDeeperThan, MAX_DOCUMENT_DEPTH } from "../../model/json-depth.js";
import type { SpecVersion } from "../../model/types.js";
import { shortMessage } from "./spec-errors.js";

const requireHere = createRequire(import.meta.url);

/** The YAML parser is loaded on the first YAML document: JSON specs (most large ones) never need it. */
function loadYaml(): typeof import("yaml") {
  return requireHere("yaml") as typeof import("yaml");
}

/** YAML alias expansions allowed in one document: enough for real specs, not for billion laughs. */
const MAX_YAML_ALIASES = 100;

/**
 * Parses JSON or YAML, chosen by content: text starting with `{` or `[` is tried as JSON first.
 * YAML is limited to MAX_YAML_ALIASES alias expansions and must not be recursive.
 */
export function parseSpecText(text: string, file: string): unknown {
  return parseSpec(text, file).value;
}

/**
 * parseSpecText, also giving the text JSON.parse read the value from, when it was JSON. With
 * `depthLeftToCaller`, a value JSON.parse read is not checked against the depth limit (`json`
 * says which it was): the loader measures it in its own walk of the document (document-scan.ts).
 */
export function parseSpec(
  text: string,
  file: string,
  readAsWritten?: () => string,
  depthLeftToCaller = false,
): { value: unknown; json?: string } {
  const body = withoutBom(text);
  const trimmed = body.trimStart();
  if (trimmed === "") throw parseError(file, "the document is empty");
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (jsonError) {
      // An escaped text (json-bytes.ts) is read as JSON only: the text as written says what else
      // it may be (flow-style YAML) and where a JSON error is.
      if (readAsWritten !== undefined) return parseSpec(readAsWritten(), file);
      // Flow-style YAML also starts with `{`: accept it, but report the JSON error if both fail.
      try {
        return { value: checkDepth(parseYaml(body, file), file) };
      } catch (yamlError) {
        if (yamlError instanceof BridgeError && yamlError.code === "OMB_SPEC_TOO_DEEP") throw yamlError;
        throw jsonParseError(jsonError, body, file);
      }
    }
    return { value: depthLeftToCaller ? value : checkDepth(value, file), json: body };
  }
  return { value: checkDepth(parseYaml(body, file), file) };
}

/** The value, when it nests no deeper than MAX_DOCUMENT_DEPTH; else OMB_SPEC_TOO_DEEP at the first place that does. */
export function checkDepth<T>(value: T, file: string, limit = MAX_DOCUMENT_DEPTH): T {
  if (!isDeeperThan(value, limit)) return value;
  const tokens = pathBeyond(value, limit).map((key) => key.replaceAll("~", "~0").replaceAll("/", "~1"));
  // The whole path is thousands of tokens: name where the deep part starts and how it ends.
  const pointer = tokens
    .slice(0, SHOWN_TOKENS)
    .map((t) => `/${t}`)
    .join("");
  const tail = tokens.slice(-4).join("/");
  throw new BridgeError([
    createDiagnostic(
      "OMB_SPEC_TOO_DEEP",
      `objects and arrays are nested more than ${limit} levels deep ${pointer === "" ? "from the top" : "below this place"} (the path goes on to .../${tail})`,
      {
        file,
        pointer,
        hint: "flatten the structure there (named components and $refs); no real API needs that depth",
      },
    ),
  ]);
}

/** Tokens of the pointer a too-deep diagnostic shows. */
const SHOWN_TOKENS = 12;

/** The keys leading to the first container found at depth `limit + 1` (only called when there is one). */
function pathBeyond(value: unknown, limit: number): string[] {
  interface Frame {
    node: unknown;
    depth: number;
    parent: Frame | undefined;
    key: string;
  }
  const stack: Frame[] = [{ node: value, depth: 1, parent: undefined, key: "" }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > limit) {
      const keys: string[] = [];
      for (let f: Frame | undefined = frame; f?.parent; f = f.parent) keys.push(f.key);
      return keys.reverse();
    }
    const node = frame.node as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (child !== null && typeof child === "object") {
        stack.push({ node: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return [];
}

export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parseYaml(text: string, file: string): unknown {
  const { parseDocument } = loadYaml();
  const doc = parseDocument(text, { merge: true, prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const message = first.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    // The YAML parser recurses into nested flow collections and reports its own stack overflow.
    if (/Maximum call stack size exceeded/.test(message)) {
      throw new BridgeError([
        createDiagnostic(
          "OMB_SPEC_TOO_DEEP",
          `${file}:${pos?.line ?? 1}:${pos?.col ?? 1}: YAML collections are nested deeper than the YAML parser can read`,
          {
            file,
            hint: "flatten the structure there (named components and $refs); no real API needs that depth",
          },
        ),
      ]);
    }
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

export function detectVersion(doc: unknown, file: string): SpecVersion {
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
