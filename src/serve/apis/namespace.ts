/**
 * Namespaces of a bridge that serves several APIs: every tool of the API `erp` is named
 * `erp__<tool>` (`erp__order_query`, `crm__order_query`), within the portable 64 characters
 * (`^[a-zA-Z0-9_-]{1,64}$`). A namespace is letters and digits with single `-` or `_` between
 * them, so the first `__` of a name always ends its namespace: names of different APIs can
 * never be equal, and a name says which API it calls.
 */
import { hashShort } from "../../model/hash.js";
import type { ToolNode } from "../../model/types.js";

export const NAMESPACE_SEPARATOR = "__";

/** Letters and digits, single `-` or `_` between them: never `__`, never at either end. */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$/;

/** Leaves a namespaced name at least 38 characters of the tool's own name. */
export const MAX_NAMESPACE_LENGTH = 24;

/** The longest tool name clients take everywhere. */
const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/** Words of a title that say nothing about which API it is. */
const GENERIC_WORDS = new Set(["api", "apis", "openapi", "swagger", "rest", "the", "spec", "service"]);

/** Why `namespace` cannot be one, or undefined when it can. */
export function checkNamespace(namespace: string): string | undefined {
  if (namespace.length > MAX_NAMESPACE_LENGTH) {
    return `"${namespace}" is ${namespace.length} characters long; a namespace has at most ${MAX_NAMESPACE_LENGTH}`;
  }
  if (!NAMESPACE_PATTERN.test(namespace)) {
    return `"${namespace}" is not a namespace: letters and digits, with single - or _ between them (no __)`;
  }
  return undefined;
}

/**
 * A namespace from an API's title: its words lower-cased and joined by `_`, without words that
 * every API has (`API`, `OpenAPI`, `REST`...) or version numbers, at most 24 characters of
 * whole words. `ERP Orders API` → `erp_orders`, `Swagger Petstore - OpenAPI 3.0` →
 * `petstore`... `api` when nothing is left.
 */
export function deriveNamespace(title: string): string {
  const words = (
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  ).filter((word) => !GENERIC_WORDS.has(word) && !/^v?\d+$/.test(word));
  let namespace = "";
  for (const word of words) {
    const next = namespace === "" ? word : `${namespace}_${word}`;
    if (next.length > MAX_NAMESPACE_LENGTH) break;
    namespace = next;
  }
  if (namespace === "" && words.length > 0) namespace = words[0]!.slice(0, MAX_NAMESPACE_LENGTH);
  return namespace === "" ? "api" : namespace;
}

/**
 * The tools named `<namespace>__<name>`. A name that would pass 64 characters keeps the start
 * of the tool's own name that fits and ends in `_` plus a hash of the whole name (a hash of its
 * route as well, should two shortened names of the API still meet), so it stays the same from
 * start to start and unique.
 */
export function namespaceTools(tools: readonly ToolNode[], namespace: string): ToolNode[] {
  const prefix = `${namespace}${NAMESPACE_SEPARATOR}`;
  const room = MAX_NAME_LENGTH - prefix.length;
  const taken = new Set(tools.filter((tool) => tool.name.length <= room).map((t) => t.name.toLowerCase()));
  return tools.map((tool) => {
    if (tool.name.length <= room) return { ...tool, name: `${prefix}${tool.name}` };
    const head = tool.name.slice(0, room - HASH_LENGTH - 1).replace(/[-_]+$/, "");
    let short = `${head}_${hashShort(tool.name, HASH_LENGTH)}`;
    if (taken.has(short.toLowerCase())) {
      const route = `${tool.http.method.toUpperCase()} ${tool.http.path} ${tool.name}`;
      short = `${head}_${hashShort(route, HASH_LENGTH)}`;
    }
    taken.add(short.toLowerCase());
    return { ...tool, name: `${prefix}${short}` };
  });
}
