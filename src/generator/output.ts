/**
 * Output schemas: advertised only when every 2xx answer is JSON with one shared schema, and
 * relaxed (no required, formats, enums or bounds; null allowed) so that real responses, which
 * often stray from their spec, still pass the client's check of structuredContent.
 */
import type { JsonSchema } from "../model/types.js";
import { determineShape } from "./arguments.js";
import type { OperationContext } from "./plan.js";
import { resolveRefObject } from "./plan.js";
import { isRecord } from "./schema.js";

export interface PlannedOutput {
  schema: JsonSchema;
  /** The body is not an object: structuredContent is `{ result: body }`. */
  wrapped: boolean;
}

export function isJsonMediaType(mediaType: string): boolean {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  return base === "application/json" || base.endsWith("+json") || base === "text/json";
}

export function planOutput(context: OperationContext): PlannedOutput | undefined {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const successKeys = Object.keys(responses).filter((status) => /^2/.test(status));
  if (successKeys.length === 0) return undefined;
  let chosen: unknown;
  let chosenText: string | undefined;
  for (const status of successKeys) {
    const response = resolveRefObject(context.document, responses[status]);
    if (!isRecord(response) || !isRecord(response.content)) return undefined;
    const entries = Object.entries(response.content);
    if (entries.length === 0 || !entries.every(([mediaType]) => isJsonMediaType(mediaType))) return undefined;
    for (const [, media] of entries) {
      if (!isRecord(media) || media.schema === undefined) return undefined;
      const text = JSON.stringify(media.schema);
      if (chosenText === undefined) {
        chosenText = text;
        chosen = media.schema;
      } else if (text !== chosenText) {
        return undefined;
      }
    }
  }
  if (chosen === undefined) return undefined;
  const refs = new Set<string>();
  const converted = context.converter.convert(chosen, "output", refs);
  const defs = context.converter.collectDefs(refs, "output");
  const shape = determineShape(context.converter, chosen);
  const resolved = context.converter.dereference(chosen);
  const isPlainObject =
    shape === "object" && isRecord(resolved) && resolved.oneOf === undefined && resolved.anyOf === undefined;
  let schema: JsonSchema;
  let wrapped = false;
  if (isPlainObject && converted.$ref === undefined) {
    schema = { ...converted, type: "object" };
  } else if (isPlainObject) {
    schema = { type: "object", allOf: [converted] };
  } else {
    wrapped = true;
    schema = { type: "object", properties: { result: converted }, required: ["result"] };
  }
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return { schema, wrapped };
}
