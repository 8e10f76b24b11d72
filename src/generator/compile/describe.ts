/**
 * Tool titles and descriptions written for a model, within a character budget that gives the
 * spec's own words the room first:
 *
 *   1. what the operation does on what object: the summary (else the description's first
 *      sentence, else the operationId as words, else a sentence about the resource the path
 *      names: "List addresses.", "Read one pet by petId."), "Deprecated." first when it is, and
 *      "Read-only." / "Deletes data." when its words do not say so;
 *   2. the rest of the description (markup and doc pointers removed), in the room the shortest
 *      form of part 3 leaves;
 *   3. what it returns: a list (of what) or an object, its fields when no output schema names
 *      them and they fit, the media type when it is not JSON, and the arguments that page it
 *      when their own descriptions in the input schema do not say so;
 *   4. the required arguments when nothing else describes the operation, and example values of
 *      required arguments where the spec has them.
 *
 * Parts 3 and 4 take what the prose leaves, in that order. Never "undefined": every part comes
 * from text that is there or is left out. Not said, because a model gains nothing it does not
 * already have: the documented error statuses (a failed call's result gives its status and what
 * to do), and paging arguments whose own descriptions are in the input schema.
 */

import { isEmptyAnswer } from "../../model/empty-answer.js";
import { isJsonMediaType, isXmlMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { ParameterLocation } from "../../model/types.js";
import { isPaginationName } from "../../runtime/results/pagination.js";
import type { OperationContext } from "./context.js";
import { resolveRefObject } from "./context.js";
import {
  classifyCredentialParameter,
  listApiKeyPlaces,
  nameParameterPlace,
  readCredentialFacts,
} from "./credential-parameters.js";
import { isPlaceholderValue } from "./placeholder-values.js";
import { readBodyPresence } from "./request-body.js";
import {
  cleanProse,
  compactDescription,
  contentWords,
  fitText,
  humanizeIdentifier,
  restatesName,
} from "./text.js";

export { humanizeIdentifier } from "./text.js";

export interface DescribeOptions {
  /** Maximum characters of the whole description. */
  budget: number;
  /** The tool advertises an output schema (so the text need not list the result's fields). */
  hasOutputSchema: boolean;
}

/** A sentence that is an aside about the operation rather than what it does. */
const NOTE_SENTENCE = /^(note|nb|warning|important|caution|attention|heads up|tip)\b\s*[:!-]/i;

export function titleOperation(context: OperationContext): string {
  const summary = readSummary(context.operation);
  if (summary !== "") return fitText(summary.replace(/[.!]$/, ""), 80);
  const operationId = readOperationId(context.operation);
  if (operationId.trim() !== "") return fitText(humanizeIdentifier(operationId), 80);
  return `${context.method.toUpperCase()} ${context.path}`;
}

export function describeOperation(context: OperationContext, options: DescribeOptions): string {
  const { operation } = context;
  const summary = readSummary(operation);
  const description = cleanProse(operation.description);
  let lead = summary !== "" ? ensurePeriod(summary) : "";
  let body = description;
  const hasProse = summary !== "" || description !== "";
  if (lead === "") {
    // No summary: the description's first sentence leads; failing that, method, path and tags.
    // A first sentence that is a note (Netlify's "Note: Environment variable keys and values
    // will soon be moved…" on listSites) does not say what the operation does: the
    // operationId in words leads and the note follows.
    const first = firstSentence(description);
    const operationId = readOperationId(operation).trim();
    if (first !== "" && NOTE_SENTENCE.test(first) && operationId !== "") {
      lead = ensurePeriod(humanizeIdentifier(operationId));
    } else {
      lead = first !== "" ? ensurePeriod(first) : describeRoute(context);
      body = description.slice(first.length).trim();
    }
  } else if (description.startsWith(summary.replace(/[.!]$/, ""))) {
    const rest = description.slice(summary.replace(/[.!]$/, "").length);
    if (/^(,|[ \t]+[a-z(])/.test(rest)) {
      // The description's first sentence goes on from the summary (Zoom's "Create a meeting
      // for a user."): it leads whole, rather than its tail ("for a user.") on its own.
      const first = firstSentence(description);
      lead = ensurePeriod(first);
      body = description.slice(first.length).trim();
    } else {
      body = rest.replace(/^[.!:\s]+/, "");
    }
  } else {
    body = dropRestatement(summary, description);
  }
  if (hasProse) {
    const effect = describeEffect(context.method, lead);
    if (effect !== "") lead = `${lead} ${effect}`;
  }
  if (operation.deprecated === true) lead = `Deprecated. ${lead}`;
  const arguments_ = requiredArguments(context);
  const returns = describeReturns(context, options.hasOutputSchema);
  // Each tail part with its shorter forms: a list of fields that does not fit gives way to
  // "Returns a list of issue; pages: page." before the prose may take the room.
  const tail: string[][] = [
    // "Returns JSON." says nothing the prose does not when that already says what it returns.
    returns[0] === "Returns JSON." && /\breturns?\b/i.test(`${lead} ${fitText(body, options.budget)}`)
      ? []
      : returns,
    [hasProse ? "" : describeRequired(arguments_)],
    [describeExamples(arguments_)],
  ];
  let text = fitText(lead, options.budget);
  let used = text.length;
  // The spec's own words come first: the prose gets the room, less what the shortest form of
  // "what it returns" needs; the parts the bridge writes (fields, required arguments, examples)
  // take what is left, in order of use, each in its longest form that fits.
  // An empty shortest form: the part may be left out, so it reserves no room.
  const shortestReturns = tail[0]!.length > 0 ? Math.min(...tail[0]!.map((form) => form.length)) : 0;
  const returnsRoom = shortestReturns > 0 ? shortestReturns + 1 : 0;
  const proseRoom = options.budget - used - 1 - returnsRoom;
  if (body !== "" && proseRoom > 40) {
    const prose = fitText(body, proseRoom);
    text = `${text}\n${prose}`;
    used += prose.length + 1;
  }
  const kept: string[] = [];
  for (const forms of tail) {
    const part = forms.find((form) => form !== "" && used + form.length + 1 <= options.budget);
    if (part !== undefined) {
      kept.push(part);
      used += part.length + 1;
    }
  }
  if (kept.length > 0) text = `${text}\n${kept.join(" ")}`;
  return text;
}

/**
 * The summary as prose: one that is only the operationId written as code (Trello's
 * `getCardsListByIdCard()`, a generator's `getPetById`) says nothing and counts as none.
 */
function readSummary(operation: OperationContext["operation"]): string {
  const summary = cleanProse(operation.summary, false);
  const code = /^([A-Za-z_$][\w$.-]*)(\(\))?$/.exec(summary);
  const operationId = readOperationId(operation);
  if (code === null || operationId === "") return summary;
  return toLetters(code[1]!) === toLetters(operationId) ? "" : summary;
}

/** The operation's operationId as written, "" when it has none (or one that is no text). */
function readOperationId(operation: OperationContext["operation"]): string {
  return typeof operation.operationId === "string" ? operation.operationId : "";
}

function toLetters(identifier: string): string {
  return identifier.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * A sentence about the operation for a spec that gives it no words: its operationId as words
 * ("CreateAddress" → "Create address."), unless the id is only the method and path spelled out;
 * else the method as a verb on the resource the path names ("List addresses.", "Read one pet by
 * petId.", "Create an address."), the tags after it when they add a word.
 */
function describeRoute(context: OperationContext): string {
  const operationId = readOperationId(context.operation).trim();
  if (operationId !== "" && !isRouteSpelledOut(operationId, context.method)) {
    return ensurePeriod(fitText(humanizeIdentifier(operationId), 120));
  }
  const tags = Array.isArray(context.operation.tags)
    ? context.operation.tags.filter((t): t is string => typeof t === "string" && t.trim() !== "")
    : [];
  const sentence = describeResourceAction(context.method, context.path);
  const words = new Set(contentWords(sentence));
  const fresh = tags.filter((tag) => contentWords(tag).some((word) => !words.has(word)));
  return `${sentence}${fresh.length > 0 ? ` (${fresh.join(", ")})` : ""}.`;
}

/** `post_v2_accounts_json` for POST /v2/accounts.json: an id made from the route, no words of its own. */
function isRouteSpelledOut(operationId: string, method: string): boolean {
  return (
    new RegExp(`^${method}[-_./\\s]`, "i").test(operationId) &&
    /[_/]/.test(operationId.slice(method.length + 1))
  );
}

/** "List addresses", "Read one pet by petId", "Create an address", "Run search". */
export function describeResourceAction(method: string, path: string): string {
  const segments = path.split("/").filter((segment) => segment !== "");
  const itemParameter = /^\{([^}]+)\}$/.exec(segments.at(-1) ?? "")?.[1];
  const staticSegments = segments.filter((segment) => !segment.includes("{"));
  const resource = humanizeIdentifier(
    (staticSegments.at(-1) ?? "").replace(/\.[a-z]{2,5}$/i, ""),
  ).toLowerCase();
  const verb = VERBS[method] ?? method.toUpperCase();
  if (resource === "") return itemParameter !== undefined ? `${verb} ${path}` : `${verb} the API root`;
  const plural = /([^s]s|ies|sses)$/.test(resource);
  const one = singularize(resource);
  if (itemParameter !== undefined)
    return `${method === "post" ? "Send to" : verb} one ${one} by ${itemParameter}`;
  if (method === "get") return plural ? `List ${resource}` : `Read ${resource}`;
  if (method === "post")
    return plural ? `Create ${/^[aeiou]/.test(one) ? "an" : "a"} ${one}` : `Run ${resource}`;
  return `${verb} ${resource}`;
}

const VERBS: Record<string, string> = {
  get: "Read",
  head: "Check",
  post: "Send to",
  put: "Replace",
  patch: "Update",
  delete: "Delete",
  options: "Describe the options of",
  trace: "Trace",
};

/** `addresses` → `address`, `policies` → `policy`, `pets` → `pet`; the last word only. */
function singularize(phrase: string): string {
  return phrase.replace(/(\w+)$/, (word) => {
    if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
    if (/(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
    if (/[^su]s$/.test(word)) return word.slice(0, -1);
    return word;
  });
}

/** Words that already say an operation only reads, or that it deletes. */
const READ_WORDS =
  /^(Deprecated\. )?(get|gets|list|lists|read|reads|retrieve|retrieves|fetch|fetches|find|finds|search|searches|show|shows|check|checks|view|views|look ?up|download|downloads|export|exports|count|counts|return|returns|query|queries|describe|describes|ping|test|compare|compares|render|renders|preview|previews|verify|verifies|validate|validates|obtain|obtains|lookup|is|has)\b/i;
/** Words that say a GET changes something (GET /logout): the method's "read-only" would mislead. */
const CHANGE_WORDS =
  /^(create|creates|add|adds|update|updates|set|sets|delete|deletes|remove|removes|logs?|login|logout|sign|signs|start|starts|stop|stops|run|runs|trigger|triggers|send|sends|enable|enables|disable|disables|cancel|cancels|reset|resets|approve|approves|subscribe|subscribes)\b/i;
const DELETE_WORDS =
  /^(delete|deletes|remove|removes|unset|unsets|clear|clears|purge|purges|cancel|cancels|revoke|revokes|destroy|destroys|drop|drops|erase|erases|unlink|unlinks|detach|detaches|disable|disables|unassign|unassigns|unfollow|unstar|unblock|unlock|unsubscribe|dismiss|dismisses|reject|rejects|archive|archives|discard|discards)\b/i;

/**
 * What the operation does to the API's data, said only when its words do not say it: a GET
 * summary "Repository" gets "Read-only.", a DELETE summary "Membership" gets "Deletes data."
 * A POST, PUT or PATCH whose words read like a read (POST /search) is left alone: the method
 * alone cannot tell.
 */
function describeEffect(method: string, lead: string): string {
  if (method === "get" || method === "head" || method === "options")
    return READ_WORDS.test(lead) || CHANGE_WORDS.test(lead) ? "" : "Read-only.";
  if (method === "delete") return DELETE_WORDS.test(lead) ? "" : "Deletes data.";
  return "";
}

interface ResponseFacts {
  mediaTypes: string[];
  schema?: unknown;
  /** The schema of the first XML answer, when there is one. */
  xmlSchema?: unknown;
  anyContent: boolean;
  /** The answers say there is no body (204, 205, HEAD), not only that none is documented. */
  empty: boolean;
}

function successResponses(context: OperationContext): ResponseFacts | undefined {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  let success = Object.keys(responses).filter((status) => /^2/.test(status));
  // With no 2xx documented, `default` is what a successful call answers (petstore's createUser).
  // Many specs use `default` for their error shape instead: one that reads like an error is not.
  if (success.length === 0 && looksLikeSuccess(context, responses.default)) success = ["default"];
  if (success.length === 0) return undefined;
  const mediaTypes = new Set<string>();
  let schema: unknown;
  let xmlSchema: unknown;
  const answers: { status: string; description: string }[] = [];
  for (const status of success) {
    const response = resolveRefObject(context.document, responses[status]);
    answers.push({ status, description: isRecord(response) ? String(response.description ?? "") : "" });
    if (!isRecord(response) || !isRecord(response.content)) continue;
    for (const [mediaType, media] of Object.entries(response.content)) {
      mediaTypes.add(mediaType);
      if (!isRecord(media) || media.schema === undefined) continue;
      if (schema === undefined && isJsonMediaType(mediaType)) schema = media.schema;
      if (xmlSchema === undefined && isXmlMediaType(mediaType)) xmlSchema = media.schema;
    }
  }
  // 204 and 205, HEAD, a DELETE or answers that say so have no body; a 200 that declares no
  // content is otherwise an answer the spec left undocumented (Trello's GET /boards/{id}/cards
  // "Success"), not an empty one.
  const empty = isEmptyAnswer(context.method, answers);
  return { mediaTypes: [...mediaTypes], schema, xmlSchema, anyContent: mediaTypes.size > 0, empty };
}

function looksLikeSuccess(context: OperationContext, response: unknown): boolean {
  const resolved = resolveRefObject(context.document, response);
  if (!isRecord(resolved)) return false;
  const ref = isRecord(response) && typeof response.$ref === "string" ? response.$ref : "";
  const schemas = isRecord(resolved.content)
    ? Object.values(resolved.content).map((media) =>
        isRecord(media) ? (schemaName(media.schema) ?? "") : "",
      )
    : [];
  const words = [String(resolved.description ?? ""), ref, ...schemas].join(" ");
  return !/error|unexpected|fail|problem|exception|invalid|fault/i.test(words);
}

/**
 * "Returns a list of issue; pages: page, per_page." / "Returns an object: id, name, tag." /
 * "Returns text/csv." / "Returns no content." Fields are named only when no output schema
 * names them. The forms to choose from, longest first: a form that names fields is followed by
 * the same without them; none when there is nothing to say.
 */
function describeReturns(context: OperationContext, hasOutputSchema: boolean): string[] {
  const facts = successResponses(context);
  const paging = paginationArguments(context);
  const pages = paging.length > 0 ? `; pages: ${paging.join(", ")}` : "";
  if (facts === undefined) return [];
  if (!facts.anyContent) return facts.empty ? ["Returns no content."] : [];
  if (!hasOutputSchema && facts.mediaTypes.every(isXmlMediaType)) {
    // The bridge reads such an answer into JSON (runtime/results/xml-json.ts), keyed by the
    // element names: those are what `fields` paths name, not the schema's property names.
    const short = `Returns XML, read as JSON${pages}.`;
    const fields = xmlFieldNames(context.converter, facts.xmlSchema);
    return fields.length > 0 ? [`Returns XML, read as JSON: ${fields.join(", ")}${pages}.`, short] : [short];
  }
  if (!facts.mediaTypes.some(isJsonMediaType))
    return [`Returns ${facts.mediaTypes.slice(0, 3).join(" or ")}.`];
  const { converter } = context;
  const node = converter.dereference(facts.schema);
  if (!isRecord(node)) return hasOutputSchema ? [] : ["Returns JSON."];
  const parts = flattenAllOf(converter, node);
  const items = parts.find((part) => part.items !== undefined && !Array.isArray(part.items))?.items;
  if (items !== undefined || parts.some((part) => part.type === "array")) {
    const name = schemaName(items);
    const of = name !== undefined ? ` of ${name}` : "";
    const fields = hasOutputSchema ? [] : fieldNames(converter, items);
    const short = `Returns a list${of}${pages}.`;
    return fields.length > 0 ? [`Returns a list${of} (${fields.join(", ")})${pages}.`, short] : [short];
  }
  const fields = fieldNames(converter, node);
  const variants = variantNames(node);
  if (fields.length === 0 && variants.length > 0) return [`Returns one of: ${variants.join(", ")}${pages}.`];
  const scalar = parts.map((part) => part.type).find((type) => typeof type === "string" && type !== "object");
  if (fields.length === 0 && typeof scalar === "string")
    return [`Returns ${/^[aeiou]/.test(scalar) ? "an" : "a"} ${scalar}${pages}.`];
  if (hasOutputSchema)
    return pages === "" ? [] : [`Returns ${fields.length > 0 ? "an object" : "JSON"}${pages}.`];
  // "Returns an object." alone tells a model nothing it can use (436 of GitHub's tools, 1% of
  // its tools/list): the fields are named when they fit, the paging arguments always.
  if (fields.length > 0)
    return [
      `Returns an object: ${fields.join(", ")}${pages}.`,
      pages === "" ? "" : `Returns an object${pages}.`,
    ];
  return [`Returns JSON${pages}.`];
}

/** The named schemas of a oneOf or anyOf (at most 4): `private-user, public-user`. */
function variantNames(node: Record<string, unknown>): string[] {
  const members = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : [];
  const names = members.map(schemaName).filter((name): name is string => name !== undefined);
  return names.length === members.length ? [...new Set(names)].slice(0, 4) : [];
}

/** The schema and its allOf parts, resolved. */
function flattenAllOf(converter: OperationContext["converter"], node: Record<string, unknown>) {
  const parts: Record<string, unknown>[] = [node];
  if (Array.isArray(node.allOf)) {
    for (const part of node.allOf) {
      const resolved = converter.dereference(part);
      if (isRecord(resolved)) parts.push(resolved);
    }
  }
  return parts;
}

/** Up to 6 field names of an object schema (and how many more), links to other endpoints last. */
function fieldNames(converter: OperationContext["converter"], schema: unknown): string[] {
  return listFieldNames(converter, schema, (name) => name);
}

/** The same for an XML answer: each property by its element name (`xml.name`, else its own). */
function xmlFieldNames(converter: OperationContext["converter"], schema: unknown): string[] {
  return listFieldNames(converter, schema, (name, property) => {
    const resolved = converter.dereference(property);
    const xml = isRecord(resolved) && isRecord(resolved.xml) ? resolved.xml : undefined;
    return typeof xml?.name === "string" && xml.name !== "" ? xml.name : name;
  });
}

function listFieldNames(
  converter: OperationContext["converter"],
  schema: unknown,
  nameOf: (name: string, property: unknown) => string,
): string[] {
  const node = converter.dereference(schema);
  if (!isRecord(node)) return [];
  const names: string[] = [];
  for (const part of flattenAllOf(converter, node)) {
    if (isRecord(part.properties))
      for (const [name, property] of Object.entries(part.properties)) names.push(nameOf(name, property));
  }
  const link = /((^|_)(url|link|href)|[a-z0-9](Url|URL|Link|Href))s?$/;
  const ordered = [...names.filter((n) => !link.test(n)), ...names.filter((n) => link.test(n))];
  const unique = [...new Set(ordered)];
  if (unique.length <= 6) return unique;
  return [...unique.slice(0, 5), `${unique[5]} +${unique.length - 6} more`];
}

/** `#/components/schemas/pet` → `pet`; a schema's own title when it has no reference. */
function schemaName(schema: unknown): string | undefined {
  if (isRecord(schema) && typeof schema.$ref === "string") {
    const last = schema.$ref.split("/").at(-1) ?? "";
    const name = last.replaceAll("~1", "/").replaceAll("~0", "~");
    return /^[\w.-]{1,60}$/.test(name) ? name : undefined;
  }
  if (isRecord(schema) && typeof schema.title === "string" && /^[\w .-]{1,60}$/.test(schema.title))
    return schema.title;
  return undefined;
}

/**
 * Query parameters by which a list is paged (the runtime's list: page, per_page, limit,
 * cursor...), named only when one of them has no description of its own in the input schema:
 * otherwise the schema already says how the list is paged.
 */
function paginationArguments(context: OperationContext): string[] {
  const paging = operationParameters(context).filter((p) => p.in === "query" && isPaginationName(p.name));
  return paging.some((p) => !p.documented) ? paging.map((p) => p.name) : [];
}

interface ParameterFacts {
  name: string;
  in: string;
  required: boolean;
  example?: unknown;
  /** Its argument carries a description in the input schema (its own, or its schema's). */
  documented?: boolean;
  /** A credential the operator configures: never the model's to give, so never "Required". */
  credential?: boolean;
}

/**
 * The parameter looks like a credential, or is the header, query parameter or cookie of an
 * `apiKey` scheme (Trello's `key` and `token`): the runtime fills or withholds it, never asks.
 */
function isCredentialParameter(context: OperationContext, parameter: Record<string, unknown>): boolean {
  const location = String(parameter.in) as ParameterLocation;
  if (location === "path") return false;
  const schema = isRecord(parameter.schema) ? parameter.schema : {};
  if (classifyCredentialParameter(readCredentialFacts(parameter, location, schema)) !== undefined)
    return true;
  return listApiKeyPlaces(context.document).has(nameParameterPlace(location, String(parameter.name)));
}

/**
 * The operation's parameters with the path item's, resolved (operation ones win); read once per
 * operation, since the paging and required-argument lines both need them. The callers filter
 * (a new list each), never change the list or its entries.
 */
function operationParameters(context: OperationContext): readonly ParameterFacts[] {
  let facts = parametersOf.get(context);
  if (facts === undefined) {
    facts = readOperationParameters(context);
    parametersOf.set(context, facts);
  }
  return facts;
}

const parametersOf = new WeakMap<OperationContext, readonly ParameterFacts[]>();

function readOperationParameters(context: OperationContext): ParameterFacts[] {
  const byKey = new Map<string, ParameterFacts>();
  const lists = [context.pathItem.parameters, context.operation.parameters];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = resolveRefObject(context.document, raw);
      if (!isRecord(parameter) || typeof parameter.name !== "string" || typeof parameter.in !== "string")
        continue;
      const { example, documented, credential } = readParameterFacts(context, parameter);
      byKey.set(`${parameter.in}:${parameter.name}`, {
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true || parameter.in === "path",
        example,
        documented,
        credential,
      });
    }
  }
  return [...byKey.values()];
}

/**
 * A parameter's example and whether its argument is documented, read once per Parameter Object:
 * a shared one (`$ref`ed, or a path item's) is read for each operation that has it, and both
 * are pure functions of the object in its document.
 */
function readParameterFacts(
  context: OperationContext,
  parameter: Record<string, unknown>,
): ParameterObjectFacts {
  let byParameter = parameterFacts.get(context.converter);
  if (byParameter === undefined) {
    byParameter = new WeakMap();
    parameterFacts.set(context.converter, byParameter);
  }
  let facts = byParameter.get(parameter);
  if (facts === undefined) {
    facts = {
      example: exampleOf(context, parameter),
      documented: isDocumented(context, parameter),
      // Read for a required parameter only: an optional one is never listed as required.
      credential: parameter.required === true && isCredentialParameter(context, parameter),
    };
    byParameter.set(parameter, facts);
  }
  return facts;
}

/** By converter: one per planned document, whose refs it resolves and whose budget it keeps. */
const parameterFacts = new WeakMap<OperationContext["converter"], WeakMap<object, ParameterObjectFacts>>();

interface ParameterObjectFacts {
  example: unknown;
  documented: boolean;
  credential: boolean;
}

/** The spec's example of a parameter or schema: `example`, the first `examples`, the schema's. */
function exampleOf(context: OperationContext, node: Record<string, unknown>): unknown {
  const own = ownExampleOf(context, node);
  if (own !== undefined || node.schema === undefined) return own;
  const schema = context.converter.dereference(node.schema);
  // The schema's own, not its `schema` keyword's (a property may be named so).
  return isRecord(schema) ? ownExampleOf(context, schema) : undefined;
}

/**
 * A node's `example`, else its first `examples` entry (a list, or a map of Example Objects);
 * never a template's blank (`{{BLOCK_ID}}`: placeholder-values.ts).
 */
function ownExampleOf(context: OperationContext, node: Record<string, unknown>): unknown {
  const value = readOwnExample(context, node);
  return isPlaceholderValue(value) ? undefined : value;
}

function readOwnExample(context: OperationContext, node: Record<string, unknown>): unknown {
  if (node.example !== undefined) return node.example;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if (isRecord(node.examples)) {
    for (const example of Object.values(node.examples)) {
      const resolved = resolveRefObject(context.document, example);
      if (isRecord(resolved) && resolved.value !== undefined) return resolved.value;
    }
  }
  return undefined;
}

/** Required parameters, then the required properties of a body that is not explicitly optional. */
function requiredArguments(context: OperationContext): ParameterFacts[] {
  const required = operationParameters(context).filter((p) => p.required && p.credential !== true);
  const body = resolveRefObject(context.document, context.operation.requestBody);
  if (isRecord(body) && readBodyPresence(body) !== "optional" && isRecord(body.content)) {
    const media = Object.values(body.content).find((m) => isRecord(m) && m.schema !== undefined);
    const schema = isRecord(media) ? context.converter.dereference(media.schema) : undefined;
    if (isRecord(schema)) {
      for (const part of flattenAllOf(context.converter, schema)) {
        if (!Array.isArray(part.required) || !isRecord(part.properties)) continue;
        for (const name of part.required) {
          if (typeof name !== "string" || required.some((p) => p.name === name)) continue;
          const property = context.converter.dereference(part.properties[name]);
          if (isRecord(property) && property.readOnly === true) continue;
          required.push({
            name,
            in: "body",
            required: true,
            example: isRecord(property) ? exampleOf(context, property) : undefined,
          });
        }
      }
    }
  }
  return required;
}

/** "Required: owner, repo." for operations with no words of their own. */
function describeRequired(required: ParameterFacts[]): string {
  if (required.length === 0) return "";
  const names = required.slice(0, 6).map((p) => p.name);
  return `Required: ${names.join(", ")}${required.length > 6 ? ", …" : ""}.`;
}

/** `Example: name="doggie", photoUrls=["https://x/a.png"].` from the spec's own examples. */
function describeExamples(required: ParameterFacts[]): string {
  const shown: string[] = [];
  for (const p of required) {
    if (p.example === undefined || shown.length >= 3) continue;
    let json: string;
    try {
      json = JSON.stringify(p.example);
    } catch {
      continue;
    }
    if (json !== undefined && json.length <= 40) shown.push(`${p.name}=${json}`);
  }
  return shown.length > 0 ? `Example: ${shown.join(", ")}.` : "";
}

/**
 * The description without its first sentence when that sentence only says the summary again
 * ("List repository issues." then "List issues in a repository."): at most one of its content
 * words is new, and it has no more than five. A model reads both, every time.
 */
function dropRestatement(summary: string, description: string): string {
  const first = firstSentence(description);
  if (first === "") return description;
  const known = new Set(contentWords(summary));
  const words = contentWords(first);
  const fresh = words.filter((word) => !known.has(word)).length;
  if (words.length === 0 || words.length > 5 || fresh > (words.length >= 4 ? 1 : 0)) return description;
  return description.slice(first.length).trim();
}

/** Whether a parameter's argument gets a description in the input schema, as arguments.ts writes it. */
function isDocumented(context: OperationContext, parameter: Record<string, unknown>): boolean {
  const budget = context.converter.descriptionBudget;
  const own = compactDescription(parameter.description, budget);
  if (own !== "" && !restatesName(String(parameter.name), own)) return true;
  const schema = context.converter.dereference(parameter.schema);
  return isRecord(schema) && compactDescription(schema.description, budget) !== "";
}

function firstSentence(text: string): string {
  const match = /^[\s\S]*?[.!?](\s|$)/.exec(text.split("\n")[0] ?? "");
  return (match ? match[0] : (text.split("\n")[0] ?? "")).trim();
}

function ensurePeriod(text: string): string {
  return /[.!?:]$/.test(text) ? text : `${text}.`;
}
