/**
 * The handle of a long-running operation that a result gives the model: what the bridge needs
 * to read its status (the status URL, where the final result is, the tool that started it),
 * sealed with AES-256-GCM: opaque (a status URL the API wrote a token into is not shown, not
 * even encoded) and believed only as the bridge made it (the tag). A model cannot
 * point the bridge (and the credentials it sends) at another URL: the URL is the API's answer,
 * checked to be on the call's own origin before the handle is made, and an altered handle is
 * refused. It is bound to who got it (the session, the OAuth subject or the credential of a
 * stateless request) and expires.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { isRecord } from "../../model/records.js";
import type { LongRunningNode } from "../../model/types.js";

/** How long a handle can be used: a day (operations such as provisioning take hours). */
export const OPERATION_HANDLE_TTL_SECONDS = 24 * 60 * 60;

const PREFIX = "op2.";

export interface OperationPayload {
  /** The tool (operation) that started it. */
  tool: string;
  /** The status URL, absolute. */
  status: string;
  /** The header it came from (`location`, `operation-location`, `azure-asyncoperation`). */
  header: string;
  /** The accepted answer's Location, when it had one beside another status header. */
  location?: string;
  /** The request's URL (final-state-via `original-uri`), for a PUT or PATCH. */
  original?: string;
  finalStateVia?: LongRunningNode["finalStateVia"];
  /** Who may use it (undefined: whoever holds it). */
  owner?: string;
  /** Expiry, epoch seconds. */
  expires: number;
}

// One key per process: handles do not outlive a restart of the bridge (the model starts again).
const key = randomBytes(32);

export function signOperationHandle(payload: Omit<OperationPayload, "expires">, nowMs = Date.now()): string {
  const plain = JSON.stringify({
    ...payload,
    expires: Math.floor(nowMs / 1000) + OPERATION_HANDLE_TTL_SECONDS,
  });
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
}

export type HandleCheck = { payload: OperationPayload } | { refused: string };

/** The payload of a handle made here, for this owner and tool, not expired; else why not. */
export function verifyOperationHandle(
  handle: unknown,
  expect: { tool: string; owner: string | undefined },
  nowMs = Date.now(),
): HandleCheck {
  if (typeof handle !== "string" || !handle.startsWith(PREFIX)) {
    return { refused: "it is not an operation handle: pass the handle a result gave, as it is" };
  }
  const plain = open(handle.slice(PREFIX.length));
  if (plain === undefined) {
    return { refused: "the handle was altered or was not made by this bridge (a restart makes new ones)" };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(plain);
  } catch {
    return { refused: "the handle is malformed" };
  }
  if (!isPayload(payload)) return { refused: "the handle is malformed" };
  if (payload.expires * 1000 < nowMs) return { refused: "the handle has expired" };
  if (payload.tool !== expect.tool)
    return { refused: `the handle is of ${payload.tool}, not of ${expect.tool}` };
  if (payload.owner !== undefined && payload.owner !== expect.owner) {
    return { refused: "the handle was given to another session or user" };
  }
  return { payload };
}

/** The sealed text, or undefined when it is not one this process sealed (the tag fails). */
function open(text: string): string | undefined {
  const bytes = Buffer.from(text, "base64url");
  if (bytes.length < 12 + 16) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

function isPayload(value: unknown): value is OperationPayload {
  return (
    isRecord(value) &&
    typeof value.tool === "string" &&
    typeof value.status === "string" &&
    typeof value.header === "string" &&
    typeof value.expires === "number"
  );
}
