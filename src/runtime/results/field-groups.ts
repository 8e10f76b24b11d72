/**
 * Field groups: `tracks[]{name, album{name}}` is `tracks[].name` and `tracks[].album.name`. It
 * is the notation describe's `returns` is written in (generator/compile/result-fields.ts), so a model that
 * writes its `fields` the way `returns` reads gets what it asked for. What `returns` writes for
 * what it leaves out (`…`, `+11 links`) selects nothing, so a `returns` text copied whole works.
 */

/** Deeper groups than this are no selection of a real answer (and bound the recursion). */
const MAX_GROUP_DEPTH = 32;

/** A text that is only an elision of `returns`: `…`, `...`, `+11 links`, `+3 more`. */
const ELISION = /^(?:…|\.\.\.|\+\d+(?:\s.*)?)$/s;

/**
 * The dotted paths a text of comma-separated paths and groups names, in their order, or the
 * problem with it (a group never closed, or closed without being opened, more than `maxPaths`).
 */
export function expandFieldGroups(text: string, maxPaths: number): string[] | { problem: string } {
  const paths: string[] = [];
  const state = { i: 0, maxPaths };
  const problem = readSelection(text, state, "", 0, paths);
  if (problem !== undefined) return { problem };
  return paths;
}

/**
 * Reads `item, item, ...` from `state.i` up to a `}` (in a group, `depth` > 0) or the end, each
 * item's path prefixed by `prefix`; the paths go to `out`. Returns the problem, if any.
 */
function readSelection(
  text: string,
  state: { i: number; maxPaths: number },
  prefix: string,
  depth: number,
  out: string[],
): string | undefined {
  if (depth > MAX_GROUP_DEPTH) return `has groups nested deeper than ${MAX_GROUP_DEPTH}`;
  const opened = state.i;
  for (;;) {
    const start = state.i;
    while (state.i < text.length && !",{}".includes(text[state.i]!)) state.i++;
    const item = text.slice(start, state.i).trim();
    const next = text[state.i];
    if (next === "{") {
      state.i++;
      const before = out.length;
      const group = joinPath(prefix, item);
      const problem = readSelection(text, state, group, depth + 1, out);
      if (problem !== undefined) return problem;
      // A group that names nothing (`user{}`, `user{+11 links}`) asks for the whole field.
      if (out.length === before && group !== "") out.push(group);
      state.i++; // the group's "}"
      // What follows a group is the next item: `a{b}, c` (a path after the brace is none).
      while (state.i < text.length && !",}".includes(text[state.i]!)) {
        if (text[state.i]!.trim() !== "")
          return `has "${text[state.i]}" after a group's "}" at ${state.i + 1}`;
        state.i++;
      }
    } else if (item !== "" && !ELISION.test(item)) {
      out.push(joinPath(prefix, item));
    }
    // A text of a million commas is read no further than the paths a call may name.
    if (out.length > state.maxPaths) return `names more than ${state.maxPaths} paths`;
    const end = text[state.i];
    if (end === ",") {
      state.i++;
      continue;
    }
    if (end === "}") {
      if (depth === 0) return `has a "}" at ${state.i + 1} without its "{"`;
      return undefined;
    }
    // The end of the text.
    if (depth > 0) return `has a "{" at ${opened} that is never closed`;
    return undefined;
  }
}

/** `tracks[]` and `name` as `tracks[].name`; a group with no path before it adds nothing. */
function joinPath(prefix: string, path: string): string {
  if (prefix === "") return path;
  if (path === "") return prefix;
  return path.startsWith("[") ? `${prefix}${path}` : `${prefix}.${path}`;
}
