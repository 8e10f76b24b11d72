/**
 * The response-size budget: a result's text holds at most `budget` characters (default 25,000),
 * so one large answer cannot fill a model's context. An answer over the budget is cut at a
 * clean boundary (whole items of its main list, whole lines of text), and a marker says how
 * much was cut and how to get the rest: the next values of the operation's pagination
 * arguments when it has them (from the arguments sent, the Link header or a next-cursor field),
 * or which arguments narrow the request. The cut JSON stays the same shape (shorter lists,
 * shorter strings, fewer keys), so structuredContent still matches the tool's outline
 * outputSchema, which requires no property and bounds nothing.
 */

import { formatCount } from "../../model/format-count.js";
import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";
import { toMetaKey } from "../server/meta-keys.js";
import {
  findNarrowingArguments,
  findNextPage,
  findPaginationArguments,
  type PaginationArgument,
} from "./pagination.js";
import { formatHandle, type KeptAnswer, type ResultStore } from "./result-store.js";

/** Characters of text in one result (`--max-result-chars` cites it). */
export const DEFAULT_MAX_RESULT_CHARS = 25_000;

/** Key of the truncation facts in a result's `_meta`. */
export const TRUNCATION_META_KEY = toMetaKey("truncated");

export interface FitOptions {
  /** Characters of text a result may hold; 0 or Infinity: no limit. */
  budget: number;
  /** The operation answered: its paging arguments say how to get the rest. */
  tool?: ToolNode;
  /** What to do to get the rest when there is no operation to page (code mode's programs). */
  continuation?: string;
  /** The arguments of the call (to say which page or offset comes next). */
  args?: Record<string, unknown>;
  /** The upstream answer's headers (lower-case names), for `Link`. */
  headers?: Record<string, string>;
  /** Where the whole answer is kept when it is cut, so the rest can be read (result-store.ts). */
  keep?: KeepOptions;
}

/** How a cut answer is kept and how the agent reads the rest in this mode. */
export interface KeepOptions {
  store: ResultStore;
  /** The MCP session, or undefined (stdio, stateless HTTP). */
  owner?: string;
  /** The call that reads the part a handle names: `call_operation with {"continue": "..."}`. */
  continueText(handle: string): string;
  /** A sentence on asking for fewer fields, or nothing. */
  fieldsHint?: string;
  /** The structured copy of a part: a root value of the same shape, or a text window (undefined). */
  structuredOf?: (value: unknown) => Record<string, unknown> | undefined;
  /**
   * Redacts secrets from each unit before it is kept: a part read later is cut at places the
   * answer did not choose, so a secret redacted only as parts are read could straddle two.
   */
  scrub?: (text: string) => string;
}

export interface Truncation {
  truncated: true;
  /** Characters of the answer as the API sent it (JSON: as received). */
  originalChars: number;
  /** Characters of the text shown, marker excluded. */
  shownChars: number;
  budget: number;
  /** The list that was cut to whole items: its path (`` for the root), items shown and total. */
  items?: { path: string; shown: number; total: number };
  /** Text cut at a line end: lines shown and total. */
  lines?: { shown: number; total: number };
  /** Long strings, lists and objects inside the answer were shortened. */
  shortened?: boolean;
  /** Arguments that fetch what was cut (the other arguments stay as they were). */
  next?: Record<string, string | number>;
  /** The handle that reads the rest from the bridge (result-store.ts). */
  continuation?: string;
}

export interface FittedJson {
  value: unknown;
  text: string;
  truncation?: Truncation;
}

export function hasBudget(budget: number): boolean {
  return Number.isFinite(budget) && budget > 0;
}

/** Whether text of this length fits the budget whole (then fitJson returns it as it is). */
export function fitsBudget(length: number, budget: number): boolean {
  return !hasBudget(budget) || length <= budget;
}

/**
 * Fits a parsed JSON answer into the budget. `text` is the answer as received; it is returned
 * unchanged when it fits.
 */
