/**
 * Long-running operations: an operation whose answer says "accepted, still running" and names
 * where to follow it. Read from the spec: a 202 response; a `Location`, `Operation-Location` or
 * `Azure-AsyncOperation` header on a 201 or 202 (Azure's and Microsoft Fabric's pattern, RFC
 * 9110 §15.3.3); Azure's `x-ms-long-running-operation` with its `final-state-via`; or a link of
 * an accepted answer to an operation that reads a status (OpenAPI 3 §4.8.20). Callbacks alone do
 * not count: the API calls a URL back, which a bridge cannot receive, and nothing is to be polled.
 */
import { isRecord } from "../../model/records.js";
import type { LongRunningNode } from "../../model/types.js";
import { STATUS_HEADER_ORDER as STATUS_HEADERS } from "../../runtime/tasks/status-headers.js";
import { type OperationContext, resolveRefObject } from "./context.js";

const FINAL_STATES = new Set<NonNullable<LongRunningNode["finalStateVia"]>>([
  "location",
  "original-uri",
  "azure-async-operation",
  "operation-location",
]);

/** Words of an operation that reads the state of another one. */
const STATUS_WORDS = /status|operation|job|progress|poll/i;

/** The operation's long-running binding, or undefined when the spec says nothing of one. */
export function planLongRunning(context: OperationContext): LongRunningNode | undefined {
  const { operation, document } = context;
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const declared = operation["x-ms-long-running-operation"] === true;
  let accepted = false;
  const headers = new Set<string>();
  let linked = false;
  for (const [status, raw] of Object.entries(responses)) {
    if (status !== "201" && status !== "202") continue;
    const response = resolveRefObject(document, raw);
    if (status === "202") accepted = true;
    if (!isRecord(response)) continue;
    for (const name of isRecord(response.headers) ? Object.keys(response.headers) : []) {
      const lower = name.toLowerCase();
      if ((STATUS_HEADERS as readonly string[]).includes(lower)) headers.add(lower);
    }
    if (isRecord(response.links) && Object.values(response.links).some((link) => pointsAtStatus(link))) {
      linked = true;
    }
  }
  // A 201 with a Location is a created resource, not a running operation, unless it says more.
  const onlyCreated = !accepted && !declared && !linked && [...headers].every((h) => h === "location");
  if (onlyCreated || (!accepted && !declared && !linked && headers.size === 0)) return undefined;
  const node: LongRunningNode = {
    statusHeaders: STATUS_HEADERS.filter((h) => headers.has(h) || headers.size === 0),
  };
  const finalState = readFinalStateVia(operation["x-ms-long-running-operation-options"]);
  if (finalState !== undefined) node.finalStateVia = finalState;
  return node;
}

function readFinalStateVia(options: unknown): LongRunningNode["finalStateVia"] {
  if (!isRecord(options) || typeof options["final-state-via"] !== "string") return undefined;
  const value = options["final-state-via"].toLowerCase() as NonNullable<LongRunningNode["finalStateVia"]>;
  return FINAL_STATES.has(value) ? value : undefined;
}

/** A link whose target (operationId or operationRef) reads a status, a job or an operation. */
function pointsAtStatus(link: unknown): boolean {
  if (!isRecord(link)) return false;
  const target = typeof link.operationId === "string" ? link.operationId : link.operationRef;
  if (typeof target !== "string") return false;
  try {
    return STATUS_WORDS.test(decodeURIComponent(target));
  } catch {
    return STATUS_WORDS.test(target);
  }
}
