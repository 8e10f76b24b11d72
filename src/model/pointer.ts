/** JSON pointer helpers (RFC 6901). */

export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function unescapePointerToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

export function joinPointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(String(t))}`).join("");
}

/** Splits `/a/b~1c` (or `#/a/b~1c`, URI-encoded or not) into its tokens. */
export function splitPointer(pointer: string): string[] {
  let p = pointer.startsWith("#") ? pointer.slice(1) : pointer;
  if (p === "") return [];
  if (pointer.startsWith("#")) {
    try {
      p = decodeURIComponent(p);
    } catch {
      // keep as is: not URI-encoded
    }
  }
  return p.slice(1).split("/").map(unescapePointerToken);
}

/** Resolves a pointer in a plain JSON value; undefined where the path does not exist. */
export function resolvePointer(root: unknown, pointer: string): unknown {
  let node: unknown = root;
  for (const token of splitPointer(pointer)) {
    if (node === null || typeof node !== "object") return undefined;
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

const refCaches = new WeakMap<object, Map<string, unknown>>();

/**
 * Resolves a local `$ref` (`#/...`) in a document, caching by ref text per document: specs
 * repeat the same few thousand refs tens of thousands of times.
 */
export function resolveLocalRef(document: object, ref: string): unknown {
  let cache = refCaches.get(document);
  if (!cache) {
    cache = new Map();
    refCaches.set(document, cache);
  }
  if (cache.has(ref)) return cache.get(ref);
  const target = resolvePointer(document, ref);
  cache.set(ref, target);
  return target;
}

/** Hops of `$ref` to `$ref` followed before giving up: refs may loop, real chains are short. */
export const MAX_REF_HOPS = 32;

export interface FollowOptions {
  /** Resolve through resolveLocalRef's cache (only for documents that no longer change). */
  cached?: boolean;
  /** Sees each `$ref` object passed on the way, outermost first. */
  onRef?: (node: Record<string, unknown>) => void;
}

/**
 * Follows local `$ref`s (`#/...`) from `value` to the node they name, at most MAX_REF_HOPS; a
 * node that is no local ref is returned as it is (also an external ref, and a ref to nothing:
 * undefined).
 */
export function followLocalRef(document: unknown, value: unknown, options: FollowOptions = {}): unknown {
  let node = value;
  for (let hops = 0; hops < MAX_REF_HOPS; hops++) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref !== "string" || !ref.startsWith("#")) return node;
    options.onRef?.(node as Record<string, unknown>);
    node =
      options.cached === true && typeof document === "object" && document !== null
        ? resolveLocalRef(document, ref)
        : resolvePointer(document, ref);
  }
  return node;
}
