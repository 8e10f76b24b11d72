/**
 * Code mode's signatures of the operations, as the model reads them: `api.<name>(args)` is a
 * method of an `Api` interface whose argument type is the generated project's `Args` interface
 * (the same conversion: schema-types.ts) and whose result is what the promise gives: the tool's
 * planned result outline (`resultSchemas`, which `serve --mode code` plans), else its output
 * schema, else what its documented answers say (no body: null; text other than XML: string).
 *
 * - `signatureOf`: one line for search results, `listPets(args?: { limit?: number }): Promise<Pet[]>`,
 *   at most about 300 characters (optional arguments beyond that are named in a comment, result
 *   fields counted), short enum aliases written out;
 * - `declarationOf`: the full declaration for describe, TSDoc included, with the `$defs` types.
 *
 * Computed on first use per operation, never at start-up: a search shows a handful.
 */

import { isEmptyAnswer } from "../../model/empty-answer.js";
import { isCollectionField, isLinkField, isNoticeField, rankIdentityField } from "../../model/field-roles.js";
import { isXmlMediaType } from "../../model/media-types.js";
import type { ToolNode } from "../../model/types.js";
import { isDestructive } from "../access/select.js";
import { findDocumentedResult } from "../results/documented-result.js";
import {
  type DeclaredAliases,
  planArgumentTypes,
  schemaToType,
  type TypeAlias,
  type TypeNode,
  type TypeProperty,
} from "./schema-types.js";
import { commentText, docLines, objectText, propertyKey, typeText } from "./type-text.js";

/** The interface the declarations put the operations in; `$defs` types never take its name. */
export const API_INTERFACE = "Api";

/** Characters of a one-line signature before optional arguments and result fields are cut. */
const SIGNATURE_CHARS = 300;

export interface Signatures {
  /** One line: the method as it stands in the `Api` interface, without docs. */
  signatureOf(tool: ToolNode): string;
  /** `interface Api { ... }` with these operations and their docs, then the types they use. */
  declarationOf(
    tools: readonly ToolNode[],
    options?: { confirmDestructive?: boolean | ((tool: ToolNode) => boolean) },
  ): string;
}

/** Whether `tool` asks the user first, under one policy or a policy per API (several APIs). */
function confirmsOf(policy: boolean | ((tool: ToolNode) => boolean) | undefined, tool: ToolNode): boolean {
  return typeof policy === "function" ? policy(tool) : policy === true;
}

