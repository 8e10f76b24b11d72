/** Responses: the documented statuses with their media types, and the Accept header they make. */
import { isJsonMediaType } from "../../model/media-types.js";
import { isRecord } from "../../model/records.js";
import type { ResponseNode } from "../../model/types.js";
import { type OperationContext, resolveRefObject } from "./context.js";

export function planResponses(context: OperationContext): ResponseNode[] {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const result: ResponseNode[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    if (status.startsWith("x-")) continue;
    const response = resolveRefObject(context.document, raw);
    if (!isRecord(response)) continue;
    const content = isRecord(response.content) ? Object.keys(response.content) : [];
    result.push({
      status: status.toUpperCase() === status ? status : status.toUpperCase(),
      description: typeof response.description === "string" ? response.description : "",
      mediaTypes: content,
    });
  }
  return result;
}

/** Accept: the media types of success responses, JSON first; `*\/*` is added by the runtime when empty. */
export function planAccept(context: OperationContext): string[] {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const types: string[] = [];
  const successKeys = Object.keys(responses).filter((s) => /^2/.test(s));
  const keys = successKeys.length > 0 ? successKeys : Object.keys(responses).filter((s) => s === "default");
  for (const status of keys) {
    const response = resolveRefObject(context.document, responses[status]);
    if (!isRecord(response) || !isRecord(response.content)) continue;
    for (const mediaType of Object.keys(response.content))
      if (!types.includes(mediaType)) types.push(mediaType);
  }
  return types.sort((a, b) => rankJson(a) - rankJson(b));
}

/** `application/json` first, then other JSON types, then the rest (a stable sort keeps their order). */
function rankJson(mediaType: string): number {
  if (mediaType.split(";")[0]!.trim().toLowerCase() === "application/json") return 0;
  return isJsonMediaType(mediaType) ? 1 : 2;
}