export function fitJson(value: unknown, text: string, options: FitOptions): FittedJson {
  const { budget } = options;
  if (fitsBudget(text.length, budget)) return { value, text };
  const main = findMainArray(value);
  // Room for the marker: measured on a marker with the largest numbers it can say.
  let target = Math.max(0, budget - estimateMarker(options, value, text.length, main));
  let handle: string | undefined;
  if (main && main.array.length > 0) {
    const lengths = main.array.map((item) => JSON.stringify(item)?.length ?? 4);
    const base = JSON.stringify(replaceAt(value, main.path, [])).length;
    for (let attempt = 0; attempt < 4; attempt++) {
      let k = 0;
      let size = base;
      while (k < lengths.length && size + lengths[k]! + (k > 0 ? 1 : 0) <= target) {
        size += lengths[k]! + (k > 0 ? 1 : 0);
        k++;
      }
      if (k === 0) break;
      const shown = main.array.slice(0, k);
      const cut = replaceAt(value, main.path, shown);
      const cutText = JSON.stringify(cut);
      const hint = describeContinuation(options, value, {
        shown: k,
        total: main.array.length,
        last: shown[k - 1],
      });
      handle ??= keepAnswer(options, {
        units: main.array.map((item) => JSON.stringify(item) ?? "null"),
        label: main.path.length > 0 ? `items of \`${formatPath(main.path)}\`` : "items of the answer",
        items: true,
        structured: (items) =>
          options.keep?.structuredOf?.(items ? replaceAt(value, main.path, items) : undefined),
      });
      const position = handle && { id: handle, position: { unit: k, offset: 0 } };
      const truncation: Truncation = {
        truncated: true,
        originalChars: text.length,
        shownChars: cutText.length,
        budget,
        items: { path: formatPath(main.path), shown: k, total: main.array.length },
        ...(hint.next ? { next: hint.next } : {}),
        ...(position ? { continuation: formatHandle(position.id, position.position) } : {}),
      };
      const result = `${cutText}\n${formatMarker(truncation, howToContinue(options, hint, truncation.continuation))}`;
      if (result.length <= budget || attempt === 3) return { value: cut, text: result, truncation };
      target -= result.length - budget;
    }
  }
  // No list to cut, or a single item is already too large: shorten everything inside.
  const hint = describeContinuation(options, value, undefined);
  const last = PRUNE_LEVELS.length - 1;
  for (const [index, level] of PRUNE_LEVELS.entries()) {
    const pruned = prune(value, level, 0);
    const prunedText = JSON.stringify(pruned);
    if (prunedText.length > target && index < last) continue;
    const shownText = prunedText.length <= target ? prunedText : cutAtBoundary(prunedText, target).text;
    // The whole answer is kept as its text, read in windows from the start.
    const kept = keepAnswer(options, {
      units: [text],
      label: "the whole answer as JSON text",
      items: false,
      structured: () => options.keep?.structuredOf?.(undefined),
    });
    const truncation: Truncation = {
      truncated: true,
      originalChars: text.length,
      shownChars: shownText.length,
      budget,
      shortened: true,
      ...(hint.next ? { next: hint.next } : {}),
      ...(kept ? { continuation: formatHandle(kept, { unit: 0, offset: 0 }) } : {}),
    };
    return {
      value: pruned,
      text: `${shownText}\n${formatMarker(truncation, howToContinue(options, hint, truncation.continuation, true))}`,
      truncation,
    };
  }
  /* c8 ignore next */
  throw new Error("unreachable: the last prune level always returns");
}

/** Fits text (plain, HTML, XML, CSV...) into the budget, cut after a whole line where it can. */
export function fitText(text: string, options: FitOptions): { text: string; truncation?: Truncation } {
  const { budget } = options;
  if (!hasBudget(budget) || text.length <= budget) return { text };
  const reserve = estimateMarker(options, null, text.length, undefined);
  const cut = cutAtBoundary(text, Math.max(0, budget - reserve));
  const hint = describeContinuation(options, null, undefined);
  const kept = keepAnswer(options, {
    units: [text],
    label: "the answer's text",
    items: false,
    structured: () => options.keep?.structuredOf?.(undefined),
  });
  const truncation: Truncation = {
    truncated: true,
    originalChars: text.length,
    shownChars: cut.text.length,
    budget,
    ...(cut.lines ? { lines: cut.lines } : {}),
    ...(hint.next ? { next: hint.next } : {}),
    ...(kept ? { continuation: formatHandle(kept, { unit: 0, offset: cut.text.length }) } : {}),
  };
  return {
    text: `${cut.text}\n${formatMarker(truncation, howToContinue(options, hint, truncation.continuation))}`,
    truncation,
  };
}

