/**
 * An independent judge of two versions of a spec, written apart from src/runtime/lifecycle and
 * reading the raw documents (Swagger 2.0 or OpenAPI 3.x, local refs followed): which operations
 * the specs themselves show broken, and which changed in prose only. The lifecycle test and
 * benchmark hold the diff to it: every broken operation must get a breaking change, and no
 * prose-only operation may get one.
 *
 * Broken, as the issue defines it: the operation is gone (no operation with its operationId,
 * or none at its method and path), a parameter is gone, a new parameter is required, a
 * parameter became required, or an enum value of a parameter is gone. Request-body fields
 * count as parameters (the bridge makes them arguments): top-level fields of a JSON or form body.
 */

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Header parameters OpenAPI says are ignored (the bridge sets them itself). */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
/** Keys that hold text only. */
const PROSE = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
  "x-example",
]);

function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolvePointer(doc, ref) {
  let node = doc;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = node[token];
  }
  return node;
}

/** Follows `$ref`s until a node that is not one. */
function deref(doc, node) {
  for (
    let i = 0;
    i < 32 && isRecord(node) && typeof node.$ref === "string" && node.$ref.startsWith("#/");
    i++
  ) {
    node = resolvePointer(doc, node.$ref);
  }
  return node;
}

/** Each operation: method, path, operationId (or undefined), and the operation with its path item. */
export function listOperations(doc) {
  const operations = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      operations.push({
        method,
        path,
        operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
        operation,
        item,
      });
    }
  }
  return operations;
}

function keyOf(op) {
  return `${op.method.toUpperCase()} ${op.path}`;
}

/** Parameters by `in:name` (path-level ones overridden by the operation's), body fields included. */
function parametersOf(doc, op) {
  const params = new Map();
  for (const list of [op.item.parameters, op.operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const p = deref(doc, raw);
      if (!isRecord(p) || typeof p.name !== "string" || typeof p.in !== "string") continue;
      if (p.in === "header" && IGNORED_HEADERS.has(p.name.toLowerCase())) continue;
      if (p.in === "body") {
        for (const [name, field] of bodyFields(doc, p.schema, p.required === true))
          params.set(`body:${name}`, field);
        continue;
      }
      const schema = deref(doc, p.schema) ?? p;
      params.set(`${p.in}:${p.name}`, {
        required: p.required === true || p.in === "path",
        enum: enumOf(doc, schema),
      });
    }
  }
  const body = deref(doc, op.operation.requestBody);
  if (isRecord(body) && isRecord(body.content)) {
    const [, media] =
      Object.entries(body.content).find(([type]) => /json|x-www-form-urlencoded|multipart/i.test(type)) ?? [];
    if (isRecord(media)) {
      for (const [name, field] of bodyFields(doc, media.schema, body.required === true))
        params.set(`body:${name}`, field);
    }
  }
  return params;
}

/** Top-level fields of a body schema (required only when the body is). */
function bodyFields(doc, rawSchema, bodyRequired) {
  const schema = deref(doc, rawSchema);
  const fields = new Map();
  if (!isRecord(schema) || !isRecord(schema.properties)) return fields;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, raw] of Object.entries(schema.properties)) {
    fields.set(name, { required: bodyRequired && required.has(name), enum: enumOf(doc, deref(doc, raw)) });
  }
  return fields;
}

