/**
 * Values as TypeScript literals (one property or item a line, short scalar arrays inline,
 * trailing commas), and property names: plain string building, since the values of a large API
 * are megabytes, with every string through escapeText.
 */
import { escapeText } from "./escape.js";
import { Expression, type ValueNode } from "./module-spec.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : escapeText(name, "string");
}

export function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`cannot print the number ${value}`);
  return Object.is(value, -0) ? "-0" : String(value);
}

/** Keys an object literal cannot hold as plain own properties. */
function keyText(key: string): string {
  if (key === "__proto__") return '["__proto__"]';
  return propertyName(key);
}

function isShortScalar(value: ValueNode): boolean {
  return (
    value === null ||
    typeof value === "boolean" ||
    typeof value === "number" ||
    (typeof value === "string" && value.length <= 40) ||
    value instanceof Expression
  );
}

/**
 * The printed keys and short strings of values: the same few (`type`, `properties`, `"string"`)
 * come back in every schema of every module, so one printer keeps each one's text.
 */
export interface ScalarTexts {
  keys: Map<string, string>;
  strings: Map<string, string>;
}

export function createScalarTexts(): ScalarTexts {
  return { keys: new Map(), strings: new Map() };
}

/** Strings up to this length are kept in ScalarTexts. */
const KEPT_STRING_CHARS = 64;

function cachedKeyText(key: string, texts: ScalarTexts): string {
  let text = texts.keys.get(key);
  if (text === undefined) {
    text = keyText(key);
    texts.keys.set(key, text);
  }
  return text;
}

function scalarText(value: null | boolean | number | string | Expression, texts?: ScalarTexts): string {
  if (value === null) return "null";
  if (value instanceof Expression) return value.code;
  if (typeof value === "string") {
    if (texts === undefined || value.length > KEPT_STRING_CHARS) return escapeText(value, "string");
    let text = texts.strings.get(value);
    if (text === undefined) {
      text = escapeText(value, "string");
      texts.strings.set(value, text);
    }
    return text;
  }
  if (typeof value === "number") return numberText(value);
  return String(value);
}

/**
 * A value as a TypeScript literal, one property or item a line (short scalar arrays inline),
 * two-space indentation from `indent`, trailing commas. Plain string building: the values of a
 * large API are megabytes.
 */
export function valueText(value: ValueNode, indent: string): string {
  const parts: string[] = [];
  appendValue(parts, value, indent, createScalarTexts());
  return parts.join("");
}

/** valueText's pieces, pushed onto `parts` (joined once, by the caller). */
export function appendValue(parts: string[], value: ValueNode, indent: string, texts: ScalarTexts): void {
  if (value === null || typeof value !== "object" || value instanceof Expression) {
    parts.push(scalarText(value, texts));
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      parts.push("[]");
      return;
    }
    if (value.length <= 8 && value.every(isShortScalar)) {
      const inline = `[${value.map((v) => scalarText(v as null | boolean | number | string | Expression, texts)).join(", ")}]`;
      if (inline.length <= 80) {
        parts.push(inline);
        return;
      }
    }
    const inner = `${indent}  `;
    parts.push("[\n");
    for (const item of value) {
      parts.push(inner);
      appendValue(parts, item, inner, texts);
      parts.push(",\n");
    }
    parts.push(indent, "]");
    return;
  }
  const inner = `${indent}  `;
  const open = parts.length;
  parts.push("{\n");
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    parts.push(inner, cachedKeyText(key, texts), ": ");
    appendValue(parts, item, inner, texts);
    parts.push(",\n");
  }
  if (parts.length === open + 1) {
    parts[open] = "{}";
    return;
  }
  parts.push(indent, "}");
}
