/**
 * The audit log: one JSON line per tool call (time, tool, arguments with secrets redacted,
 * upstream status, attempts, duration, outcome), to a file or stderr. Arguments are redacted by
 * name (password, token, secret, apiKey, ...), by schema (`format: password`) and by value (any
 * configured or fetched secret, in each of its forms, inside any string or key); long strings
 * are cut.
 */
import { createWriteStream, openSync } from "node:fs";
import { followLocalRef } from "../../model/pointer.js";
import type { JsonSchema } from "../../model/types.js";
import { createScrubber, REDACTED } from "../results/redact-secrets.js";

export interface AuditEntry {
  /** ISO 8601, when the call arrived. */
  time: string;
  /** The API's namespace, when the bridge serves several APIs. */
  api?: string;
  tool: string;
  arguments: unknown;
  /** The API's last HTTP status; absent when no request was sent. */
  status?: number;
  /** Upstream attempts made (retries included). */
  attempts?: number;
  durationMs: number;
  /**
   * `ok`, or `error` with the error category (invalid_argument, timeout, unknown_tool, ...), or
   * `pending`: the user was asked to confirm and the answer comes with the client's retry.
   */
  outcome: "ok" | "error" | "pending";
  category?: string;
  /** `--destructive confirm`: asked, accepted, declined, or refused (an answer not to be trusted). */
  confirmation?: ConfirmationStep;
  /** The W3C trace id of the call's `_meta.traceparent`, when it sent a valid one. */
  traceId?: string;
  /** The caller: the subject of the access token the OAuth front door verified (HTTP only). */
  subject?: string;
}

export type ConfirmationStep = "asked" | "accepted" | "declined" | "refused";

/** A line about the bridge itself rather than a call: a hot reload of an API's spec (reload/). */
export interface AuditEvent {
  time: string;
  event: "reload" | "reload_failed";
  /** The API's namespace, when the bridge serves several. */
  api?: string;
  /** The spec file or URL reloaded. */
  source: string;
  /** The catalog served after the event. */
  catalogVersion: string;
  previousVersion?: string;
  /** Changes by severity. */
  changes?: { breaking: number; compatible: number; docs: number };
  /** Tools the reload removed or broke: calls of clients that listed before get "tool changed". */
  broken?: string[];
  /** Why the changed spec is not served. */
  error?: string;
}

export interface AuditLog {
  write(entry: AuditEntry): void;
  /** A line about the bridge itself (a reload); a log without it gets none. */
  writeEvent?(event: AuditEvent): void;
  close(): Promise<void>;
}

export { REDACTED };

const SENSITIVE_NAME =
  /pass(word|wd|phrase)?$|^pwd$|secret|token|api[-_]?key|^key$|authori[sz]ation|credential|private[-_]?key|cookie|session/i;
const MAX_STRING = 500;
const MAX_DEPTH = 32;
const MAX_ITEMS = 100;

/**
 * A JSON-lines audit log to `target`: a file path (appended, mode 0600) or `-` for stderr.
 * Throws when the file cannot be opened for appending.
 */
export function createAuditLog(target: string): AuditLog {
  if (target === "-") {
    const write = (line: AuditEntry | AuditEvent) => {
      process.stderr.write(`${JSON.stringify(line)}\n`);
    };
    return { write, writeEvent: write, close: async () => {} };
  }
  // Opened now, not on the first write: a log that cannot be written must stop the start
  // (the error is thrown here, with the system's reason: EACCES, ENOENT, EISDIR).
  const fd = openSync(target, "a", 0o600);
  const stream = createWriteStream(target, { fd });
  let failed: Error | undefined;
  stream.on("error", (error) => {
    failed ??= error;
    process.stderr.write(`openapi-mcp-bridge: the audit log ${target} cannot be written: ${error.message}\n`);
  });
  const write = (line: AuditEntry | AuditEvent) => {
    if (!failed) stream.write(`${JSON.stringify(line)}\n`);
  };
  return {
    write,
    writeEvent: write,
    close: () =>
      new Promise<void>((resolve) => {
        if (failed || stream.closed) resolve();
        else stream.end(() => resolve());
      }),
  };
}

/** True for argument or property names that usually hold a secret. */
export function isSensitiveName(name: string): boolean {
  return SENSITIVE_NAME.test(name);
}

/**
 * A copy of `value` safe to log: sensitive names and `format: password` values replaced,
 * secrets (every form, secret-forms.ts) inside strings replaced, strings over 500 characters and arrays over 100 items cut.
 */
export function redactArguments(value: unknown, schema: JsonSchema | undefined, secrets: string[]): unknown {
  const root = schema;
  const redact = createScrubber(secrets);
  const scrub = (text: string) => {
    const out = redact(text);
    return out.length > MAX_STRING ? `${out.slice(0, MAX_STRING)}…[${out.length} characters]` : out;
  };
  const resolve = (node: unknown): Record<string, unknown> | undefined => {
    const target = followLocalRef(root, node);
    return typeof target === "object" && target !== null ? (target as Record<string, unknown>) : undefined;
  };
  const walk = (node: unknown, nodeSchema: unknown, depth: number): unknown => {
    const s = resolve(nodeSchema);
    if (s?.["format"] === "password") return REDACTED;
    if (typeof node === "string") return scrub(node);
    if (typeof node !== "object" || node === null) return node;
    if (depth >= MAX_DEPTH) return "[…]";
    if (Array.isArray(node)) {
      const items = node.slice(0, MAX_ITEMS).map((item) => walk(item, s?.["items"], depth + 1));
      if (node.length > MAX_ITEMS) items.push(`…[${node.length} items]`);
      return items;
    }
    const properties = (s?.["properties"] ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = Object.create(null); // a `__proto__` key stays a plain key
    for (const [key, item] of Object.entries(node)) {
      const safeKey = scrub(key);
      if (isSensitiveName(key)) out[safeKey] = REDACTED;
      else {
        const childSchema = Object.hasOwn(properties, key) ? properties[key] : s?.["additionalProperties"];
        out[safeKey] = walk(item, childSchema, depth + 1);
      }
    }
    return out;
  };
  return walk(value, schema, 0);
}
