/**
 * JSON Schema `pattern`s as clients compile them. JSON Schema says patterns are ECMA-262 regular
 * expressions, and Ajv (the MCP SDK client's validator, and most others) compiles them with the
 * `u` flag, where the lax escapes of real specs are syntax errors: `\-` or `\:` outside a class,
 * a lone `{` or `}`. One such pattern makes a client fail to compile the whole tool schema.
 *
 * `toUnicodePattern` keeps a pattern that is valid with `u`, rewrites one that is not into the
 * same expression in the strict syntax (identity escapes of non-syntax characters dropped, lone
 * braces escaped), and gives undefined for one it cannot rewrite (an unknown `\p{...}`
 * property, say): the caller leaves that pattern out rather than break the tool.
 */

const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
/** Escapes that mean something with the `u` flag (`\-` too, but only inside a class). */
const MEANINGFUL = new Set([..."dDwWsSbBfnrtv0cxuUpPk123456789"]);

export function toUnicodePattern(pattern: string): string | undefined {
  if (compiles(pattern)) return pattern;
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "\\") {
      const next = pattern[i + 1];
      i++;
      if (next === undefined) return undefined;
      if (SYNTAX.has(next) || MEANINGFUL.has(next) || (inClass && next === "-")) out += `\\${next}`;
      else out += next;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      out += char;
      continue;
    }
    if (char === "[") {
      inClass = true;
      out += char;
      // A `]` right after `[` or `[^` is a member in most dialects: escape it.
      const negated = pattern[i + 1] === "^";
      if (negated) {
        out += "^";
        i++;
      }
      if (pattern[i + 1] === "]") {
        out += "\\]";
        i++;
      }
      continue;
    }
    if (char === "{") {
      const quantifier = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i));
      if (quantifier && out !== "" && !out.endsWith("(") && !out.endsWith("|")) {
        out += quantifier[0];
        i += quantifier[0].length - 1;
      } else out += "\\{";
      continue;
    }
    if (char === "}" || char === "]") {
      out += `\\${char}`;
      continue;
    }
    out += char;
  }
  return compiles(out) ? out : undefined;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}
