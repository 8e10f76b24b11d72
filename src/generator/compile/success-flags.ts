/**
 * APIs that answer a failure with a 2xx and a flag: Slack's Web API answers HTTP 200 with
 * `{"ok": false, "error": "channel_not_found"}`, and its spec says so (the 200's `ok` is
 * `enum: [true]`, the default answer's `enum: [false]`). Passed on as a success, the agent read
 * `isError: false` for a message that was never sent. A flag is planned where the spec gives
 * both sides: a required boolean of the success answer with one allowed value, and the same
 * property with the other value in an error answer (a 4xx, 5xx or default). The runtime reads
 * a 2xx whose flag has the other value as the failure it is (results/flagged-failure.ts).
 */

import { isErrorStatus } from "../../model/error-status.js";
import { isJsonMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import { type OperationContext, resolveRefObject } from "./context.js";
import type { SchemaConverter } from "./json-schema.js";
import { findResultSchema, flattenAllOf } from "./output-schema.js";

/** The success flags of an operation: property → the value a success answer has. */
export function planSuccessFlags(context: OperationContext): Record<string, boolean> | undefined {
  const success = findResultSchema(context);
  if (success === undefined) return undefined;
  const failure = findFailureSchema(context);
  if (failure === undefined) return undefined;
  const successMarks = readBooleanMarks(context.converter, success, true);
  if (successMarks.size === 0) return undefined;
  const failureMarks = readBooleanMarks(context.converter, failure, false);
  const flags: Record<string, boolean> = {};
  for (const [name, value] of successMarks) if (failureMarks.get(name) === !value) flags[name] = value;
  return Object.keys(flags).length > 0 ? flags : undefined;
}

/** The JSON schema of the operation's first documented error answer (4xx, 5xx, default). */
function findFailureSchema(context: OperationContext): unknown {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  for (const status of Object.keys(responses)) {
    if (!isErrorStatus(status)) continue;
    const response = resolveRefObject(context.document, responses[status]);
    if (!isRecord(response) || !isRecord(response.content)) continue;
    for (const [mediaType, media] of Object.entries(response.content)) {
      if (isJsonMediaType(mediaType) && isRecord(media) && media.schema !== undefined) return media.schema;
    }
  }
  return undefined;
}

/** Top-level boolean properties with one allowed value (`const`, or an enum of one). */
function readBooleanMarks(
  converter: SchemaConverter,
  schema: unknown,
  requiredOnly: boolean,
): Map<string, boolean> {
  const marks = new Map<string, boolean>();
  const node = converter.dereference(schema);
  if (!isRecord(node)) return marks;
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const part of flattenAllOf(converter, node)) {
    if (!isRecord(part)) continue;
    if (isRecord(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required))
      for (const name of part.required) if (typeof name === "string") required.add(name);
  }
  for (const [name, raw] of Object.entries(properties)) {
    if (requiredOnly && !required.has(name)) continue;
    const property = converter.dereference(raw);
    if (!isRecord(property)) continue;
    const single =
      "const" in property
        ? property.const
        : Array.isArray(property.enum) && property.enum.length === 1
          ? property.enum[0]
          : undefined;
    if (typeof single === "boolean") marks.set(name, single);
  }
  return marks;
}