/** Text cut to at most `max` characters: after a line end if one is near, else after a space. */
export function cutAtBoundary(
  text: string,
  max: number,
): { text: string; lines?: { shown: number; total: number } } {
  if (text.length <= max) return { text };
  let end = max;
  // never split a surrogate pair
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  const window = text.slice(0, end);
  const newline = window.lastIndexOf("\n");
  if (newline >= 0 && newline >= end * 0.5) {
    const total = countLines(text);
    const shown = countLines(window.slice(0, newline));
    return { text: window.slice(0, newline), lines: { shown, total } };
  }
  const space = Math.max(window.lastIndexOf(" "), window.lastIndexOf(","));
  if (space >= end * 0.8) return { text: window.slice(0, space + 1) };
  return { text: window };
}

function countLines(text: string): number {
  let lines = text.length > 0 ? 1 : 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  if (text.endsWith("\n")) lines--;
  return lines;
}

type Path = (string | number)[];

/** The answer's main list: the root array, or the largest array one or two levels down. */
export function findMainArray(value: unknown): { path: Path; array: unknown[] } | undefined {
  if (Array.isArray(value)) return { path: [], array: value };
  if (!isRecord(value)) return undefined;
  let best: { path: Path; array: unknown[]; size: number } | undefined;
  const consider = (path: Path, array: unknown[]) => {
    if (array.length === 0) return;
    const size = JSON.stringify(array).length;
    if (!best || size > best.size) best = { path, array, size };
  };
  for (const [key, child] of Object.entries(value)) {
    if (Array.isArray(child)) consider([key], child);
    else if (isRecord(child)) {
      for (const [inner, grandchild] of Object.entries(child)) {
        if (Array.isArray(grandchild)) consider([key, inner], grandchild);
      }
    }
  }
  return best ? { path: best.path, array: best.array } : undefined;
}

function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const record = value as Record<string, unknown>;
  return { ...record, [head as string]: replaceAt(record[head as string], rest, replacement) };
}

function formatPath(path: Path): string {
  return path.map((s) => String(s)).join(".");
}

interface PruneLevel {
  items: number;
  chars: number;
  keys: number;
  depth: number;
}

const PRUNE_LEVELS: PruneLevel[] = [
  { items: Number.POSITIVE_INFINITY, chars: 2000, keys: Number.POSITIVE_INFINITY, depth: 64 },
  { items: 50, chars: 500, keys: 200, depth: 32 },
  { items: 10, chars: 200, keys: 50, depth: 16 },
  { items: 3, chars: 100, keys: 20, depth: 8 },
  { items: 1, chars: 50, keys: 10, depth: 4 },
  { items: 0, chars: 20, keys: 5, depth: 2 },
];

/** The same JSON with lists, strings and objects shortened; types are kept. */
function prune(value: unknown, level: PruneLevel, depth: number): unknown {
  if (typeof value === "string") {
    return value.length > level.chars ? `${value.slice(0, level.chars)}…` : value;
  }
  if (Array.isArray(value)) {
    if (depth >= level.depth) return [];
    return value.slice(0, level.items).map((item) => prune(item, level, depth + 1));
  }
  if (isRecord(value)) {
    if (depth >= level.depth) return {};
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value).slice(0, level.keys)) {
      out[key] = prune(child, level, depth + 1);
    }
    return out;
  }
  return value;
}

function estimateMarker(
  options: FitOptions,
  body: unknown,
  originalChars: number,
  main: { path: Path; array: unknown[] } | undefined,
): number {
  const total = main?.array.length ?? 0;
  const hint = describeContinuation(
    options,
    body,
    main ? { shown: Math.max(0, total - 1), total, last: main.array[total - 1] } : undefined,
  );
  const probe: Truncation = {
    truncated: true,
    originalChars,
    shownChars: originalChars,
    budget: options.budget,
    ...(main ? { items: { path: formatPath(main.path), shown: total, total } } : {}),
    lines: { shown: originalChars, total: originalChars },
  };
  // + room for next values longer than the probe's (cursors) and the newline
  return (
    formatMarker(probe, howToContinue(options, hint, options.keep ? PROBE_HANDLE : undefined, true)).length +
    200
  );
}