/** Enum values of a parameter or field (of its items for an array), as JSON texts. */
function enumOf(doc, schema) {
  if (!isRecord(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum.filter((v) => v !== null).map((v) => JSON.stringify(v));
  const items = deref(doc, schema.items);
  if (isRecord(items) && Array.isArray(items.enum))
    return items.enum.filter((v) => v !== null).map((v) => JSON.stringify(v));
  return undefined;
}

/** The operation with every local ref inlined (a ref back into itself left as a marker), prose kept or not. */
function inline(doc, node, keepProse, stack = new Set(), depth = 0) {
  if (Array.isArray(node)) return node.map((v) => inline(doc, v, keepProse, stack, depth + 1));
  if (!isRecord(node)) return node;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) {
    if (stack.has(node.$ref) || depth > 40) return { $cycle: node.$ref.split("/").pop() };
    stack.add(node.$ref);
    const out = inline(doc, resolvePointer(doc, node.$ref), keepProse, stack, depth + 1);
    stack.delete(node.$ref);
    return out;
  }
  const out = {};
  for (const key of Object.keys(node).sort()) {
    if (!keepProse && (PROSE.has(key) || (key.startsWith("x-") && key !== "x-mcp"))) continue;
    out[key] = inline(doc, node[key], keepProse, stack, depth + 1);
  }
  return out;
}

/** Operation text with refs inlined; `tags` are left out (they are not part of a tool). */
function operationText(doc, op, keepProse) {
  const { tags: _tags, ...operation } = op.operation;
  const { get, put, post, delete: del, options, head, patch, trace, ...item } = op.item;
  const security = op.operation.security ?? doc.security ?? [];
  return JSON.stringify(inline(doc, { operation, item, security }, keepProse));
}

/**
 * What the two versions of a spec show: `broken` operations (with why), `proseOnly` ones,
 * and how many operations each has.
 */
export function judgeSpecPair(oldDoc, newDoc) {
  const oldOps = listOperations(oldDoc);
  const newOps = listOperations(newDoc);
  const newById = new Map(newOps.filter((op) => op.operationId).map((op) => [op.operationId, op]));
  const newByKey = new Map(newOps.map((op) => [keyOf(op), op]));
  const broken = [];
  const proseOnly = [];
  for (const op of oldOps) {
    const next = (op.operationId && newById.get(op.operationId)) || newByKey.get(keyOf(op));
    const at = { operationId: op.operationId ?? null, method: op.method.toUpperCase(), path: op.path };
    if (next === undefined) {
      broken.push({ ...at, kind: "operation removed", detail: keyOf(op) });
      continue;
    }
    if (op.operationId && next.operationId !== op.operationId) {
      broken.push({
        ...at,
        kind: "operation removed",
        detail: `operationId ${op.operationId} → ${next.operationId}`,
      });
      continue;
    }
    const before = parametersOf(oldDoc, op);
    const after = parametersOf(newDoc, next);
    const reasons = [];
    for (const [name, p] of before) {
      const q = after.get(name);
      if (q === undefined) reasons.push(["parameter removed", name]);
      else {
        if (q.required && !p.required) reasons.push(["parameter made required", name]);
        const gone = (p.enum ?? []).filter((v) => q.enum !== undefined && !q.enum.includes(v));
        if (gone.length > 0) reasons.push(["enum value removed", `${name}: ${gone.join(", ")}`]);
      }
    }
    for (const [name, q] of after)
      if (!before.has(name) && q.required) reasons.push(["new required parameter", name]);
    for (const [kind, detail] of reasons) broken.push({ ...at, kind, detail });
    if (reasons.length === 0) {
      const withProse = operationText(oldDoc, op, true) !== operationText(newDoc, next, true);
      if (withProse && operationText(oldDoc, op, false) === operationText(newDoc, next, false))
        proseOnly.push(at);
    }
  }
  return { broken, proseOnly, operations: { old: oldOps.length, new: newOps.length } };
}

/**
 * Holds a diff (its JSON `changes`) to the judge: the broken operations without a breaking
 * change on their tool, and the prose-only operations with one.
 */
export function checkDiffAgainstJudge(judgement, changes) {
  const breakingFor = (op) =>
    changes.filter(
      (c) =>
        c.severity === "breaking" &&
        ((op.operationId !== null && c.operationId === op.operationId) ||
          (c.method === op.method && c.path === op.path)),
    );
  const missed = judgement.broken.filter((op) => breakingFor(op).length === 0);
  const falseAlarms = judgement.proseOnly
    .map((op) => ({ ...op, changes: breakingFor(op) }))
    .filter((op) => op.changes.length > 0);
  return { missed, falseAlarms };
}
