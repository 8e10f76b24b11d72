/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) carried by a tools/call request's
 * `_meta` (`traceparent`, `tracestate`: keys MCP 2026-07-28 reserves for it, and which 2025-era
 * clients send too) and passed on as the two HTTP headers of the API request(s) the call makes.
 * Without telemetry the bridge takes no part in the trace (it starts no span of its own): it
 * forwards what it got, once checked; with it (telemetry/), the context is its spans' parent and
 * each attempt's span is the API's. A value that breaks the format is dropped, never forwarded, since a downstream
 * tracer may trust what it receives; `baggage` is not forwarded (application data, often about
 * the user, that the API has no need of).
 */

/** The trace context one call forwards. */
export interface TraceContext {
  /** `00-<trace-id>-<parent-id>-<flags>`, exactly as the client sent it (version 00), or its first 55 characters. */
  traceparent: string;
  /** The 32 hex digits that name the trace (the audit line's `traceId`). */
  traceId: string;
  /** Sent only with a valid traceparent, and only when every member is valid. */
  tracestate?: string;
}

/** Length of a version-00 traceparent, and of what any later version starts with. */
const TRACEPARENT_LENGTH = 55;
/** The longest text looked at before parsing: a later version may append fields, not kilobytes. */
const MAX_TRACEPARENT_CHARS = 256;
/** List members in a tracestate (W3C: at most 32). */
const MAX_TRACESTATE_MEMBERS = 32;
/** Characters of tracestate forwarded (W3C: propagate at least 512; members over 128 go first). */
export const MAX_TRACESTATE_CHARS = 512;
const LONG_MEMBER_CHARS = 128;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
// key = simple-key / multi-tenant-key; value = 0*255(chr) nblk-chr (no `,` or `=`; no trailing space).
const SIMPLE_KEY = "[a-z][a-z0-9_\\-*/]{0,255}";
const TENANT_KEY = "[a-z0-9][a-z0-9_\\-*/]{0,240}@[a-z][a-z0-9_\\-*/]{0,13}";
const VALUE = "[\\x20-\\x2b\\x2d-\\x3c\\x3e-\\x7e]{0,255}[\\x21-\\x2b\\x2d-\\x3c\\x3e-\\x7e]";
const MEMBER = new RegExp(`^(${SIMPLE_KEY}|${TENANT_KEY})=(${VALUE})$`);

/**
 * The trace context of a request's `_meta`, or undefined when it has no valid traceparent.
 * A tracestate is kept only next to a valid traceparent (W3C: never parse it otherwise).
 */
export function readTraceContext(meta: Record<string, unknown> | undefined): TraceContext | undefined {
  if (meta === undefined) return undefined;
  const parent = parseTraceparent(meta.traceparent);
  if (parent === undefined) return undefined;
  const state = parseTracestate(meta.tracestate);
  return state === undefined ? parent : { ...parent, tracestate: state };
}

/**
 * A traceparent checked as W3C says: version `ff` is invalid; version 00 is exactly 55
 * characters; a later version starts with the 00 fields and, if longer, a `-` after them
 * (only those 55 characters are forwarded: the fields the bridge can vouch for). All-zero
 * trace and parent ids are invalid; hex is lower case.
 */
export function parseTraceparent(value: unknown): Omit<TraceContext, "tracestate"> | undefined {
  if (typeof value !== "string" || value.length > MAX_TRACEPARENT_CHARS) return undefined;
  const trimmed = value.trim();
  if (trimmed.length < TRACEPARENT_LENGTH) return undefined;
  const version = trimmed.slice(0, 2);
  if (version === "00" && trimmed.length !== TRACEPARENT_LENGTH) return undefined;
  if (trimmed.length > TRACEPARENT_LENGTH && trimmed[TRACEPARENT_LENGTH] !== "-") return undefined;
  const head = trimmed.slice(0, TRACEPARENT_LENGTH);
  const match = TRACEPARENT.exec(head);
  if (match === null || version === "ff") return undefined;
  const [, , traceId, parentId] = match as unknown as [string, string, string, string, string];
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return { traceparent: head, traceId };
}

/**
 * A tracestate with every member valid and no key twice, cut to MAX_TRACESTATE_CHARS the way
 * W3C advises (members over 128 characters dropped first, then from the right); anything else
 * (a bad member, a repeated key, over 32 members, not a string) is dropped whole.
 */
export function parseTracestate(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > MAX_TRACESTATE_MEMBERS * 520) return undefined;
  const members: string[] = [];
  const keys = new Set<string>();
  for (const raw of value.split(",")) {
    const member = raw.replace(/^[ \t]+|[ \t]+$/g, "");
    if (member === "") continue; // empty list members are allowed and ignored
    const match = MEMBER.exec(member);
    if (match === null) return undefined;
    const key = match[1]!;
    if (keys.has(key)) return undefined;
    keys.add(key);
    members.push(member);
  }
  if (members.length === 0 || members.length > MAX_TRACESTATE_MEMBERS) return undefined;
  let kept = members;
  const length = (list: string[]) => list.join(",").length;
  if (length(kept) > MAX_TRACESTATE_CHARS) kept = kept.filter((member) => member.length <= LONG_MEMBER_CHARS);
  while (kept.length > 0 && length(kept) > MAX_TRACESTATE_CHARS) kept = kept.slice(0, -1);
  return kept.length > 0 ? kept.join(",") : undefined;
}

/**
 * The trace headers of one upstream request: added only where the request has no header of
 * that name yet, so an operator's `--header traceparent: ...` (or the operation's own
 * parameter of that name) is what goes out.
 */
export function addTraceHeaders(headers: Record<string, string>, trace: TraceContext | undefined): void {
  if (trace === undefined || Object.hasOwn(headers, "traceparent")) return;
  headers.traceparent = trace.traceparent;
  if (trace.tracestate !== undefined && !Object.hasOwn(headers, "tracestate")) {
    headers.tracestate = trace.tracestate;
  }
}