/** A handle as long as any: room for it in the marker. */
const PROBE_HANDLE = `${"x".repeat(22)}.999999999.999999999999`;

function keepAnswer(options: FitOptions, answer: KeptAnswer): string | undefined {
  const { keep } = options;
  if (!keep) return undefined;
  const { scrub } = keep;
  return keep.store.keep(
    keep.owner,
    scrub ? { ...answer, units: answer.units.map((unit) => scrub(unit)) } : answer,
  );
}

/**
 * What the marker says to get the rest: the handle that reads it from the bridge when the
 * answer is kept (then paging is only an alternative to say when it names arguments), else the
 * operation's paging or narrowing arguments.
 */
function howToContinue(
  options: FitOptions,
  hint: { text: string; next?: Record<string, string | number> },
  handle: string | undefined,
  fromStart = false,
): string {
  const { keep } = options;
  if (!keep) return hint.text;
  const fields = keep.fieldsHint ? ` ${keep.fieldsHint}` : "";
  if (handle === undefined) {
    return `${hint.text} (The answer is too large for the bridge to keep for reading in parts.)${fields}`;
  }
  const what = fromStart
    ? "The whole answer is kept: read it in parts from the start"
    : "The rest is kept: read it";
  // The API's own paging stays an alternative worth saying when it names the arguments.
  const paging =
    hint.next !== undefined && options.tool !== undefined
      ? ` Or from the API: ${hint.text.charAt(0).toLowerCase()}${hint.text.slice(1)}`
      : "";
  // Without an operation (a program's value) its own advice follows: return less next time.
  const more = options.tool === undefined && options.continuation ? ` ${options.continuation}` : "";
  return `${what} with ${keep.continueText(handle)} (nothing is sent or run again).${paging}${fields}${more}`;
}

function formatMarker(truncation: Truncation, how: string): string {
  const parts = [
    `[Truncated by the bridge: the answer has ${formatCount(truncation.originalChars)} characters, more than the ${formatCount(truncation.budget)} a result may hold.`,
  ];
  if (truncation.items) {
    const of = truncation.items.path ? ` of \`${truncation.items.path}\`` : "";
    parts.push(
      `Showing ${formatCount(truncation.items.shown)} of ${formatCount(truncation.items.total)} items${of} (whole items, in order); ${formatCount(truncation.items.total - truncation.items.shown)} items were cut.`,
    );
  } else if (truncation.lines) {
    parts.push(
      `Showing the first ${formatCount(truncation.lines.shown)} of ${formatCount(truncation.lines.total)} lines (${formatCount(truncation.originalChars - truncation.shownChars)} characters cut).`,
    );
  } else if (truncation.shortened) {
    parts.push("Long lists, strings and objects inside it were shortened (a cut string ends in …).");
  } else {
    parts.push(`Showing the first ${formatCount(truncation.shownChars)} characters.`);
  }
  parts.push(how);
  return `${parts.join(" ")}]`;
}

const code = (name: string) => `\`${name}\``;

