/**
 * Example values that are a template's blanks, not values: Postman's `{{BLOCK_ID}}` (specs
 * converted from a collection carry them as every example) and its type names `<string>`,
 * `<dateTime>`. Shown as an example ("Example: id=\"{{BLOCK_ID}}\"") they read
 * to a model as a value to send.
 */

/** A template's blank anywhere in the text (`{{id}}`), or the whole text a type's name (`<string>`). */
const PLACEHOLDER = /\{\{[^{}]*\}\}|^\s*<[A-Za-z][A-Za-z0-9 _-]*>\s*$/;

/** Whether an example is a template's blank rather than a value (a string only). */
export function isPlaceholderValue(value: unknown): boolean {
  return typeof value === "string" && PLACEHOLDER.test(value);
}
