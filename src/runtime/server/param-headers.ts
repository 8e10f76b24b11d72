/**
 * The server's side of `Mcp-Param-*` headers (MCP 2026-07-28, Streamable HTTP "Server Behavior
 * for Custom Headers"): a tools/call of a tool whose input schema marks arguments with
 * `x-mcp-header` (generator/compile/mcp-headers.ts) must carry each given argument's value in
 * its header too, and the two must agree; otherwise the request is refused (400, -32020) before
 * anything runs, since a gateway may have routed it on the header while the bridge would act on
 * the body. The SDK does this check for its high-level McpServer only; the bridge serves raw
 * JSON Schema tools on the low-level Server, so it checks here.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isRecord } from "../../model/records.js";
import type { BridgeModel, JsonSchema } from "../../model/types.js";

/** The JSON-RPC code of a header that disagrees with the body (HeaderMismatch). */
export const HEADER_MISMATCH_CODE = -32020;

/** The schema keyword that marks a mirrored argument. */
const MCP_HEADER_KEYWORD = "x-mcp-header";
const BASE64_PREFIX = "=?base64?";
const BASE64_SUFFIX = "?=";
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** One mirrored argument: its name in the arguments, its header's name part, its type. */
export interface ParamHeader {
  argument: string;
  header: string;
  type: string;
}

/** A refusal: the request's id (echoed) and what disagreed. */
export interface ParamHeaderMismatch {
  id: string | number | null;
  message: string;
  data: { mismatch: { header: string; body: string } };
}

/**
 * The mirrored arguments of an input schema: its top-level properties with `x-mcp-header` (the
 * only place the planner puts it).
 */
export function listParamHeaders(schema: JsonSchema): ParamHeader[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const found: ParamHeader[] = [];
  for (const [argument, property] of Object.entries(properties)) {
    if (!isRecord(property) || typeof property[MCP_HEADER_KEYWORD] !== "string") continue;
    found.push({
      argument,
      header: property[MCP_HEADER_KEYWORD],
      type: typeof property.type === "string" ? property.type : "string",
    });
  }
  return found;
}

const headersByModel = new WeakMap<BridgeModel, Map<string, ParamHeader[]>>();

/** The mirrored arguments of each of a model's tools that has any (once per model). */
function paramHeadersOf(model: BridgeModel): Map<string, ParamHeader[]> {
  let byTool = headersByModel.get(model);
  if (byTool === undefined) {
    byTool = new Map();
    for (const tool of model.tools) {
      const headers = listParamHeaders(tool.inputSchema);
      if (headers.length > 0) byTool.set(tool.name, headers);
    }
    headersByModel.set(model, byTool);
  }
  return byTool;
}

/**
 * Why a 2026-07-28 request body (one JSON-RPC request) must be refused for its `Mcp-Param-*`
 * headers, or undefined. Only a tools/call of a tool the model serves as a tool (tools mode)
 * is looked at.
 */
export function findParamHeaderMismatch(
  model: BridgeModel,
  body: unknown,
  headers: IncomingHttpHeaders,
): ParamHeaderMismatch | undefined {
  if (!isRecord(body) || body.method !== "tools/call" || !isRecord(body.params)) return undefined;
  const { name } = body.params;
  const declared = typeof name === "string" ? paramHeadersOf(model).get(name) : undefined;
  if (declared === undefined) return undefined;
  const id = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
  const args = isRecord(body.params.arguments) ? body.params.arguments : {};
  for (const param of declared) {
    const problem = compareParamHeader(param, args[param.argument], headers);
    if (problem !== undefined) {
      const header = `Mcp-Param-${param.header}`;
      return {
        id,
        message: `Bad Request: the ${header} header and the body disagree: ${problem}`,
        data: { mismatch: { header, body: `arguments.${param.argument}` } },
      };
    }
  }
  return undefined;
}

/** What is wrong with one mirrored argument's header, or undefined when it matches the body. */
export function compareParamHeader(
  param: ParamHeader,
  value: unknown,
  headers: IncomingHttpHeaders,
): string | undefined {
  const bodyText = toHeaderText(value);
  // null, absent or not a primitive: no header is expected, and one that came is not looked at.
  if (bodyText === undefined) return undefined;
  const raw = headers[`mcp-param-${param.header.toLowerCase()}`];
  if (raw === undefined) return `the body gives ${param.argument} but the header is missing`;
  if (Array.isArray(raw)) return "the header is sent more than once";
  const decoded = decodeHeaderValue(raw.trim());
  if (decoded === undefined) return "the header's Base64 value is not valid";
  const same =
    (param.type === "integer" || param.type === "number") &&
    typeof value === "number" &&
    DECIMAL.test(decoded)
      ? Number(decoded) === value
      : decoded === bodyText;
  return same ? undefined : `the header says ${JSON.stringify(decoded)}, the body ${JSON.stringify(value)}`;
}

/** A primitive argument as its header carries it (strings as they are, numbers in decimal). */
function toHeaderText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A header value, decoded when it has the `=?base64?…?=` form; undefined when that is broken. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) return value;
  const payload = value.slice(BASE64_PREFIX.length, value.length - BASE64_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(payload, "base64"));
  } catch {
    return undefined;
  }
}