function currentNumber(
  args: Record<string, unknown> | undefined,
  argument: string | undefined,
): number | undefined {
  if (!args || argument === undefined) return undefined;
  const value = args[argument];
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^\d+$/.test(value)
        ? Number(value)
        : undefined;
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

function idOf(item: unknown): string | number | undefined {
  if (!isRecord(item)) return undefined;
  const id = item.id ?? item.ID ?? item.Id;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

const AFTER_ID = new Set(["startingafter", "after", "startafter", "afterid", "sinceid"]);

/**
 * How to get what was cut, for the marker, and the arguments to pass (`next`). `items` is
 * set when a list was cut to its first `shown` items.
 */
export function describeContinuation(
  options: FitOptions,
  body: unknown,
  items: { shown: number; total: number; last: unknown } | undefined,
): { text: string; next?: Record<string, string | number> } {
  const { tool, args } = options;
  if (tool === undefined) return { text: options.continuation ?? "" };
  const paging = findPaginationArguments(tool);
  const role = (r: PaginationArgument["role"]) => paging.find((p) => p.role === r);
  const page = role("page");
  const size = role("size");
  const offset = role("offset");
  const cursor = role("cursor");
  const nextPage = findNextPage(tool, options.headers ?? {}, body);
  const again = (next: Record<string, string | number>) =>
    `call again with ${JSON.stringify(next)} (other arguments unchanged)`;

  if (items && items.shown < items.total) {
    const n = items.shown;
    if (offset) {
      const next: Record<string, string | number> = {
        [offset.argument]: (currentNumber(args, offset.argument) ?? 0) + n,
      };
      if (size) next[size.argument] = n;
      return {
        text: `To get the rest, ${again(next)}${size ? `; ${code(size.argument)} = ${n} keeps each answer within the limit` : ""}.`,
        next,
      };
    }
    if (
      cursor &&
      AFTER_ID.has(cursor.name.toLowerCase().replace(/[_-]/g, "")) &&
      idOf(items.last) !== undefined
    ) {
      const next: Record<string, string | number> = { [cursor.argument]: idOf(items.last)! };
      if (size) next[size.argument] = n;
      return { text: `To get the rest, ${again(next)}: it continues after the last item shown.`, next };
    }
    if (page && size) {
      const current = currentNumber(args, page.argument) ?? 1;
      const pageSize = items.total;
      const firstCut = (current - 1) * pageSize + n;
      if (firstCut % n === 0) {
        const next = { [size.argument]: n, [page.argument]: firstCut / n + 1 };
        return {
          text: `To get the rest, ${again(next)}: pages of ${n} fit within the limit, and that page starts right after the last item shown.`,
          next,
        };
      }
      return {
        text: `To get the rest, ask for smaller pages (${code(size.argument)} = ${n} fit within the limit) and go on from item ${firstCut + 1} of the whole list.`,
      };
    }
    if (size && nextPage && Object.keys(nextPage.arguments).length > 0) {
      const next = { ...nextPage.arguments, [size.argument]: n };
      return {
        text: `The API's paging reaches the cut items only with smaller pages (${code(size.argument)} = ${n}) from the start; the next page: ${again(next)} (from ${nextPage.source}).`,
        next,
      };
    }
    if (size) {
      const next = { [size.argument]: n };
      return {
        text: `To see fewer items at once, ${again(next)}; this operation has no argument to skip the first items, so narrow the request${narrowing(tool)} to reach the others.`,
        next,
      };
    }
    if (page) {
      const next = { [page.argument]: (currentNumber(args, page.argument) ?? 1) + 1 };
      return {
        text: `The API's paging does not reach the cut items of this page (this operation has no page-size argument); a narrower request${narrowing(tool)} does. The next page: ${again(next)}.`,
        next,
      };
    }
  }
  if (nextPage) {
    if (nextPage.unmapped !== undefined) {
      return {
        text: `The API says the next page is ${JSON.stringify(nextPage.unmapped)} (${nextPage.source}), but this tool has no argument to pass it; narrow the request${narrowing(tool)} instead.`,
      };
    }
    return {
      text: `To get less at once, narrow the request${narrowing(tool)}; the next page: ${again(nextPage.arguments)} (from ${nextPage.source}).`,
      next: nextPage.arguments,
    };
  }
  if (paging.length > 0) {
    return {
      text: `To get less at once, use this operation's pagination arguments (${paging.map((p) => code(p.argument)).join(", ")}) or narrow the request${narrowing(tool)}.`,
    };
  }
  const narrow = findNarrowingArguments(tool);
  return {
    text:
      narrow.length > 0
        ? `This operation has no pagination arguments; narrow the request${narrowing(tool)} to get less at once.`
        : "This operation has no argument to page or narrow its answer, so the cut part cannot be fetched through this tool.",
  };
}

/** ` with its arguments (`q`, `state`)`, or nothing when it has none. */
function narrowing(tool: ToolNode): string {
  const names = findNarrowingArguments(tool).slice(0, 6);
  return names.length > 0 ? ` with its arguments (${names.map(code).join(", ")})` : "";
}
