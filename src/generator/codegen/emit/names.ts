/**
 * Names the generator makes from spec names: tool module file names (safe on every operating
 * system and unique even where file names ignore case) and npm package names. TypeScript
 * identifiers: runtime/code/identifiers.ts.
 */
import { hashShort } from "../../../model/hash.js";

/** Device names Windows refuses as a file name, with any extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
/** Module names the generated project uses itself in `src/tools/`. */
const TAKEN_MODULE_NAMES = new Set(["index"]);
const MAX_FILE_BASE = 80;

/** `getPetById` → `get-pet-by-id`, `agent-tasks_get-task` → `agent-tasks-get-task`. */
export function toKebabCase(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * One file base name per tool (without `.ts`), in the order given: kebab-case, at most 80
 * characters, never a Windows device name, and unique when compared without case. A name
 * that would clash with an earlier one gets a suffix from a hash of the tool name, so it does
 * not change when other tools come or go.
 */
export function chooseModuleNames(toolNames: string[]): string[] {
  const taken = new Set<string>(TAKEN_MODULE_NAMES);
  return toolNames.map((toolName) => {
    let base = toKebabCase(toolName) || "tool";
    if (base.length > MAX_FILE_BASE)
      base = `${base.slice(0, MAX_FILE_BASE - 9).replace(/-+$/, "")}-${hashShort(toolName)}`;
    if (WINDOWS_RESERVED.test(base) || TAKEN_MODULE_NAMES.has(base)) base = `${base}-tool`;
    if (taken.has(base)) {
      const hashed = `${base.slice(0, MAX_FILE_BASE - 7)}-${hashShort(toolName, 6)}`;
      base = hashed;
      for (let i = 2; taken.has(base); i++) base = `${hashed}-${i}`;
    }
    taken.add(base);
    return base;
  });
}

/** An npm package name from any text: lower case, URL-safe, at most 214 characters. */
export function toPackageName(text: string): string {
  const name = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|[._-]+$/g, "")
    .slice(0, 200);
  return name === "" ? "mcp-server" : name;
}