/** What the promise of `api.<name>(args)` gives on success. */
export function resultTypeOf(tool: ToolNode): TypeNode {
  const documented = findDocumentedResult(tool);
  if (documented !== undefined || tool.outputSchema !== undefined)
    return schemaToType(documented, { defNames: new Map() });
  const success = tool.http.responses.filter((r) => /^2/.test(r.status));
  // A 2xx that declares no content is an undocumented answer, which the program still gets,
  // unless it says there is none (model/empty-answer.ts; compile/describe.ts says the same).
  if (
    success.length > 0 &&
    success.every((r) => r.mediaTypes.length === 0) &&
    isEmptyAnswer(tool.http.method, success)
  )
    return { kind: "keyword", name: "null" };
  // XML is read as JSON where it reads cleanly (results/xml-json.ts): no string then, so unknown.
  if (
    success.length > 0 &&
    success.every(
      (r) => r.mediaTypes.length > 0 && r.mediaTypes.every((m) => /^text\//i.test(m) && !isXmlMediaType(m)),
    )
  ) {
    return { kind: "keyword", name: "string" };
  }
  return { kind: "keyword", name: "unknown" };
}

/** Whether the operation needs any argument: then `args` is required. */
function needsArguments(properties: TypeProperty[]): boolean {
  return properties.some((p) => !p.optional);
}

/** The documentation of one method: the tool's description, its HTTP line and what to know. */
function methodDocs(tool: ToolNode, confirmDestructive: boolean, method: string): string {
  const lines = [tool.description.trim() === "" ? tool.title : tool.description.trim()];
  const notes = [`${tool.http.method.toUpperCase()} ${tool.http.path}`];
  if (method !== tool.name) notes.push(`also api[${JSON.stringify(tool.name)}]`);
  if (confirmDestructive && isDestructive(tool)) notes.push("the user is asked to confirm each call");
  if (tool.deprecated) notes.push("deprecated");
  lines.push(notes.join("; "));
  return lines.join("\n");
}

/**
 * `{ a: string; b?: number }` within `max` characters: the required properties first, then the
 * documented optional ones, then the rest, while they fit; the names of those left out are
 * listed in a comment (`/* +2 more: market, offset *\/`), so none is hidden from the model.
 */
interface ClipOptions {
  /** A result's fields (rankResultFields' order, required ones clipped too), not arguments. */
  result?: boolean;
  /** A union member's small share: required first but clipped too, the note only what fits. */
  tight?: boolean;
  /** Arguments named last (the API's own options, `apiWide`). */
  demoted?: ReadonlySet<string>;
  /** Words of the operation's title: an optional argument it names is shown early. */
  mentioned?: ReadonlySet<string>;
}

function clippedObject(
  properties: TypeProperty[],
  index: TypeNode | undefined,
  max: number,
  { result = false, tight = false, demoted = NONE, mentioned = NONE }: ClipOptions = {},
): string {
  if (properties.length === 0 && index === undefined) return "{}";
  if (!result && properties.some((p) => isDemoted(p.name, demoted)))
    properties = [
      ...properties.filter((p) => !isDemoted(p.name, demoted)),
      ...properties.filter((p) => isDemoted(p.name, demoted)),
    ];
  // Arguments the call needs come first even when all fit (post_users' `email` after its options).
  if (!result && !tight)
    properties = [...properties.filter((p) => !p.optional), ...properties.filter((p) => p.optional)];
  const full = objectText(properties, index, {});
  if (full.length <= max || properties.length === 0) return full;
  // One argument whose type is long (a request body of one or two shapes): its type clipped in
  // turn, not the argument left out, which would leave `{ /* +1 more: body */ }` and nothing shown.
  const sole = properties.length === 1 && index === undefined ? properties[0]! : undefined;
  if (sole !== undefined && isClippable(sole.type)) {
    const head = `{ ${propertyKey(sole.name)}${sole.optional ? "?" : ""}: `;
    return `${head}${clippedResult(sole.type, max - head.length - 2)} }`;
  }
  // In a result, annotations (`@odata.count`, `@odata.type`, JSON-LD's `@id`) come after the
  // data, required or not: `value` is what an agent reads of an OData list.
  const annotations = result ? properties.filter(isAnnotation) : [];
  const data = result
    ? rankResultFields(
        properties.filter((p) => !isAnnotation(p)),
        max,
        tight,
      )
    : properties;
  const optional = data.filter((p) => p.optional);
  // A union member clipped to its share (tight) keeps what fits, required fields first; elsewhere
  // required fields are always shown.
  // A result's fields keep rankResultFields' order, required or not: in an answer "required"
  // only says the field is always there (Vimeo's video, 30 required fields, was written whole
  // on every line). Arguments go required (always shown), then by rankArgument.
  const ranked = result
    ? [...data, ...annotations]
    : [
        ...(tight ? data.filter((p) => !p.optional) : []),
        ...optional
          .map((property) => ({ property, tier: rankArgument(property, demoted, mentioned) }))
          .sort((a, b) => a.tier - b.tier)
          .map(({ property }) => property),
        ...annotations,
      ];
  const required = tight || result ? [] : data.filter((p) => !p.optional);
  const kept = new Set<TypeProperty>(required);
  const render = (left: TypeProperty[]) => {
    const shown = objectText([...required, ...ranked.filter((p) => kept.has(p))], undefined, {});
    if (left.length === 0) return shown;
    // The note names only what fits: the properties shown come before the names of those left
    // out (Mailchimp's getCampaigns showed none of its 15 options, only eight of their names).
    const note = describeLeftOut(left, max - shown.length);
    return kept.size === 0 ? `{ ${note} }` : `${shown.slice(0, -2)}; ${note} }`;
  };
  // A field or argument too long to show is named in the note and the shorter ones after it
  // still shown: a list's `nextPageToken` beside its clipped `items`; Linode's updateLinodeInstance,
  // whose first option is an object, showed none of `label`, `group`, `tags`.
  for (const property of ranked) {
    kept.add(property);
    if (render(ranked.filter((p) => !kept.has(p))).length > max) kept.delete(property);
  }
  // The one argument left out, an object (Box's "add shared link to folder": `shared_link`, its
  // whole body) is shown clipped in the room its note took and what is left, not only named.
  const only = result ? undefined : ranked.filter((p) => !kept.has(p));
  if (only?.length === 1 && isClippable(only[0]!.type)) {
    const property = only[0]!;
    const shown = render([]);
    const share = max - shown.length - propertyKey(property.name).length - 5;
    if (share >= MIN_CLIPPED_FIELD_CHARS) {
      const clipped: TypeProperty = {
        ...property,
        type: { kind: "text", text: clippedResult(property.type, share) },
      };
      ranked[ranked.indexOf(property)] = clipped;
      kept.add(clipped);
      return render([]);
    }
  }
  // A result none of whose fields fits whole (Spotify's search: seven paging objects) shows its
  // first clipped, so the shape of one is read (`tracks.items`), not only the names.
  const first = ranked[0];
  if (result && kept.size === 0 && first !== undefined && isClippable(first.type)) {
    // The note of the others within about 45 characters (it is written to the room left), and
    // 60% of the room at most: its shape is what is read, and the arguments share the line.
    const note = Math.min(describeLeftOut(ranked.slice(1)).length, 45);
    const share = Math.min(max - note - propertyKey(first.name).length - 8, Math.floor(max * 0.6));
    if (share >= MIN_CLIPPED_FIELD_CHARS) {
      const clipped: TypeProperty = {
        ...first,
        type: { kind: "text", text: clippedResult(first.type, share) },
      };
      ranked[0] = clipped;
      kept.add(clipped);
    }
  }
  return render(ranked.filter((p) => !kept.has(p)));
}

/** Room below which a result's first field is named rather than shown clipped. */
const MIN_CLIPPED_FIELD_CHARS = 60;

const NONE: ReadonlySet<string> = new Set();

/** What narrows or pages a list: a search text, a filter, a page size (any API's words for them). */
const LISTING_ARGUMENT = /^(q|query|search|filter|where|limit|page_?size|per_?page|max_?results|count)$/i;

/**
 * What bounds a list in time: `since`/`until`, Google's `timeMin`/`timeMax`, `start_date`,
 * `created_after`, `updatedSince` (Calendar's events.list had them among 20 options left out),
 * Graph's `startDateTime`; and an event's own `start` and `end`, which making one needs.
 */
const WINDOW_ARGUMENT =
  /^(since|until|before|after|(time|date)_?(min|max|from|to)|(start|end)(_?(time|date|date_?time|at))?|((created|updated|modified)_?)(after|before|since|until))$/i;

/**
 * When a resource was made or last changed (`createdDateTime`, `updated_at`), which the API sets:
 * shown after the other documented options (Graph's event create showed `createdDateTime` and
 * `lastModifiedDateTime` and left out `start` and `end`).
 */
const STAMP_ARGUMENT =
  /^(created|updated|modified|last_?modified|last_?updated)_?(at|on|date|time|date_?time)$/i;

/** Who a message goes from and to (Twilio's `From` was left out behind 20 alphabetical options). */
const ADDRESS_ARGUMENT = /^(from|to|sender|recipients?)$/i;

/** What a thing made or changed says: an issue's description, a comment's body, a message's text. */
const CONTENT_ARGUMENT = /^(description|body|content|text|message|comment|note|notes)$/i;

/**
 * Whether an optional argument narrows or pages a list (its text, size or time window): a
 * one-line signature shows it first.
 */
function isListingArgument(name: string): boolean {
  return LISTING_ARGUMENT.test(name) || WINDOW_ARGUMENT.test(name);
}

/**
 * An argument shown after the others: the API's own options (`apiWide`), and annotations
 * (`@odata.type`, which the bridge fills from its default: Graph's createUser showed it first).
 */
function isDemoted(name: string, demoted: ReadonlySet<string>): boolean {
  return demoted.has(name) || name.startsWith("@");
}

/**
 * Where an optional argument comes in a one-line signature (lower first; the spec's order
 * within a tier): a list's query, page size and time window (Google Drive's files.list lists 23
 * alphabetically: `q` and `pageSize` were left out for `corpora`, `corpus`…); what names the
 * thing made or changed (Zoom's meeting `topic`, a card's `name`) and who a message is from and
 * to; what the operation's title
 * names (OpenAI's "Creates a completion for the provided prompt": `prompt` was left out behind
 * 14 alphabetical options) and what the thing says (GitLab's issue `description` was left out
 * behind `created_at`); the documented options, then the rest; the API's own options
 * (`apiWide` bindings: Google's `alt`, `prettyPrint`) and annotations last.
 */
function rankArgument(
  property: TypeProperty,
  demoted: ReadonlySet<string>,
  mentioned: ReadonlySet<string>,
): number {
  const { name } = property;
  if (isDemoted(name, demoted)) return 5;
  if (isListingArgument(name)) return 0;
  if (rankIdentityField(name) === 0 || ADDRESS_ARGUMENT.test(name)) return 1;
  if (mentioned.has(name.toLowerCase()) || CONTENT_ARGUMENT.test(name)) return 2;
  return property.docs !== undefined && !STAMP_ARGUMENT.test(name) ? 3 : 4;
}

/**
 * The words of an operation's title an argument may be named by (three letters or more, and
 * each without a plural's `s`): "Add a webinar registrant" → add, webinar, registrant.
 */
function listTitleWords(title: string): ReadonlySet<string> {
  const words = new Set<string>();
  for (const word of title.toLowerCase().split(/[^a-z0-9_]+/)) {
    if (word.length < 3) continue;
    words.add(word);
    if (word.endsWith("s")) words.add(word.slice(0, -1));
  }
  return words;
}

/**
 * Links to other endpoints (HAL's and Mailchimp's `_links`) and a success's problems (Square's
 * `errors` beside its `customer`): in a result, not the data, so shown last.
 */
function isAside(property: TypeProperty): boolean {
  return isLinkField(property.name) || isNoticeField(property.name);
}

/**
 * A result's fields in the order a one-line type shows them: those that identify the resource
 * first, then, in an object with one list of objects (`items`, `data`, `results`), that list,
 * clipped to about half the room instead of left out for its length (Google Calendar's events
 * list showed `accessRole` and hid `items`, the events), then the rest as documented.
 */
function rankResultFields(properties: TypeProperty[], max: number, tight: boolean): TypeProperty[] {
  const asides = properties.filter(isAside);
  const data = properties.filter((p) => !isAside(p));
  // A union member's small share (tight) has no room for a clipped list.
  const list = tight ? undefined : findPageList(data);
  const identity = [0, 1].flatMap((rank) => data.filter((p) => rankIdentityField(p.name) === rank));
  const rest = data.filter((p) => p !== list && !identity.includes(p));
  if (list === undefined) return [...identity, ...rest, ...asides];
  // At most what the whole room leaves beside the list's name: a small room (a clipped field's
  // own share) still shows the list, shorter.
  const share = Math.min(
    Math.max(60, Math.floor(max * 0.55) - list.name.length - 4),
    // The note of the fields left out beside it takes about this much.
    max - list.name.length - 36,
  );
  const clipped: TypeProperty = {
    ...list,
    type: { kind: "text", text: clippedResult(list.type, share, true) },
  };
  return [...identity, clipped, ...rest, ...asides];
}

/** The one list of objects a page of results holds beside other fields, if there is one. */
function findPageList(data: TypeProperty[]): TypeProperty | undefined {
  if (data.length < 2) return undefined;
  // Items of allOf parts (Spotify's `SimplifiedAlbumObject`: a base and its own fields) too.
  const lists = data.filter(
    (p) =>
      p.type.kind === "array" && (p.type.items.kind === "object" || mergeObjects(p.type.items) !== undefined),
  );
  if (lists.length === 1) return lists[0];
  // A list named as a page's (`items`) even where the outline has left its items' type out.
  const named = data.filter((p) => p.type.kind === "array" && isCollectionField(p.name));
  return named.length === 1 ? named[0] : undefined;
}

/** `/* +2 more: market, offset *\/`: the properties a one-line signature leaves out, named. */
function describeLeftOut(left: readonly TypeProperty[], room = Number.POSITIVE_INFINITY): string {
  // The names that fit the room (a clipped union member's share is small), at most eight.
  const names: string[] = [];
  let length = `/* +${left.length} more: , …${left.length} */`.length;
  for (const property of left.slice(0, MAX_NAMED_LEFT_OUT)) {
    const name = commentText(property.name);
    if (names.length > 0 && length + name.length + 2 > room) break;
    names.push(name);
    length += name.length + 2;
  }
  const rest = left.length > names.length ? `, …${left.length - names.length}` : "";
  return `/* +${left.length} more: ${names.join(", ")}${rest} */`;
}

/** A property named as an annotation of the data rather than data (`@odata.nextLink`, `@id`). */
function isAnnotation(property: TypeProperty): boolean {
  return property.name.startsWith("@");
}

/** Names of left-out properties a one-line signature lists. */
const MAX_NAMED_LEFT_OUT = 8;

/**
 * A `$defs` alias a one-line signature would only name (`state?: RepeatState`) written out
 * where it is short, as an enum's values are (`state?: "track" | "context" | "off"`): the model
 * reads the values without a describe.
 */
function inlineShortAliases(properties: TypeProperty[], aliases: readonly TypeAlias[]): TypeProperty[] {
  if (aliases.length === 0) return properties;
  const short = new Map<string, TypeNode>();
  for (const alias of aliases) {
    const kind = alias.type.kind;
    if (kind === "object" || kind === "intersection") continue;
    if (typeText(alias.type).length <= SHORT_ALIAS_CHARS) short.set(alias.name, alias.type);
  }
  const inline = (type: TypeNode): TypeNode => {
    if (type.kind === "ref") return short.get(type.name) ?? type;
    if (type.kind === "array") return { kind: "array", items: inline(type.items) };
    if (type.kind === "union") return { kind: "union", members: dropAnyObject(type.members).map(inline) };
    return type;
  };
  return properties.map((p) => ({ ...p, type: inline(p.type) }));
}

/**
 * A union's members without an object of any properties (`Record<string, unknown>`) beside a
 * named or described object: Graph writes every nullable reference as `anyOf: [$ref, {type:
 * object, nullable}]`, and `MicrosoftGraphItemBody | Record<string, unknown> | null` took a
 * one-line signature's room (its event's `body` was left out) to say what the name says.
 */
function dropAnyObject(members: TypeNode[]): TypeNode[] {
  const isAnyObject = (type: TypeNode) =>
    type.kind === "object" &&
    type.properties.length === 0 &&
    type.index?.kind === "keyword" &&
    type.index.name === "unknown";
  const hasShape = members.some((m) => m.kind === "ref" || (m.kind === "object" && !isAnyObject(m)));
  return hasShape ? members.filter((m) => !isAnyObject(m)) : members;
}

/** Characters of an alias's type that a one-line signature writes out instead of its name. */
const SHORT_ALIAS_CHARS = 80;

/** A result type on one line within `max` characters: long objects keep their first fields. */
function clippedResult(type: TypeNode, max: number, tight = false): string {
  const full = typeText(type);
  if (full.length <= max) return full;
  // `{ a } & { b }` (allOf of inline objects) reads as the one object `{ a; b }`: clipped as one.
  const merged = mergeObjects(type);
  if (merged !== undefined) return clippedResult(merged, max, tight);
  if (type.kind === "object") {
    // An envelope (`{ data: Task }`, OData's `{ value: [...], "@odata.nextLink" }`): its one
    // data field's type clipped in turn, the annotations beside it named, not the field left
    // out, which would leave `{ /* +1 more: data */ }` and no field shown.
    const data = type.properties.filter((p) => !isAnnotation(p) && !isAside(p));
    const only = data.length === 1 && type.index === undefined ? data[0]! : undefined;
    if (only !== undefined && (only.type.kind === "object" || only.type.kind === "array")) {
      const others = type.properties.filter((p) => p !== only);
      const note = others.length > 0 ? `; ${describeLeftOut(others)}` : "";
      const head = `{ ${propertyKey(only.name)}${only.optional ? "?" : ""}: `;
      return `${head}${clippedResult(only.type, max - head.length - note.length - 2, tight)}${note} }`;
    }
    return clippedObject(type.properties, type.index, max, { result: true, tight });
  }
  if (type.kind === "array" && type.items.kind === "object") {
    return `${clippedObject(type.items.properties, type.items.index, max - 2, { result: true, tight })}[]`;
  }
  // A few shapes (one droplet or a list of them): each clipped to its share of the room.
  if (
    type.kind === "union" &&
    type.members.length <= MAX_CLIPPED_MEMBERS &&
    type.members.every(isClippable)
  ) {
    const share = Math.floor((max - 3 * (type.members.length - 1)) / type.members.length);
    return type.members.map((member) => clippedResult(member, Math.max(share, 40), true)).join(" | ");
  }
  return full;
}

/** Members of a union a one-line signature clips one by one; more are written out whole. */
const MAX_CLIPPED_MEMBERS = 4;

/** An intersection of inline objects as the one object it describes; undefined for any other type. */
function mergeObjects(type: TypeNode): TypeNode | undefined {
  if (type.kind !== "intersection" || !type.members.every((m) => m.kind === "object")) return undefined;
  const members = type.members as Extract<TypeNode, { kind: "object" }>[];
  const seen = new Set<string>();
  const properties = members
    .flatMap((m) => m.properties)
    .filter((p) => !seen.has(p.name) && seen.add(p.name));
  const index = members.find((m) => m.index !== undefined)?.index;
  return { kind: "object", properties, ...(index !== undefined ? { index } : {}) };
}

/** A type a one-line signature can shorten: an object, a list of objects, a few of those. */
function isClippable(type: TypeNode): boolean {
  if (type.kind === "object" || mergeObjects(type) !== undefined) return true;
  if (type.kind === "array") return type.items.kind === "object";
  if (type.kind === "union")
    return (
      type.members.length <= MAX_CLIPPED_MEMBERS &&
      type.members.every(
        (m) =>
          m.kind === "object" ||
          mergeObjects(m) !== undefined ||
          (m.kind === "array" && m.items.kind === "object"),
      )
    );
  return false;
}

/**
 * The signatures of one API's operations; `methodOf` gives each operation's method name in
 * `api` (api-names.ts), by default its tool name.
 */
export function createSignatures(methodOf: (name: string) => string = (name) => name): Signatures {
  const compact = new Map<string, string>();
  return {
    signatureOf(tool) {
      let text = compact.get(tool.name);
      if (text === undefined) {
        const types = planArgumentTypes(tool, new Set([API_INTERFACE]));
        const { index } = types;
        const properties = inlineShortAliases(types.properties, types.aliases);
        const optional = needsArguments(properties) ? "" : "?";
        const head = `${propertyKey(methodOf(tool.name))}(args${optional}: `;
        const result = clippedResult(resultTypeOf(tool), SIGNATURE_CHARS / 2);
        const room = Math.max(80, SIGNATURE_CHARS - head.length - result.length);
        const apiWide = new Set(tool.http.parameters.filter((p) => p.apiWide).map((p) => p.argument));
        const mentioned = listTitleWords(tool.title);
        text = `${head}${clippedObject(properties, index, room, { demoted: apiWide, mentioned })}): Promise<${result}>`;
        compact.set(tool.name, text);
      }
      return text;
    },
    declarationOf(tools, options = {}) {
      const taken = new Set([API_INTERFACE]);
      const indent = "  ";
      const methods: string[] = [];
      const aliases: TypeAlias[] = [];
      const declared: DeclaredAliases = new Map();
      for (const tool of tools) {
        const types = planArgumentTypes(tool, taken, declared);
        aliases.push(...types.aliases);
        const optional = needsArguments(types.properties) ? "" : "?";
        const args = objectText(types.properties, types.index, { indent }, 1);
        const result = typeText(resultTypeOf(tool), { indent }, 1);
        const method = methodOf(tool.name);
        methods.push(
          ...docLines(methodDocs(tool, confirmsOf(options.confirmDestructive, tool), method), indent),
          `${indent}${propertyKey(method)}(args${optional}: ${args}): Promise<${result}>;`,
        );
      }
      const lines = [`interface ${API_INTERFACE} {`, ...methods, "}"];
      for (const alias of aliases) {
        lines.push(...docLines(alias.docs, ""), `type ${alias.name} = ${typeText(alias.type, { indent })};`);
      }
      return lines.join("\n");
    },
  };
}
