/**
 * The field names of a successful call's JSON (ToolNode.resultFields), which describe_operations
 * shows so that an agent can pick fields (`fields`) on its first call instead of reading a whole
 * answer to learn them. Names only, no types: a type tells an agent little that it needs to
 * pick a field, and names are what `fields` takes.
 *
 * Breadth first: every field of the answer is named before any field of a field, so a cap on
 * names leaves out the deepest ones (a pull request's 70 fields before its `head.repo.owner`).
 * Links to other endpoints (GitHub's 40 `*_url` fields of a repository) are kept apart, since
 * the answer summarises them as a count. The names of one schema are planned once per model and
 * shared by every operation that answers with it (Graph beta: 14,222 answers with fields, 3,793
 * of them distinct).
 */

import { isLinkField } from "../../model/field-roles.js";
import { isRecord } from "../../model/records.js";
import type { ResultFieldsNode } from "../../model/types.js";
import type { OperationContext } from "./context.js";
import type { SchemaConverter } from "./json-schema.js";
import { findResultSchema, findXmlResultSchema } from "./output-schema.js";
import { mergeAllOf, readXmlName } from "./xml-lists.js";

/**
 * Names (links aside) planned per answer: more than a describe answer shows (RETURNS_CHARS, 600
 * characters: at most 58 names on GitHub's and DigitalOcean's answers), so that it chooses what
 * fits, and few enough that planning stays cheap (bench/results/describe-returns.md).
 */
export const RESULT_FIELD_NAMES = 80;
/** Levels of fields named: DigitalOcean's `droplet.networks.v4[].ip_address` is four. */
export const RESULT_FIELD_DEPTH = 4;
/** Link names kept per object; the answer counts them anyway. */
const MAX_LINKS = 60;
/** allOf, oneOf and anyOf parts followed into (Graph's entities inherit through chains of four). */
const MAX_PARTS_DEPTH = 8;

/** Whether a schema is a list, and the properties of it (or of its elements). */
interface Shape {
  list: boolean;
  /** Properties that are no links, in order. */
  fields: [name: string, schema: unknown][];
  /** Links' names, at most MAX_LINKS (shared by the nodes that name them). */
  links: string[];
  linkCount: number;
  /** The shape of each field, read the first time the fields are named. */
  children?: Shape[];
  /**
   * The names of its fields when none has fields of its own (GitHub's user, label): planned
   * once and shared by every answer that names them all.
   */
  scalarFields?: Record<string, ResultFieldsNode> | null;
}

/**
 * How fields are named, with what was planned under that naming: a JSON answer's fields by their
 * property names; an XML answer's (read into JSON by runtime/results/xml-json.ts) by their
 * element names, `xml.name` where the schema gives one, an attribute as `@name`. One schema may
 * answer in both (petstore's Pet), so each naming keeps its own memos.
 */
interface Naming {
  nameOf(name: string, schema: unknown): string;
  /** The planned names by the answer's schema object, for the document that holds it. */
  planned: WeakMap<object, ResultFieldsNode | null>;
  /** Shapes by schema object: a schema (GitHub's simple-user) is a field of hundreds of answers. */
  shapes: WeakMap<object, Shape>;
}

function createNaming(nameOf: Naming["nameOf"]): Naming {
  return { nameOf, planned: new WeakMap(), shapes: new WeakMap() };
}

const JSON_NAMING = createNaming((name) => name);

/** Memos of the XML naming, per converter (its dereference resolves the document's refs). */
const xmlNamings = new WeakMap<SchemaConverter, Naming>();

function readXmlNaming(converter: SchemaConverter): Naming {
  let naming = xmlNamings.get(converter);
  if (naming === undefined) {
    naming = createNaming((name, schema) => nameXmlField(converter, name, schema));
    xmlNamings.set(converter, naming);
  }
  return naming;
}

/**
 * A property's key in the JSON an XML answer is read into: its element name (`xml.name`), `@`
 * before an attribute's, and for a list left unwrapped the name its items repeat under.
 */
function nameXmlField(converter: SchemaConverter, name: string, schema: unknown): string {
  // AWS specs name a property's element in an allOf part beside the $ref of its type.
  const view = mergeAllOf(converter, schema);
  const own = readXmlName(view) ?? name;
  const xml = isRecord(view.xml) ? view.xml : undefined;
  if (xml?.attribute === true) return `@${own}`;
  // Only a list marked unwrapped repeats its items' element (xml-lists.ts reads it the same way).
  if ((view.type === "array" || view.items !== undefined) && xml?.wrapped === false)
    return readXmlName(mergeAllOf(converter, view.items)) ?? own;
  return own;
}

const SCALAR_SHAPE: Shape = { list: false, fields: [], links: [], linkCount: 0 };
/** A field without fields of its own, one object for all (never changed once planned). */
const SCALAR: ResultFieldsNode = {};
const SCALAR_LIST: ResultFieldsNode = { list: true };

/**
 * The field names of a successful call's JSON (or of its XML, read as JSON, when it answers only
 * XML), or undefined when it names no field.
 */
