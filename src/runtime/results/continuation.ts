/**
 * Reading the rest of a cut answer by its handle (result-store.ts): the next part within the
 * result budget, whole items of the cut list where they fit (as a JSON list), else the text in
 * windows cut at a line end or a space; the part ends with a note saying which part it is and
 * the handle of the next one. A handle that is malformed, expired or another session's is an
 * isError result that says what to do.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { formatCount } from "../../model/format-count.js";
import { toErrorResult } from "./error-result.js";
import {
  formatHandle,
  type KeptAnswer,
  type Position,
  parseHandle,
  type ResultStore,
} from "./result-store.js";
import { cutAtBoundary, hasBudget, TRUNCATION_META_KEY } from "./truncate.js";

export interface ContinuationOptions {
  store: ResultStore;
  owner?: string;
  /** Characters of text a result may hold (Infinity: the whole rest). */
  budget: number;
  continueText(handle: string): string;
}

/** Room kept for the part's note. */
const NOTE_CHARS = 400;
/** A window is at least this long, however small the budget: every read makes progress. */
const MIN_WINDOW = 200;

export function readContinuation(handle: unknown, options: ContinuationOptions): CallToolResult {
  const parsed = typeof handle === "string" ? parseHandle(handle) : undefined;
  if (!parsed) {
    return toErrorResult(
      `${JSON.stringify(handle)} is not a continuation handle: pass the handle a cut result's note gave, as it is.`,
      "invalid_argument",
    );
  }
  const kept = options.store.read(options.owner, parsed.id);
  if (!kept) {
    return toErrorResult(
      "This continuation is no longer kept (the bridge keeps a cut answer for a limited time and room, for the session that got it). " +
        "Call the operation again, with fewer fields or a smaller page, to get the data.",
      "invalid_argument",
    );
  }
  const { position } = parsed;
  if (position.unit >= kept.units.length || position.offset > (kept.units[position.unit]?.length ?? 0)) {
    return toErrorResult("This continuation handle points past the end of the answer.", "invalid_argument");
  }
  return toPartResult(parsed.id, kept, position, options);
}

function toPartResult(
  id: string,
  kept: KeptAnswer,
  at: Position,
  options: ContinuationOptions,
): CallToolResult {
  const room = hasBudget(options.budget)
    ? Math.max(MIN_WINDOW, options.budget - NOTE_CHARS)
    : Number.POSITIVE_INFINITY;
  const { units } = kept;
  let text: string;
  let next: Position | undefined;
  let where: string;
  let items: unknown[] | undefined;
  let count = 0;
  let size = 2;
  if (kept.items && at.offset === 0) {
    while (
      at.unit + count < units.length &&
      size + units[at.unit + count]!.length + (count > 0 ? 1 : 0) <= room
    ) {
      size += units[at.unit + count]!.length + (count > 0 ? 1 : 0);
      count++;
    }
  }
  if (count > 0) {
    const shown = units.slice(at.unit, at.unit + count);
    text = `[${shown.join(",")}]`;
    items = shown.map((unit) => JSON.parse(unit) as unknown);
    if (at.unit + count < units.length) next = { unit: at.unit + count, offset: 0 };
    where = `${kept.label} ${formatCount(at.unit + 1)}–${formatCount(at.unit + count)} of ${formatCount(units.length)} (whole items, as a JSON list)`;
  } else {
    const unit = units[at.unit]!;
    const rest = unit.slice(at.offset);
    let window = cutAtBoundary(rest, room).text;
    if (window.length === 0) window = rest.slice(0, room);
    text = window;
    const end = at.offset + window.length;
    if (end < unit.length) next = { unit: at.unit, offset: end };
    else if (at.unit + 1 < units.length) next = { unit: at.unit + 1, offset: 0 };
    where = kept.items
      ? `item ${formatCount(at.unit + 1)} of ${formatCount(units.length)} ${kept.label}, too large for one result: its JSON text, characters ${formatCount(at.offset + 1)}–${formatCount(end)} of ${formatCount(unit.length)}`
      : `${kept.label}, characters ${formatCount(at.offset + 1)}–${formatCount(end)} of ${formatCount(unit.length)}`;
  }
  const nextHandle = next && formatHandle(id, next);
  const note = nextHandle
    ? `[Part of a cut answer: ${where}. The next part: ${options.continueText(nextHandle)}.]`
    : `[Part of a cut answer: ${where}. This is the end of the answer.]`;
  const structured = kept.structured?.(items);
  return {
    content: [{ type: "text", text: `${text}\n${note}` }],
    ...(structured !== undefined ? { structuredContent: structured } : {}),
    _meta: {
      [TRUNCATION_META_KEY]: {
        part: true,
        ...(nextHandle !== undefined ? { continuation: nextHandle } : {}),
      },
    },
  };
}
