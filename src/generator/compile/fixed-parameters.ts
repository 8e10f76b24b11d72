/**
 * Values the bridge settles itself rather than asking the model: a required parameter whose
 * schema allows one value (EC2's `Action=DescribeInstances`, `Version=2016-11-15`,
 * `X-Amz-Target`) is a constant the bridge sends; a required body property with a default or
 * one allowed value is sent when the call leaves it out (findFillValue); and Express-style `:name` path segments
 * (`/users/:id`, which some specs carry over from their server's routes) are path parameters
 * like `{name}`, not text sent literally.
 */
import type { JsonSchema, JsonValue } from "../../model/types.js";

/**
 * The one value a required parameter's schema allows (`enum` of one, or `const`), else
 * undefined. An optional one stays an argument: leaving it out means something.
 */
export function findConstantValue(schema: JsonSchema, required: boolean): JsonValue | undefined {
  if (!required) return undefined;
  if (Object.hasOwn(schema, "const") && isPrimitive(schema.const)) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length === 1 && isPrimitive(schema.enum[0]))
    return schema.enum[0];
  return undefined;
}

/**
 * The value the bridge sends for a required body property the call leaves out: the one value
 * its schema allows, else its `default` (Graph marks `@odata.type` required on 1,419 of 2,599
 * schemas and gives each a default the API does not need spelled out). Undefined: the model
 * must give it.
 */
export function findFillValue(schema: JsonSchema): JsonValue | undefined {
  const constant = findConstantValue(schema, true);
  if (constant !== undefined) return constant;
  return Object.hasOwn(schema, "default") ? schema.default : undefined;
}

function isPrimitive(value: JsonValue | undefined): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** A whole path segment `:name` (an Express route parameter). */
const EXPRESS_SEGMENT = /^:([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * `/v1/integrations/webhooks/:id` → `/v1/integrations/webhooks/{id}`. Only whole segments are
 * read so: a colon inside one (`/v1/{name}:cancel`, Google's custom methods) is literal.
 */
export function toTemplatePath(path: string): string {
  if (!path.includes(":")) return path;
  return path
    .split("/")
    .map((segment) => {
      const match = EXPRESS_SEGMENT.exec(segment);
      return match ? `{${match[1]}}` : segment;
    })
    .join("/");
}
