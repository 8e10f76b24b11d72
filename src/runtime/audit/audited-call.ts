/**
 * One audit line per tool call, around the call: the tool's (or, through call_operation, the
 * operation's) name, its arguments redacted, the upstream status and attempts the call
 * gathered, its duration and outcome. A bridge runtime audits the calls of its operations; a
 * bridge of several APIs audits its own discovery tools (search and describe span every API)
 * with the same code.
 */
import { type CallToolResult, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { JsonSchema } from "../../model/types.js";
import { ERROR_META_KEY } from "../results/error-result.js";
import { type AuditEntry, type AuditLog, type ConfirmationStep, redactArguments } from "./audit-log.js";

/** What one call gathers on its way: secrets to redact, and facts for the audit log. */
export interface CallState {
  secrets: string[];
  status?: number;
  attempts?: number;
  /** `--destructive confirm`: what became of the user's confirmation (access/confirm.ts). */
  confirmation?: ConfirmationStep;
  /** The W3C trace id the client sent with the call (`_meta.traceparent`). */
  traceId?: string;
  /** Who called: the access token's subject, when the OAuth front door verified one. */
  subject?: string;
}

/** `subject`: who calls (the OAuth front door's token subject), for the line. */
export type AuditedCall = (
  name: string,
  rawArgs: unknown,
  run: (call: CallState) => Promise<CallToolResult>,
  subject?: string,
) => Promise<CallToolResult>;

export interface CallAuditorOptions {
  audit: AuditLog | undefined;
  /** The input schema of a tool, for redaction by `format: password`; undefined when unknown. */
  schemaOf(name: string): JsonSchema | undefined;
  /** Every secret to redact from the call's arguments, this call's own included. */
  secretsOf(call: CallState): string[];
  /** The API the calls go to, when the bridge serves several: its namespace. */
  api?: string;
}

/** Runs a call with its audit line (nothing is written without an audit log). */
export function createCallAuditor(options: CallAuditorOptions): AuditedCall {
  const { audit } = options;
  return async (name, rawArgs, run, subject) => {
    const call: CallState = { secrets: [], ...(subject !== undefined ? { subject } : {}) };
    if (!audit) return run(call);
    const time = new Date().toISOString();
    const started = performance.now();
    const log = (outcome: AuditEntry["outcome"], category?: string) => {
      audit.write({
        time,
        ...(options.api !== undefined ? { api: options.api } : {}),
        tool: name,
        arguments: redactArguments(rawArgs ?? {}, options.schemaOf(name), options.secretsOf(call)),
        ...(call.status !== undefined ? { status: call.status } : {}),
        ...(call.attempts !== undefined ? { attempts: call.attempts } : {}),
        durationMs: Math.round(performance.now() - started),
        outcome,
        ...(category !== undefined ? { category } : {}),
        ...(call.confirmation !== undefined ? { confirmation: call.confirmation } : {}),
        ...(call.traceId !== undefined ? { traceId: call.traceId } : {}),
        ...(call.subject !== undefined ? { subject: call.subject } : {}),
      });
    };
    let result: CallToolResult;
    try {
      result = await run(call);
    } catch (error) {
      log(
        "error",
        error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams
          ? "unknown_tool"
          : "internal",
      );
      throw error;
    }
    const facts = result._meta?.[ERROR_META_KEY] as { category?: unknown } | undefined;
    // Asked and not yet answered (2026-07-28): neither done nor failed, and nothing was sent.
    if (call.confirmation === "asked") log("pending");
    else if (result.isError) log("error", typeof facts?.category === "string" ? facts.category : "error");
    else log("ok");
    return result;
  };
}
