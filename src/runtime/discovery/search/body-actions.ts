/**
 * The actions an operation's request body chooses between: the values of its discriminating
 * field (a `type`, `action`, `kind`, `operation` or `command` that lists them). DigitalOcean's
 * `POST /v2/droplets/{droplet_id}/actions` is how a droplet is rebooted, powered off or resized,
 * and says so only in its body's `type` enum (`reboot`, `power_off`, `resize`, ...): its name,
 * path and description say "action". Search reads these values as words of the operation
 * (fields.ts), so "reboot a droplet" finds it.
 *
 * Read from the tool's input schema (the body's own argument, or its properties when they are
 * arguments), following local `$defs` references and `anyOf` / `oneOf` / `allOf` a few levels
 * down, and capped: a body is not read further than an action's field needs.
 */
import type { JsonValue, ToolNode } from "../../../model/types.js";

/** Names of a body's field that says which of several actions it asks for. */
const DISCRIMINATING = /^(type|action|kind|operation|command|event)$/i;

/** Most values read per operation (Stripe's payment method `type` lists some 40). */
export const MAX_BODY_ACTIONS = 24;

/** Levels of nesting followed into a body's schema (variants, references, properties). */
const MAX_DEPTH = 4;

type Schema = { [key: string]: JsonValue };

const asSchema = (value: JsonValue | undefined): Schema | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;

/** The values of the body's discriminating field, in the schema's order, at most MAX_BODY_ACTIONS. */
export function readBodyActions(tool: ToolNode): string[] {
  const body = tool.http.body;
  if (body === undefined) return [];
  const properties = asSchema(tool.inputSchema.properties);
  if (properties === undefined) return [];
  const defs = asSchema(tool.inputSchema.$defs);
  const found = new Set<string>();
  const seen = new Set<Schema>();
  const resolve = (value: JsonValue | undefined): Schema | undefined => {
    const schema = asSchema(value);
    const ref = schema?.$ref;
    if (typeof ref !== "string") return schema;
    const name = ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined;
    return name === undefined || defs === undefined || !Object.hasOwn(defs, name)
      ? undefined
      : asSchema(defs[name]);
  };
  const collect = (value: JsonValue | undefined) => {
    const values = resolve(value)?.enum;
    if (!Array.isArray(values)) return;
    for (const item of values) {
      if (found.size >= MAX_BODY_ACTIONS) return;
      if (typeof item === "string" && item !== "") found.add(item);
    }
  };
  const visit = (value: JsonValue | undefined, depth: number) => {
    const schema = resolve(value);
    if (schema === undefined || seen.has(schema) || depth > MAX_DEPTH || found.size >= MAX_BODY_ACTIONS)
      return;
    seen.add(schema);
    const fields = asSchema(schema.properties);
    if (fields !== undefined) {
      for (const [name, field] of Object.entries(fields)) if (DISCRIMINATING.test(name)) collect(field);
    }
    for (const keyword of ["anyOf", "oneOf", "allOf"]) {
      const variants = schema[keyword];
      if (Array.isArray(variants)) for (const variant of variants) visit(variant, depth + 1);
    }
  };
  // The whole body as one argument: its schema; a body of arguments: its discriminating one.
  if (body.argument !== undefined && Object.hasOwn(properties, body.argument))
    visit(properties[body.argument], 0);
  for (const property of body.properties ?? []) {
    if (DISCRIMINATING.test(property.name) && Object.hasOwn(properties, property.argument))
      collect(properties[property.argument]);
  }
  return [...found];
}
