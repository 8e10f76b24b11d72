/**
 * The rules of the tool diff, as data: every change it reports has one of these codes, whose
 * severity is fixed here. Codes are stable (CI scripts and baselines match on them): add new
 * ones, never rename one.
 *
 * - breaking: a client that worked with the old tool can fail with the new one (a call it made
 *   is refused or means something else, a result field it read is gone, the call now needs
 *   auth or is destructive);
 * - compatible: every old call still works the same (new tools, new optional arguments, wider
 *   types and values, looser constraints, new result fields);
 * - docs: only text a reader sees changed (titles, descriptions, examples).
 */

export type ChangeSeverity = "breaking" | "compatible" | "docs";

export interface ChangeRule {
  readonly severity: ChangeSeverity;
  /** What the rule detects, one line (docs/lifecycle.md's table of rules). */
  readonly title: string;
}

export const CHANGE_RULES = {
  // Tools
  "tool-removed": { severity: "breaking", title: "A tool is gone" },
  "tool-renamed": {
    severity: "breaking",
    title: "A tool has a new name (same operationId, or same method and path)",
  },
  "tool-added": { severity: "compatible", title: "A new tool" },
  "tool-deprecated": { severity: "compatible", title: "The operation became deprecated" },
  "tool-undeprecated": { severity: "compatible", title: "The operation is no longer deprecated" },
  "contract-changed": {
    severity: "breaking",
    title: "The contract digest changed in a way no finer rule names (kept breaking to be safe)",
  },
  // Behaviour hints
  "read-only-lost": { severity: "breaking", title: "The tool is no longer read-only" },
  "became-destructive": { severity: "breaking", title: "The tool became destructive" },
  "idempotent-lost": { severity: "breaking", title: "The tool is no longer idempotent (retrying is unsafe)" },
  "read-only-gained": { severity: "compatible", title: "The tool became read-only" },
  "no-longer-destructive": { severity: "compatible", title: "The tool is no longer destructive" },
  "idempotent-gained": { severity: "compatible", title: "The tool became idempotent" },
  "open-world-changed": { severity: "compatible", title: "The open-world hint changed" },
  // Binding and auth
  "body-media-type-changed": { severity: "breaking", title: "The request body's media type changed" },
  "auth-added": {
    severity: "breaking",
    title: "The call needs auth it did not need (a scheme or scope added to every alternative)",
  },
  "auth-relaxed": {
    severity: "compatible",
    title: "The call needs less auth, or has more ways to satisfy it",
  },
  "operation-moved": {
    severity: "breaking",
    title: "The tool calls another method or path: the old operation is gone (the change names the old one)",
  },
  "binding-changed": {
    severity: "compatible",
    title:
      "An argument travels another way (location, wire name, style, body encoding); the bridge follows it",
  },
  "response-type-removed": {
    severity: "breaking",
    title: "Success answers no longer come in a media type they came in",
  },
  "response-type-added": {
    severity: "compatible",
    title: "Success answers may also come in another media type",
  },
  // Arguments (the input schema, at any depth)
  "argument-removed": { severity: "breaking", title: "An argument or a field of an argument is gone" },
  "required-argument-added": { severity: "breaking", title: "A new required argument or field" },
  "argument-made-required": { severity: "breaking", title: "An optional argument or field became required" },
  "optional-argument-added": { severity: "compatible", title: "A new optional argument or field" },
  "argument-made-optional": { severity: "compatible", title: "A required argument or field became optional" },
  "dependent-required-added": {
    severity: "breaking",
    title: "A field became required when another is given (dependentRequired)",
  },
  "type-changed": { severity: "breaking", title: "The type changed" },
  "type-narrowed": { severity: "breaking", title: "Fewer types are accepted (e.g. no longer null)" },
  "type-widened": { severity: "compatible", title: "More types are accepted" },
  "enum-value-removed": { severity: "breaking", title: "An allowed value is gone (enum or const)" },
  "enum-value-added": { severity: "compatible", title: "A new allowed value (enum)" },
  "enum-added": { severity: "breaking", title: "A free value is now limited to a list (enum or const)" },
  "format-tightened": { severity: "breaking", title: "A format was added or changed" },
  "format-noted": {
    severity: "compatible",
    title: "A numeric format that limits no JSON number (int64, float, double) was added, changed or removed",
  },
  "pattern-tightened": { severity: "breaking", title: "A pattern was added or changed" },
  "length-tightened": { severity: "breaking", title: "minLength raised or maxLength lowered (or added)" },
  "range-tightened": {
    severity: "breaking",
    title: "minimum raised or maximum lowered (or added, exclusive or multipleOf)",
  },
  "count-tightened": {
    severity: "breaking",
    title: "Item or property counts tightened (minItems, maxItems, uniqueItems, min/maxProperties)",
  },
  "additional-properties-restricted": {
    severity: "breaking",
    title: "Fields not listed are no longer accepted (additionalProperties)",
  },
  "alternative-removed": { severity: "breaking", title: "An alternative of oneOf/anyOf is gone" },
  "alternative-added": { severity: "compatible", title: "A new alternative of oneOf/anyOf" },
  "constraint-loosened": {
    severity: "compatible",
    title: "A constraint was relaxed or removed (format, pattern, bounds, enum, additionalProperties)",
  },
  "keyword-changed": {
    severity: "breaking",
    title: "Another schema keyword changed (not, if/then, prefixItems...); kept breaking to be safe",
  },
  "keyword-removed": { severity: "compatible", title: "Another schema keyword was removed" },
  "default-changed": { severity: "compatible", title: "The default value changed" },
  "argument-deprecated": { severity: "compatible", title: "An argument or field became deprecated" },
  // Results (the output outline)
  "result-field-removed": { severity: "breaking", title: "A result field is gone" },
  "result-field-retyped": { severity: "breaking", title: "A result field has another type" },
  "result-outline-removed": { severity: "breaking", title: "The result no longer has an outline (not JSON)" },
  "result-field-added": { severity: "compatible", title: "A new result field" },
  "result-field-narrowed": { severity: "compatible", title: "A result field has fewer types" },
  "result-outline-unlisted": {
    severity: "compatible",
    title: "The outline is left out because answers may also come in another media type; JSON answers stay",
  },
  "result-outline-added": { severity: "compatible", title: "The result gained an outline" },
  // Prose
  "title-changed": { severity: "docs", title: "A title changed" },
  "description-changed": { severity: "docs", title: "A description changed" },
  "example-changed": { severity: "docs", title: "An example changed" },
  "docs-changed": {
    severity: "docs",
    title: "The prose changed (one side is a catalog, which keeps only the prose digest)",
  },
} as const satisfies Record<string, ChangeRule>;

export type ChangeCode = keyof typeof CHANGE_RULES;

/** Severities from most to least serious (the order changes are listed in). */
export const SEVERITY_ORDER: readonly ChangeSeverity[] = ["breaking", "compatible", "docs"];
