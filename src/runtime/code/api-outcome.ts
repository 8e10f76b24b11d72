/**
 * What a program's `api.<name>(args)` gets from the call pipeline's result, as the JSON text the
 * sandbox parses (prelude.ts): `{ ok: true, value }` with the operation's parsed answer, or
 * `{ ok: false, error }` with the words an isError tool result gives (its text, exactly) and its
 * facts (status, category, retryable, the API's own message), which the program's ApiError
 * carries. The result was already redacted by the pipeline.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ToolNode } from "../../model/types.js";
import { ERROR_META_KEY, type ErrorFacts } from "../results/error-result.js";
import { emptyBodyText } from "../results/success.js";

export interface ApiErrorFacts {
  message: string;
  category: string;
  status?: number;
  retryable: boolean;
  apiMessage?: string;
}

export type ApiOutcome = { ok: true; value: unknown } | { ok: false; error: ApiErrorFacts };

const EMPTY_BODY = new RegExp(
  `^${emptyBodyText(0)
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace("0", "\\d{3}")}$`,
);

/** The whole text of a result. */
export function textOfResult(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

/** The answer of one call, for the program. */
export function toApiOutcome(tool: ToolNode | undefined, result: CallToolResult): ApiOutcome {
  if (result.isError) return { ok: false, error: readErrorFacts(result) };
  return { ok: true, value: readValue(tool, result) };
}

/** An isError result's text and facts. */
export function readErrorFacts(result: CallToolResult): ApiErrorFacts {
  const facts = (result._meta?.[ERROR_META_KEY] ?? {}) as Partial<ErrorFacts>;
  return {
    message: textOfResult(result),
    category: typeof facts.category === "string" ? facts.category : "error",
    ...(typeof facts.status === "number" ? { status: facts.status } : {}),
    retryable: facts.retryable === true,
    ...(typeof facts.message === "string" ? { apiMessage: facts.message } : {}),
  };
}

/**
 * The answer itself: the parsed JSON (structuredContent, unwrapped where the pipeline wrapped
 * a non-object as `{ result }`), `null` for no body, text as a string, a small image or file as
 * `{ mimeType, base64 }`, a larger file as its link `{ uri, mimeType, size, name }` (the program
 * may return it; the client reads the file with resources/read).
 */
function readValue(tool: ToolNode | undefined, result: CallToolResult): unknown {
  const text = textOfResult(result);
  if (EMPTY_BODY.test(text)) return null;
  if (result.structuredContent !== undefined) {
    const structured = result.structuredContent as Record<string, unknown>;
    // The pipeline wraps what is not an object, and everything of a tool whose outline wraps.
    const wrapped =
      tool?.outputWrapped === true ||
      (!text.trimStart().startsWith("{") && Object.keys(structured).length === 1);
    return wrapped && "result" in structured ? structured.result : structured;
  }
  const link = result.content.find((c) => c.type === "resource_link");
  if (link?.type === "resource_link") {
    return { uri: link.uri, mimeType: link.mimeType, size: link.size, name: link.name };
  }
  const first = result.content[0];
  if (first?.type === "image") return { mimeType: first.mimeType, base64: first.data };
  if (first?.type === "resource" && "blob" in first.resource) {
    return { mimeType: first.resource.mimeType ?? "application/octet-stream", base64: first.resource.blob };
  }
  return text;
}
