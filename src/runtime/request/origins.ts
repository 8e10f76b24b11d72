/**
 * Where calls go, and which of them carry the operator's credentials. The API's origin is
 * `--base-url`'s, else that of the document's first server: credentials (static, OAuth2,
 * pass-through) and `--header` values go there, and to the origins the operator trusts with
 * `--trust-origin`, only. An operation or path item whose own `servers` name another origin is
 * still served, without any of them: a spec cannot send an `x-api-key` to a host of its choice.
 */
import type { BridgeModel, ServerNode } from "../../model/types.js";
import { resolveBaseUrl } from "./build-request.js";

export interface OriginPolicy {
  /** The API's origin, or undefined when its server URL cannot be resolved (then nothing is credentialed). */
  apiOrigin: string | undefined;
  /** Whether credentials and configured headers may be sent to this origin. */
  allows(origin: string): boolean;
}

export interface OriginInputs {
  baseUrl?: string;
  serverVariables?: Record<string, string>;
  /** More origins (`https://host:port`) trusted with the credentials. */
  trustedOrigins?: string[];
}

export function createOriginPolicy(model: BridgeModel, inputs: OriginInputs): OriginPolicy {
  const apiOrigin = originOf(model.servers, inputs);
  const trusted = new Set((inputs.trustedOrigins ?? []).flatMap((text) => normaliseOrigin(text) ?? []));
  if (apiOrigin !== undefined) trusted.add(apiOrigin);
  return { apiOrigin, allows: (origin) => trusted.has(origin) };
}

/** `https://Host:443/x` → `https://host`; undefined for what is not an http(s) URL. */
export function normaliseOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function originOf(servers: ServerNode[], inputs: OriginInputs): string | undefined {
  const base = resolveBaseUrl(servers, inputs.baseUrl, inputs.serverVariables);
  return "url" in base ? new URL(base.url).origin : undefined;
}

/**
 * The origins the tools' calls go to, for the start-up line: the API's first, then each other
 * one with how many tools go there and whether they get the credentials.
 * `calls go to https://api.example.com; https://files.example.com (2 tools, without credentials)`.
 */
export function describeCallOrigins(model: BridgeModel, inputs: OriginInputs): string {
  const policy = createOriginPolicy(model, inputs);
  const counts = new Map<string, number>();
  // Most tools share the document's servers: each list is resolved once.
  const originsOf = new Map<ServerNode[], string | undefined>();
  let unresolved = 0;
  for (const tool of model.tools) {
    const servers = tool.http.servers ?? model.servers;
    if (!originsOf.has(servers)) originsOf.set(servers, originOf(servers, inputs));
    const origin = originsOf.get(servers);
    if (origin === undefined) unresolved++;
    else counts.set(origin, (counts.get(origin) ?? 0) + 1);
  }
  const parts: string[] = [];
  if (policy.apiOrigin !== undefined) parts.push(policy.apiOrigin);
  for (const [origin, count] of counts) {
    if (origin === policy.apiOrigin) continue;
    const tools = `${count} tool${count === 1 ? "" : "s"}`;
    parts.push(`${origin} (${tools}, ${policy.allows(origin) ? "trusted" : "without credentials"})`);
  }
  if (unresolved > 0) parts.push(`no usable server URL for ${unresolved} tool${unresolved === 1 ? "" : "s"}`);
  return parts.length === 0 ? "calls go nowhere (no tools)" : `calls go to ${parts.join("; ")}`;
}
