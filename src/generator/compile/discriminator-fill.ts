/**
 * The value of a discriminator property a request body must carry, read from the spec: a body
 * that is `$ref: X`, where X inherits (allOf) a schema with `discriminator: {propertyName: P}`,
 * names its type as P = the mapping's key for X, or X's own name (OpenAPI's implicit mapping).
 * Bitbucket's `pullrequest` inherits `object` (`type` required, a discriminator without a
 * mapping): every create asked the model for `type`, which it could only guess; the bridge
 * fills it as it fills a required property with one allowed value.
 */
import { unescapePointerToken } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type { SchemaConverter } from "./json-schema.js";

/** How deep the allOf chain is followed to its base. */
const MAX_DEPTH = 6;

/** `#/components/schemas/X` or Swagger 2.0's `#/definitions/X` → X. */
function readComponentName(ref: unknown): string | undefined {
  if (typeof ref !== "string") return undefined;
  const match = /^#\/(?:components\/schemas|definitions)\/([^/]+)$/.exec(ref);
  return match ? unescapePointerToken(match[1]!) : undefined;
}

/** The discriminator property a schema declares (3.x object, 2.0 string), if any. */
function readDiscriminator(
  schema: Record<string, unknown>,
): { property: string; mapping: Record<string, unknown> } | undefined {
  const discriminator = schema.discriminator;
  if (typeof discriminator === "string" && discriminator !== "")
    return { property: discriminator, mapping: {} };
  if (isRecord(discriminator) && typeof discriminator.propertyName === "string") {
    return {
      property: discriminator.propertyName,
      mapping: isRecord(discriminator.mapping) ? discriminator.mapping : {},
    };
  }
  return undefined;
}

/** A base schema's discriminator, found through `schema`'s allOf references. */
function findInheritedDiscriminator(
  converter: SchemaConverter,
  schema: unknown,
  depth: number,
): { property: string; mapping: Record<string, unknown> } | undefined {
  const node = converter.dereference(schema);
  if (!isRecord(node) || depth > MAX_DEPTH || !Array.isArray(node.allOf)) return undefined;
  for (const member of node.allOf) {
    if (!isRecord(member) || typeof member.$ref !== "string") continue;
    const base = converter.dereference(member);
    if (!isRecord(base)) continue;
    const found = readDiscriminator(base) ?? findInheritedDiscriminator(converter, member, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The discriminator property and value of a request body schema (`$ref` to a component that
 * inherits a discriminator), or undefined: a body that is the base itself, or not a reference,
 * names no one type.
 */
export function findDiscriminatorFill(
  converter: SchemaConverter,
  rawSchema: unknown,
): { property: string; value: string } | undefined {
  if (!isRecord(rawSchema)) return undefined;
  const name = readComponentName(rawSchema.$ref);
  if (name === undefined) return undefined;
  const found = findInheritedDiscriminator(converter, rawSchema, 0);
  if (found === undefined) return undefined;
  const { keys, targets, names } = indexMapping(found.mapping);
  // The first entry that names the body's schema: by its reference, its bare name, or a
  // reference to that name.
  const first = Math.min(
    targets.get(rawSchema.$ref as string) ?? Number.POSITIVE_INFINITY,
    targets.get(name) ?? Number.POSITIVE_INFINITY,
    names.get(name) ?? Number.POSITIVE_INFINITY,
  );
  return { property: found.property, value: Number.isFinite(first) ? keys[first]! : name };
}

interface MappingIndex {
  keys: string[];
  /** Each target as written → the first entry's position. */
  targets: Map<string, number>;
  /** The component each target references → the first entry's position. */
  names: Map<string, number>;
}

/**
 * Each mapping read once: Microsoft Graph's `entity` maps some 3,000 types, and every create
 * body inherits it (scanning the mapping per body cost Graph beta's plan about 2 s).
 */
const mappingIndexes = new WeakMap<Record<string, unknown>, MappingIndex>();

function indexMapping(mapping: Record<string, unknown>): MappingIndex {
  let index = mappingIndexes.get(mapping);
  if (index === undefined) {
    index = { keys: [], targets: new Map(), names: new Map() };
    for (const [key, target] of Object.entries(mapping)) {
      const at = index.keys.push(key) - 1;
      if (typeof target !== "string") continue;
      if (!index.targets.has(target)) index.targets.set(target, at);
      const component = readComponentName(target);
      if (component !== undefined && !index.names.has(component)) index.names.set(component, at);
    }
    mappingIndexes.set(mapping, index);
  }
  return index;
}
