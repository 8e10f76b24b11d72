/**
 * The documents the loader reads and hands on, typed for what they are: parsed JSON objects.
 * Validation (unless turned off) checked them against their version's schema, but a spec loaded
 * with `validate: false` may hold anything, so every reader checks each value it uses (isRecord,
 * typeof) and these types name only the top-level fields. (openapi-types' interfaces describe
 * every object of the spec as valid, and every consumer cast them away to a plain record.)
 */

/** A Swagger 2.0 document, as parsed. */
export type Swagger2Document = Record<string, unknown>;

/**
 * An OpenAPI 3.x document as loadSpec returns it: bundled (every `$ref` internal), Swagger 2.0
 * converted to 3.0, `openapi` a 3.0 or 3.1 version string. The named fields are what schema
 * validation guarantees (with `validate: false` only `openapi` is checked); any other key is
 * `unknown`, for the reader to check.
 */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers?: unknown[];
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}
