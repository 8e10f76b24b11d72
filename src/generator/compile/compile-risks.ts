/**
 * Whether an input schema could fail to compile, decided without compiling it: compiling every
 * tool's schema at build time (input-schema-check.ts) was a third of a cold start on GitHub
 * (1.1 s of 3.3 s, 1,223 tools) and most of one on Microsoft Graph (241 s of 388 s), while
 * nearly all schemas are plain data Ajv cannot refuse. A schema is compiled at build time only
 * when this walk finds what Ajv (with the runtime's options: strict off, no meta-schema check)
 * can refuse:
 * - a keyword value of a type Ajv's own keyword definition does not take (`"maximum": "50"`,
 *   draft-4 `"exclusiveMaximum": true`, an `items` array under 2020-12), an empty `enum`, a
 *   `type` that names no JSON type, `nullable` (Ajv wants `type` beside it);
 * - anything that names or defines another schema (`$id`, `$schema`, anchors, a `$ref` other
 *   than the planner's own `#/$defs/<name>` or one whose name the root's `$defs` lacks: whether
 *   it resolves is Ajv's to say), a subschema that is neither an object nor a boolean, or nesting
 *   deeper than the walk goes.
 * What it passes still compiles at the first call, as before; a miss is told then, as the
 * operation_unavailable answer (runtime/engine/call-pipeline.ts), never a crash.
 */
// A spec's pattern never fails a compile: the runtime's regex engine (regex/bounded-regexp.ts)
// takes any pattern and bounds how it runs.
import { Ajv2020 } from "ajv/dist/2020.js";
import { INPUT_AJV_OPTIONS } from "../../runtime/arguments/input-ajv-options.js";

/** Deeper than this the schema is compiled instead (Ajv's own recursion is what could fail). */
const MAX_DEPTH = 64;

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const REFERENCES = new Set([
  "$ref",
  "$id",
  "$schema",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
  "id",
]);
/** Keywords whose value is one schema, a list of them, or a map of them. */
const ONE_SCHEMA = [
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "additionalProperties",
  "items",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
];
const SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/**
 * What each keyword above holds, looked up for a node's own keys: a node has a handful of keys,
 * where asking it for each of the twenty keywords in turn was most of the walk's time.
 */
const SCHEMA_KEYWORDS = new Map<string, "one" | "list" | "map">([
  ...ONE_SCHEMA.map((keyword) => [keyword, "one"] as const),
  ...SCHEMA_LISTS.map((keyword) => [keyword, "list"] as const),
  ...SCHEMA_MAPS.map((keyword) => [keyword, "map"] as const),
]);

let keywordTypes: Map<string, readonly string[]> | undefined;

/** The JSON types Ajv takes for each keyword's value, from its own definitions (same options as a call). */
function readKeywordTypes(): Map<string, readonly string[]> {
  if (keywordTypes !== undefined) return keywordTypes;
  const ajv = new Ajv2020({ ...INPUT_AJV_OPTIONS });
  keywordTypes = new Map();
  for (const [keyword, rule] of Object.entries(ajv.RULES.all)) {
    if (typeof rule !== "object") continue;
    const types = rule.definition.schemaType;
    if (types !== undefined && types.length > 0) keywordTypes.set(keyword, types);
  }
  return keywordTypes;
}

/**
 * What the walk learned of one `$defs` entry: whether Ajv could refuse something in it, how deep
 * it nests, and the `$defs` names its local references need. Kept per entry object: the
 * converter shares each component among every tool that reaches it (Microsoft Graph: 11,422
 * tools over a few thousand components), so each is walked once, not once per tool. Only the
 * entries are kept: the nodes under them are reached through them alone, and the rest of an
 * input schema is the tool's own (remembering each of its nodes cost Graph beta's plan half a
 * second in WeakMap writes, for no later look-up).
 */
interface Facts {
  risky: boolean;
  height: number;
  needs: ReadonlySet<string>;
}

const NO_NAMES: ReadonlySet<string> = new Set();
const RISKY: Facts = { risky: true, height: 0, needs: NO_NAMES };
const LEAF: Facts = { risky: false, height: 0, needs: NO_NAMES };
const factsOf = new WeakMap<object, Facts>();
/** What walkTree answers for a subtree Ajv could refuse (else its height). */
const RISKY_HEIGHT = -1;

/**
 * A reference Ajv resolves without fail: `#/$defs/<name>` in the plain characters the planner
 * gives names (json-schema.ts, shared-schemas.ts), checked against the root's `$defs` below.
 */
const LOCAL_DEF = /^#\/\$defs\/([A-Za-z0-9_.-]+)$/;

/**
 * True when compiling `schema` could fail (see above); false when Ajv has nothing to refuse in it.
 * `verdicts`: what earlier calls found of each `$defs` object's entries, for a caller that walks
 * many schemas none of which changes meanwhile (input-schema-check.ts): the planner gives every
 * tool that reaches the same definitions one `$defs` object (json-schema.ts collectDefs).
 */