export function planResultFields(context: OperationContext): ResultFieldsNode | undefined {
  const json = findResultSchema(context);
  const schema = json ?? findXmlResultSchema(context);
  if (schema === undefined) return undefined;
  const { converter } = context;
  const root = converter.dereference(schema);
  if (!isRecord(root)) return undefined;
  const naming = json !== undefined ? JSON_NAMING : readXmlNaming(converter);
  let planned = naming.planned.get(root);
  if (planned === undefined) {
    planned = nameFields(converter, root, naming);
    naming.planned.set(root, planned);
  }
  return planned ?? undefined;
}

/** The names of `root`'s fields, breadth first, or null when it has none. */
function nameFields(
  converter: SchemaConverter,
  root: Record<string, unknown>,
  naming: Naming,
): ResultFieldsNode | null {
  const out: ResultFieldsNode = {};
  const queue: { shape: Shape; node: ResultFieldsNode; depth: number }[] = [
    { shape: readShape(converter, root, naming), node: out, depth: 1 },
  ];
  let namedSoFar = 0;
  for (let at = 0; at < queue.length; at++) {
    const { shape, node, depth } = queue[at]!;
    if (shape.list) node.list = true;
    const count = shape.fields.length + shape.linkCount;
    if (count === 0) continue;
    // Past the last level a field's fields are only counted.
    if (depth > RESULT_FIELD_DEPTH) {
      node.more = count;
      continue;
    }
    const named = Math.min(shape.fields.length, RESULT_FIELD_NAMES - namedSoFar);
    if (named > 0) {
      const { children, scalarFields } = readChildren(converter, shape, naming);
      namedSoFar += named;
      if (named === shape.fields.length && scalarFields !== null) node.fields = scalarFields;
      else {
        const fields: [string, ResultFieldsNode][] = [];
        for (let i = 0; i < named; i++) {
          const name = shape.fields[i]![0];
          const child = children[i]!;
          if (!isScalar(child)) {
            const childNode: ResultFieldsNode = {};
            fields.push([name, childNode]);
            queue.push({ shape: child, node: childNode, depth: depth + 1 });
          } else fields.push([name, child.list ? SCALAR_LIST : SCALAR]);
        }
        // fromEntries: a field named `__proto__` stays a field.
        node.fields = Object.fromEntries(fields);
      }
    }
    if (shape.links.length > 0) node.links = shape.links;
    const more = count - named - shape.links.length;
    if (more > 0) node.more = more;
  }
  return out.fields !== undefined || out.links !== undefined ? out : null;
}

/** The shapes of a shape's fields, and their names when none has fields, read once. */
function readChildren(
  converter: SchemaConverter,
  shape: Shape,
  naming: Naming,
): { children: Shape[]; scalarFields: Record<string, ResultFieldsNode> | null } {
  if (shape.children === undefined || shape.scalarFields === undefined) {
    const children = shape.fields.map(([, raw]) => {
      const target = converter.dereference(raw);
      return isRecord(target) ? readShape(converter, target, naming) : SCALAR_SHAPE;
    });
    shape.children = children;
    shape.scalarFields = children.every(isScalar)
      ? Object.fromEntries(shape.fields.map(([name], i) => [name, children[i]!.list ? SCALAR_LIST : SCALAR]))
      : null;
  }
  return { children: shape.children, scalarFields: shape.scalarFields };
}

/** A value without fields: a scalar or a list of them. */
function isScalar(shape: Shape): boolean {
  return shape.fields.length + shape.linkCount === 0;
}

/**
 * What a schema holds: whether it is a list (of lists: the innermost element counts) and the
 * properties of its element, its own and its parts' (allOf, oneOf, anyOf), in order, each name
 * once.
 */
function readShape(converter: SchemaConverter, schema: Record<string, unknown>, naming: Naming): Shape {
  let shape = naming.shapes.get(schema);
  if (shape === undefined) {
    shape = collectShape(converter, schema, naming);
    naming.shapes.set(schema, shape);
  }
  return shape;
}

function collectShape(converter: SchemaConverter, schema: Record<string, unknown>, naming: Naming): Shape {
  let element = schema;
  let list = false;
  for (let hops = 0; hops < 4; hops++) {
    // A list's items may sit in an allOf part beside a $ref (AWS: the type, then its xml name).
    const view = mergeAllOf(converter, element);
    const items = isRecord(view.items) ? converter.dereference(view.items) : undefined;
    if (!isRecord(items)) break;
    list = true;
    element = items;
  }
  const properties = new Map<string, unknown>();
  collectProperties(converter, element, properties, 0);
  const shape: Shape = { list, fields: [], links: [], linkCount: 0 };
  for (const [property, value] of properties) {
    const name = naming.nameOf(property, value);
    if (!isLinkField(name)) shape.fields.push([name, value]);
    else if (shape.linkCount++ < MAX_LINKS) shape.links.push(name);
  }
  return shape;
}

function collectProperties(
  converter: SchemaConverter,
  schema: Record<string, unknown>,
  into: Map<string, unknown>,
  depth: number,
): void {
  if (isRecord(schema.properties)) {
    for (const [name, value] of Object.entries(schema.properties)) if (!into.has(name)) into.set(name, value);
  }
  if (depth >= MAX_PARTS_DEPTH) return;
  // An answer of oneOf kinds (GitHub's private or public user) may hold the fields of any.
  for (const keyword of ["allOf", "oneOf", "anyOf"]) {
    const parts = schema[keyword];
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      const resolved = converter.dereference(part);
      if (isRecord(resolved)) collectProperties(converter, resolved, into, depth + 1);
    }
  }
}
