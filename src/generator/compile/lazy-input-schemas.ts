/**
 * Input schemas shared on first use: in discovery and code mode the first tools/list lists the
 * mode's own tools, and a search reads names, descriptions and bindings, so the planner leaves
 * each tool's `shareRepeatedSchemas` (a third of planning Microsoft Graph beta) until the
 * schema is read: by describe, a call, the search's argument names, or the model cache's write,
 * which `serve` runs in slices after its first answers (settleInputSchemasSteps).
 *
 * The tool's `inputSchema` is a getter in the key's own place that shares the planned schema
 * once, then leaves a plain data field: JSON.stringify, structuredClone and every reader see
 * exactly the schema eager planning makes (the planner's lazy-vs-eager test compares the models'
 * JSON byte for byte). Nothing else about the plan waits:
 * - Sharing cannot skip an operation. Eager planning shares inside the try that skips an
 *   operation whose planning throws, but shareRepeatedSchemas only copies, hashes and
 *   stringifies the converter's schema: acyclic JSON data (the loader refuses documents nested
 *   deeper than MAX_DOCUMENT_DEPTH, and a cycle is infinitely deep), the same operations in
 *   either order (its per-shape memory keys everything its result depends on).
 * - OMB_TOOL_UNUSABLE is still decided, and heard, at start-up (input-schema-check.ts): sharing
 *   can only make a schema less risky, so a tool whose unshared schema the compile-risk walk
 *   passes would pass shared too, and only the others are shared then and checked as before.
 * - A tool whose header parameters are mirrored as Mcp-Param headers (mcp-headers.ts, which
 *   reads the shared schema and may warn) is shared at once, as before.
 */
import type { JsonSchema, ToolNode } from "../../model/types.js";
import { shareRepeatedSchemas } from "./shared-schemas.js";

/** A schema planned but not yet shared; `shared` once it is. */
interface PendingSchema {
  unshared: JsonSchema | undefined;
  shared: JsonSchema | undefined;
}

const pendingOf = new WeakMap<object, PendingSchema>();

/** `tool.inputSchema` becomes `shareRepeatedSchemas(unshared)`, made when it is first read. */
export function deferSharing(tool: Omit<ToolNode, "name">, unshared: JsonSchema): void {
  const pending: PendingSchema = { unshared, shared: undefined };
  pendingOf.set(tool, pending);
  Object.defineProperty(tool, "inputSchema", {
    enumerable: true,
    configurable: true,
    get(this: object) {
      const schema = settle(pending);
      settleField(this, schema);
      return schema;
    },
    set(this: object, value: JsonSchema) {
      settle(pending);
      settleField(this, value);
    },
  });
}

/** The schema, shared once (the same object for every copy of the tool that reads it). */
function settle(pending: PendingSchema): JsonSchema {
  if (pending.shared === undefined) {
    pending.shared = shareRepeatedSchemas(pending.unshared!);
    pending.unshared = undefined;
  }
  return pending.shared;
}

function settleField(target: object, schema: JsonSchema): void {
  if (!Object.isExtensible(target)) return;
  Object.defineProperty(target, "inputSchema", {
    value: schema,
    enumerable: true,
    configurable: true,
    writable: true,
  });
}

/**
 * `{ name, ...tool }` without reading the tool's fields: its pending schema stays pending (a
 * spread would call the getter), in the same key order.
 */
export function nameTool(name: string, tool: Omit<ToolNode, "name">): ToolNode {
  const named = Object.defineProperties({ name }, Object.getOwnPropertyDescriptors(tool)) as ToolNode;
  const pending = pendingOf.get(tool);
  if (pending !== undefined) pendingOf.set(named, pending);
  return named;
}

/** The tool's schema before sharing while it is not yet shared, else undefined (read inputSchema). */
export function readUnsharedInputSchema(tool: ToolNode): JsonSchema | undefined {
  return pendingOf.get(tool)?.unshared;
}

/** Whether some tool's schema is still to be shared. */
export function hasPendingInputSchemas(tools: readonly ToolNode[]): boolean {
  return tools.some((tool) => pendingOf.get(tool)?.unshared !== undefined);
}

/** Each pending schema shared, a tool a step (for runInSlices, before the model cache's write). */
export function* settleInputSchemasSteps(tools: readonly ToolNode[]): Generator<void, void, void> {
  for (const tool of tools) {
    if (pendingOf.get(tool)?.unshared === undefined) continue;
    void tool.inputSchema;
    yield;
  }
}