export function mayFailToCompile(schema: unknown, verdicts?: Map<object, boolean>): boolean {
  const types = readKeywordTypes();
  const defs = isMap(schema) ? schema["$defs"] : undefined;
  if (!isMap(schema) || !isMap(defs)) {
    const facts = readFacts(schema, 0, types);
    return facts.risky || facts.height > MAX_DEPTH || facts.needs.size > 0;
  }
  // The root's `$defs` entries are shared components whose facts are known from earlier tools:
  // each one's needs are looked up in this root's names as they are, where gathering every
  // entry's needs into the root's own set first cost about a second of Microsoft Graph beta's
  // plan (17,504 input schemas, hundreds of entries each). The verdict is the same.
  // The root is walked without its entries (as if its `$defs` were empty).
  const needs = new Set<string>();
  const height = walkTree(schema, 0, types, needs, true);
  if (height === RISKY_HEIGHT || height > MAX_DEPTH) return true;
  for (const name of needs) if (!Object.hasOwn(defs, name)) return true;
  const known = verdicts?.get(defs);
  if (known !== undefined) return known;
  const verdict = mayAnyEntryFail(defs, types);
  verdicts?.set(defs, verdict);
  return verdict;
}

/** Whether some entry of a root's `$defs` could fail, or needs a name the root's `$defs` lacks. */
function mayAnyEntryFail(defs: Record<string, unknown>, types: Map<string, readonly string[]>): boolean {
  for (const entry of Object.values(defs)) {
    const facts = readFacts(entry, 1, types);
    if (facts.risky || facts.height + 1 > MAX_DEPTH) return true;
    for (const name of facts.needs) if (!Object.hasOwn(defs, name)) return true;
  }
  return false;
}

/**
 * The facts of a root without `$defs` (at depth 0) or of one `$defs` entry (at depth 1), walked
 * once per object: an object is only ever the one or the other.
 */
function readFacts(node: unknown, depth: number, types: Map<string, readonly string[]>): Facts {
  if (typeof node === "boolean") return LEAF;
  if (!isMap(node)) return RISKY;
  const cached = factsOf.get(node);
  if (cached !== undefined) return cached;
  const needs = new Set<string>();
  const height = walkTree(node, depth, types, needs, false);
  const facts: Facts =
    height === RISKY_HEIGHT ? RISKY : { risky: false, height, needs: needs.size === 0 ? NO_NAMES : needs };
  factsOf.set(node, facts);
  return facts;
}

/**
 * The height of the subtree at `node` (0 for a leaf), or RISKY_HEIGHT when Ajv could refuse
 * something in it or it nests deeper than MAX_DEPTH; the `$defs` names its references need are
 * added to `needs`. One set for the whole subtree and no array per node: the walk reads every
 * node of every tool's own arguments (Graph beta: millions), so what it allocates is most of its
 * cost. `skipDefs`: the root's entries are walked on their own (readFacts).
 */
function walkTree(
  node: unknown,
  depth: number,
  types: Map<string, readonly string[]>,
  needs: Set<string>,
  skipDefs: boolean,
): number {
  if (typeof node === "boolean") return 0;
  if (!isMap(node) || depth > MAX_DEPTH) return RISKY_HEIGHT;
  if (!hasPlainKeywords(node, types, needs)) return RISKY_HEIGHT;
  // The children in the order of the node's keys: the height is their largest, and any risky
  // one makes the node risky, whichever is met first (the names `needs` gathers matter only
  // when none is).
  let height = 0;
  for (const keyword of Object.keys(node)) {
    const holds = SCHEMA_KEYWORDS.get(keyword);
    if (holds === undefined) continue;
    const value = node[keyword];
    if (holds === "one") {
      height = stackOn(height, walkTree(value, depth + 1, types, needs, false));
      if (height === RISKY_HEIGHT) return RISKY_HEIGHT;
    } else if (holds === "list") {
      if (!Array.isArray(value)) continue;
      for (const item of value) {
        height = stackOn(height, walkTree(item, depth + 1, types, needs, false));
        if (height === RISKY_HEIGHT) return RISKY_HEIGHT;
      }
    } else {
      if (value === undefined) continue;
      if (!isMap(value)) return RISKY_HEIGHT;
      if (skipDefs && keyword === "$defs") continue;
      for (const name of Object.keys(value)) {
        height = stackOn(height, walkTree(value[name], depth + 1, types, needs, false));
        if (height === RISKY_HEIGHT) return RISKY_HEIGHT;
      }
    }
  }
  return height;
}

/** A node's height so far with one more child of height `below` (RISKY_HEIGHT stays). */
function stackOn(height: number, below: number): number {
  return below === RISKY_HEIGHT ? RISKY_HEIGHT : Math.max(height, below + 1);
}

/**
 * The node's own keywords: no reference but a local one (its name added to `needs`), each value
 * of a type Ajv takes, no `nullable`, no empty `enum`, only JSON type names.
 */
function hasPlainKeywords(
  node: Record<string, unknown>,
  types: Map<string, readonly string[]>,
  needs: Set<string>,
): boolean {
  for (const keyword of Object.keys(node)) {
    const value = node[keyword];
    if (keyword === "$ref") {
      const name = typeof value === "string" ? LOCAL_DEF.exec(value)?.[1] : undefined;
      if (name === undefined) return false;
      needs.add(name);
      continue;
    }
    if (REFERENCES.has(keyword)) return false;
    const takes = types.get(keyword);
    if (takes !== undefined && !takes.includes(jsonTypeOf(value))) return false;
  }
  if (node["nullable"] !== undefined) return false;
  const enumValues = node["enum"];
  if (Array.isArray(enumValues) && enumValues.length === 0) return false;
  const type = node["type"];
  if (type === undefined) return true;
  if (!Array.isArray(type)) return JSON_TYPES.has(type as string);
  for (const name of type) if (!JSON_TYPES.has(name as string)) return false;
  return true;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON type of a value as Ajv's schemaType names it (integers are numbers). */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
