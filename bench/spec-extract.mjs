/**
 * A real spec cut down to some of its operations: the selected operations (with their path
 * item's parameters), everything they reference (followed transitively), and the document's
 * header (version, info, servers, security). Nothing is rewritten: every kept node is the
 * spec's own, at its own JSON pointer, so the extract plans exactly as those operations do in
 * the whole spec. Used to keep the lifecycle test's real spec pairs small.
 */

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Top-level fields kept as they are. */
const HEADER = [
  "openapi",
  "swagger",
  "info",
  "servers",
  "host",
  "basePath",
  "schemes",
  "consumes",
  "produces",
  "security",
  "securityDefinitions",
];

function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function splitRef(ref) {
  return ref
    .slice(2)
    .split("/")
    .map((t) => decodeURIComponent(t).replaceAll("~1", "/").replaceAll("~0", "~"));
}

function getAt(doc, tokens) {
  let node = doc;
  for (const token of tokens) {
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = node[token];
  }
  return node;
}

function setAt(doc, tokens, value) {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (!isRecord(node[token])) node[token] = {};
    node = node[token];
  }
  node[tokens.at(-1)] = value;
}

/** Whether an operation matches a selector: its operationId, or `METHOD /path`. */
function matches(selector, method, path, operation) {
  return selector === operation.operationId || selector === `${method.toUpperCase()} ${path}`;
}

/** The spec with only the operations `selectors` name (and what they reference). */
export function extractOperations(doc, selectors) {
  const wanted = new Set(selectors);
  const out = {};
  for (const key of HEADER) if (doc[key] !== undefined) out[key] = doc[key];
  out.paths = {};
  const pending = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!isRecord(item)) continue;
    const kept = {};
    for (const method of METHODS) {
      const operation = item[method];
      if (isRecord(operation) && [...wanted].some((s) => matches(s, method, path, operation)))
        kept[method] = operation;
    }
    if (Object.keys(kept).length === 0) continue;
    for (const [key, value] of Object.entries(item)) if (!METHODS.includes(key)) kept[key] = value;
    out.paths[path] = kept;
    pending.push(kept);
  }
  // Security schemes are referenced by name, not by $ref: keep them all (they are small).
  if (isRecord(doc.components?.securitySchemes))
    setAt(out, ["components", "securitySchemes"], doc.components.securitySchemes);
  const copied = new Set();
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    if (!isRecord(node)) continue;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/") && !copied.has(node.$ref)) {
      copied.add(node.$ref);
      const tokens = splitRef(node.$ref);
      const target = getAt(doc, tokens);
      if (target !== undefined) {
        setAt(out, tokens, target);
        pending.push(target);
      }
    }
    for (const value of Object.values(node))
      if (typeof value === "object" && value !== null) pending.push(value);
  }
  return out;
}
