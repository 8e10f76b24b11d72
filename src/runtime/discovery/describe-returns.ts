/**
 * describe_operations' `returns`: the names of the fields a successful call answers with
 * (ToolNode.resultFields), as compact text in the notation of call_operation's `fields`, so that
 * an agent can pick fields on its first call: `[]{number, title, user{login, id, …}, labels[]{…},
 * +12 links, …}` is a list whose elements hold `number`, `title`... (`[].user.login` picks one).
 *
 * Breadth first within `maxChars`: every field of the answer is named before any field of a
 * field; `{…}` marks fields not named for want of room, `…` at the end of a list of names the
 * same. Links to other endpoints are named when an object has few of them, else counted, but
 * for the link to the page a person opens (`html_url`).
 */
import type { ResultFieldsNode } from "../../model/types.js";

/** Links an object may have and still have them named, not counted (an issue's `html_url`). */
export const NAMED_LINKS = 6;

/**
 * Names shown per object two levels or more below the answer (an issue's `user`'s fields are
 * shown whole, the `user` of a run's `actor` is not): a deep object's first names say what it
 * is, and its rest would take the room of other objects' fields (a droplet's `image` of 15
 * fields before its `networks.v4[].ip_address`). One level is an envelope's (`{droplet{…}}`).
 */
export const DEEP_NAMES = 8;

/** What the text shows of one value: the fields named, and of each the same. */
interface View {
  node: ResultFieldsNode;
  /** Levels below the answer: 0 for the answer itself. */
  depth: number;
  /** Its fields whose names fit, in order, each with what is shown of it. */
  shown: [name: string, view: View][];
  /** Its links' names, when they are few and fit. */
  links: string[];
  /** False until its fields' turn comes: shown as `{…}`. */
  opened: boolean;
}

const PARTS = { separator: ", ", more: "…", closed: "{…}", list: "[]" } as const;

/** The fields of a successful answer as text of about `maxChars` characters at most. */
export function showReturns(fields: ResultFieldsNode, maxChars: number): string {
  // The choice counts characters ahead of time, a little loosely: again with less room.
  let room = maxChars;
  for (let attempt = 0; attempt < 4; attempt++) {
    const text = renderView(chooseShown(fields, room));
    if (text.length <= maxChars) return text;
    room -= text.length - maxChars;
  }
  return renderView(openView(fields));
}

/** True when a value has fields to name (a list of scalars has none). */
function hasFields(node: ResultFieldsNode): boolean {
  return node.fields !== undefined || node.links !== undefined || (node.more ?? 0) > 0;
}

/** The fields named, breadth first, while their names fit in `maxChars`. */
function chooseShown(root: ResultFieldsNode, maxChars: number): View {
  const top = openView(root);
  // `[]{` `}`, and what opening any view costs.
  let used = (root.list ? PARTS.list.length : 0) + 2 + costOfOpening(root);
  top.opened = true;
  const queue: View[] = [top];
  for (const view of queue) {
    // A view opens (`{…}` becomes `{` + names + `}`) only when its first name fits.
    const add = (cost: number) => {
      const total = cost + (view.opened ? 0 : costOfOpening(view.node));
      if (used + total > maxChars) return false;
      used += total;
      view.opened = true;
      return true;
    };
    const fields = Object.entries(view.node.fields ?? {});
    for (const [name, child] of view.depth >= 2 ? fields.slice(0, DEEP_NAMES) : fields) {
      if (!add(name.length + PARTS.separator.length + costOfClosed(child))) return top;
      const shown = openView(child, view.depth + 1);
      view.shown.push([name, shown]);
      if (hasFields(child)) queue.push(shown);
    }
    const links = view.node.links ?? [];
    // Many links are counted, but the page a person opens (`html_url`) is named anyway: it is
    // the link a task most often asks for ("give me the link to the new issue").
    for (const link of links.length > NAMED_LINKS ? links.filter(isPageLink) : links) {
      if (!add(link.length + PARTS.separator.length)) return top;
      view.links.push(link);
    }
  }
  return top;
}

/**
 * What an opened view adds besides its names: room for a closing `, …` (its `…` is already
 * there when closed) and the count of its links when they are many.
 */
function costOfOpening(node: ResultFieldsNode): number {
  const links = node.links ?? [];
  const counted = links.length > NAMED_LINKS ? countLinks(links.length).length + PARTS.separator.length : 0;
  return PARTS.separator.length + counted;
}

function openView(node: ResultFieldsNode, depth = 0): View {
  return { node, depth, shown: [], links: [], opened: false };
}

/** Characters of a field's value shown before its turn: `[]`, `{…}`, `[]{…}` or nothing. */
function costOfClosed(node: ResultFieldsNode): number {
  return (node.list ? PARTS.list.length : 0) + (hasFields(node) ? PARTS.closed.length : 0);
}

/** A link to the page a person opens: `html_url`, `web_url`, `permalink_url`, `webUrl`. */
function isPageLink(name: string): boolean {
  return /^(?:html|web|permalink)(?:_|-)?(?:url|link|uri)?$/i.test(name);
}

function countLinks(count: number): string {
  return `+${count} link${count === 1 ? "" : "s"}`;
}

function renderView(view: View): string {
  const list = view.node.list ? PARTS.list : "";
  if (!hasFields(view.node)) return list;
  if (!view.opened) return `${list}${PARTS.closed}`;
  const { fields = {}, links = [], more = 0 } = view.node;
  const parts = view.shown.map(([name, child]) => `${name}${renderView(child)}`);
  parts.push(...view.links);
  const linksCounted = links.length > NAMED_LINKS;
  if (linksCounted) parts.push(countLinks(links.length - view.links.length));
  const unnamed =
    more > 0 ||
    view.shown.length < Object.keys(fields).length ||
    (!linksCounted && view.links.length < links.length);
  if (unnamed) parts.push(PARTS.more);
  return `${list}{${parts.join(PARTS.separator)}}`;
}
