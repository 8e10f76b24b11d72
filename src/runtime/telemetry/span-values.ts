/**
 * The values spans and metrics carry, made so that none is a secret or unbounded: URLs without
 * their query values (where API keys travel) and with every configured secret scrubbed,
 * outcomes and status classes from short fixed lists, W3C trace ids in and out.
 */
import { ERROR_META_KEY } from "../results/error-result.js";
import { createScrubber, REDACTED } from "../results/redact-secrets.js";

/** A W3C traceparent's parts (request/trace-context.ts checked it). */
export interface ParentIds {
  traceId: string;
  spanId: string;
  /** The trace flags byte (01: sampled). */
  flags: number;
}

/** The ids of a checked version-00 traceparent (`00-<trace>-<parent>-<flags>`). */
export function toParentIds(traceparent: string): ParentIds {
  return {
    traceId: traceparent.slice(3, 35),
    spanId: traceparent.slice(36, 52),
    flags: Number.parseInt(traceparent.slice(53, 55), 16),
  };
}

/** The traceparent that names a span as the parent of what it calls. */
export function toTraceparent(ids: ParentIds): string {
  return `00-${ids.traceId}-${ids.spanId}-${(ids.flags & 0xff).toString(16).padStart(2, "0")}`;
}

/**
 * `url.full` as OpenTelemetry's HTTP conventions want it, made safe: every query value is
 * [REDACTED] (API keys, signatures and tokens travel there, and so does user input), and every
 * form of every secret the call knows is scrubbed from what is left.
 */
export function toSafeUrl(origin: string, path: string, secrets: readonly string[] = []): string {
  const question = path.indexOf("?");
  const bare = question < 0 ? path : path.slice(0, question);
  let query = "";
  if (question >= 0) {
    const names = path
      .slice(question + 1)
      .split("&")
      .filter((pair) => pair !== "")
      .map((pair) => {
        const equals = pair.indexOf("=");
        return `${equals < 0 ? pair : pair.slice(0, equals)}=${REDACTED}`;
      });
    query = names.length > 0 ? `?${names.join("&")}` : "";
  }
  return createScrubber(secrets)(`${stripUserinfo(origin)}${bare}${query}`);
}

/** An origin never carries credentials in this runtime; should one, they go. */
function stripUserinfo(origin: string): string {
  return origin.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1");
}

/** The host and port of an origin (`server.address`, `server.port`). */
export function toServerFacts(origin: string): { address: string; port?: number } {
  try {
    const url = new URL(origin);
    const address = url.hostname.replace(/^\[|\]$/g, "");
    const port = url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    return { address, port };
  } catch {
    return { address: "unknown" };
  }
}

/** `2xx`, `4xx` ... for an answer; for a failure, what kind (network, timeout, cancelled, local). */
export function toStatusClass(outcome: { status: number } | { failure: { kind: string } }): string {
  if ("status" in outcome) return `${Math.floor(outcome.status / 100)}xx`;
  const { kind } = outcome.failure;
  if (kind === "connect" || kind === "network") return "network";
  return kind;
}

/**
 * A result's outcome: `ok`, or its error category (results/error-result.ts: a short fixed
 * list), `error` for an error result without one.
 */
export function toOutcome(result: unknown): string {
  if (typeof result !== "object" || result === null) return "ok";
  const { isError, _meta } = result as { isError?: unknown; _meta?: Record<string, unknown> };
  if (isError !== true) return "ok";
  const category = (_meta?.[ERROR_META_KEY] as { category?: unknown } | undefined)?.category;
  return typeof category === "string" && /^[a-z_]{1,40}$/.test(category) ? category : "error";
}
