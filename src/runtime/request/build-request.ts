/**
 * Model + arguments → one HTTP request: URL (server + path template + query), headers,
 * cookies and body, exactly as the operation's parameters describe them.
 */
import type { SecuritySchemeNode, ServerNode, ToolNode } from "../../model/types.js";
import { applyCredentials } from "../auth/credentials.js";
import { ArgumentError } from "./argument-error.js";
import { encodeBody, encodeEmptyBody } from "./body.js";
import { withConstantValues } from "./constant-values.js";
import {
  buildQueryString,
  fillPathTemplate,
  serializeCookieParameter,
  serializeHeaderParameter,
} from "./params.js";
import { addTraceHeaders, type TraceContext } from "./trace-context.js";

export interface OutgoingRequest {
  method: string;
  /** `https://host:port`, the only origin this request (and its credentials) may go to. */
  origin: string;
  /** Path and query exactly as sent: never re-parsed, so no dot segment is resolved away. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | FormData;
  /** Schemes the operation asks for that have no configured credential. */
  missingCredentials: string[];
}

export interface RequestContext {
  /** Absolute base URL (server URL with variables applied), no trailing slash. */
  baseUrl: string;
  securitySchemes: Record<string, SecuritySchemeNode>;
  credentials: Map<string, string>;
  /** Static headers from `--header`, lower-cased names. */
  headers: Record<string, string>;
  /** The call's W3C trace context (from its `_meta`): sent unless a header of that name is set. */
  trace?: TraceContext;
}

export function buildRequest(
  tool: ToolNode,
  given: Record<string, unknown>,
  context: RequestContext,
): OutgoingRequest {
  const { http } = tool;
  const { parameters: declared, args } = withConstantValues(tool, given);
  const { path: template, query: literalQuery } = splitTemplate(withoutFragment(http.path));
  const filled = fillPathTemplate(template, declared, args);
  refuseDotSegments(filled, tool);
  const base = parseBaseUrl(context.baseUrl);
  const path = joinPaths(base.pathname, filled);
  const credentials = applyCredentials(http.security, context.securitySchemes, context.credentials);
  // A spec may also declare its API key as a plain parameter: the configured credential is
  // sent once, in its place, rather than next to the argument's value.
  const credentialQuery = new Set(credentials.query.map((pair) => pairName(pair)));
  const credentialCookies = new Set(credentials.cookies.map((pair) => pairName(pair)));
  const parameters = declared.filter(
    (b) =>
      !(b.in === "query" && credentialQuery.has(b.name)) &&
      !(b.in === "cookie" && credentialCookies.has(b.name)),
  );
  const queryParts: string[] = [];
  if (literalQuery !== "") queryParts.push(literalQuery);
  const query = buildQueryString(parameters, args);
  if (query !== "") queryParts.push(query);

  const headers: Record<string, string> = { ...context.headers };
  const cookies: string[] = [];
  for (const binding of parameters) {
    const value = args[binding.argument];
    if (value === undefined || value === null) continue;
    if (binding.in === "header") {
      headers[binding.name.toLowerCase()] = serializeHeaderParameter(binding, value);
    } else if (binding.in === "cookie") {
      const cookie = serializeCookieParameter(binding, value);
      if (cookie !== "") cookies.push(cookie);
    }
  }

  Object.assign(headers, credentials.headers);
  queryParts.push(...credentials.query);
  cookies.push(...credentials.cookies);
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  addTraceHeaders(headers, context.trace);

  headers.accept = http.accept.length > 0 ? http.accept.join(", ") : "*/*";
  const encoded = http.body ? (encodeBody(http.body, args) ?? encodeEmptyBody(http.body)) : undefined;
  if (http.body?.required && !encoded) {
    throw new ArgumentError(http.body.argument ?? "body", "the request body is required");
  }
  if (encoded && encoded.contentType !== "") headers["content-type"] = encoded.contentType;

  const request: OutgoingRequest = {
    method: http.method.toUpperCase(),
    origin: base.origin,
    path: queryParts.length > 0 ? `${path}?${queryParts.join("&")}` : path,
    headers,
    missingCredentials: credentials.missing,
  };
  if (encoded) request.body = encoded.payload;
  return request;
}

/** The last base URL parsed: a bridge sends every call to one (or a few), parsed once each. */
let lastBase: { url: string; parsed: { pathname: string; origin: string } } | undefined;

function parseBaseUrl(url: string): { pathname: string; origin: string } {
  if (lastBase?.url !== url) {
    const parsed = new URL(url);
    lastBase = { url, parsed: { pathname: parsed.pathname, origin: parsed.origin } };
  }
  return lastBase.parsed;
}

/**
 * The path template without a `#fragment`: a fragment is never part of an HTTP request
 * (RFC 3986 §3.5, RFC 9112 §3.2), and a raw `#` in the request line is invalid. Real specs have
 * them: APIs.guru's AWS descriptions key operations that share one URL as
 * `/#X-Amz-Target=Service.Operation` or `/{Bucket}#cors`, and the request goes to `/`.
 */
export function withoutFragment(template: string): string {
  let depth = 0;
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if (char === "{") depth++;
    else if (char === "}") depth = Math.max(0, depth - 1);
    else if (char === "#" && depth === 0) return template.slice(0, i) || "/";
  }
  return template;
}

/**
 * A path key with a literal query (`/services?funcs=GetNews&mobile=1`, seen in real specs):
 * the query part is sent first in the query string, not left in the path, where the
 * arguments' own `?...` would follow it as a second `?`.
 */
export function splitTemplate(template: string): { path: string; query: string } {
  let depth = 0;
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if (char === "{") depth++;
    else if (char === "}") depth = Math.max(0, depth - 1);
    else if (char === "?" && depth === 0)
      return { path: template.slice(0, i) || "/", query: template.slice(i + 1) };
  }
  return { path: template, query: "" };
}

function pairName(pair: string): string {
  const name = pair.slice(0, pair.includes("=") ? pair.indexOf("=") : undefined);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * A filled path must not contain `.` or `..` segments (raw or percent-encoded): servers and
 * proxies resolve them and the request would leave the operation's path.
 */
function refuseDotSegments(path: string, tool: ToolNode): void {
  for (const segment of path.split("/")) {
    if (/^(\.|%2e){1,2}$/i.test(segment)) {
      const names = tool.http.parameters.filter((p) => p.in === "path").map((p) => p.argument);
      throw new ArgumentError(names.join(", ") || "path", 'a path argument may not be "." or ".."');
    }
  }
}

/** `/v1` + `/pets/1` → `/v1/pets/1`, without doubling or dropping slashes. */
function joinPaths(basePath: string, path: string): string {
  const left = basePath.endsWith("/") ? basePath.slice(0, -1) : basePath;
  const right = path.startsWith("/") ? path : `/${path}`;
  return `${left}${right}`;
}

/**
 * The base URL for a tool: the override if given, else the operation's or document's first
 * server with its variables filled. Only http and https are allowed; a value outside a
 * variable's `enum` is refused, and so are URLs that hide where they lead: a user name or
 * password before the host (`https://api.example.com@evil.example/`) or a backslash, which URL
 * parsers read as `/` (`https://evil.example\@api.example.com`).
 */
export function resolveBaseUrl(
  servers: ServerNode[],
  override: string | undefined,
  variables: Record<string, string> = {},
): { url: string } | { error: string } {
  let raw = override;
  if (raw === undefined) {
    const server = servers[0];
    if (!server) return { error: "the spec declares no server URL" };
    let refused: string | undefined;
    raw = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const variable = server.variables[name];
      const given = Object.hasOwn(variables, name) ? variables[name] : undefined;
      if (
        given !== undefined &&
        variable?.enum &&
        variable.enum.length > 0 &&
        !variable.enum.includes(given)
      ) {
        refused ??= `the server variable "${name}" must be one of ${variable.enum.map((v) => `"${v}"`).join(", ")}, not "${given}" (--server-var ${name}=...)`;
      }
      return given ?? variable?.default ?? whole;
    });
    if (refused !== undefined) return { error: refused };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: URL parsers drop these silently
  if (/[\\\s\x00-\x1f\x7f]/.test(raw)) {
    return {
      error: `the server URL ${JSON.stringify(raw)} contains a backslash, a space or a control character, which hide the host it leads to`,
    };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      error: `the server URL "${raw}" is not an absolute URL; start the bridge with --base-url https://host/path`,
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { error: `the server URL uses "${url.protocol}", only http and https are allowed` };
  }
  if (url.username !== "" || url.password !== "") {
    return {
      // The URL itself is not repeated: its password would be printed with it.
      error: `the server URL ${url.protocol}//…@${url.host}${url.pathname} has a user name or password before its host (${url.host}); credentials go in --auth, never in the URL`,
    };
  }
  url.hash = "";
  url.search = "";
  return { url: url.href.replace(/\/+$/, "") };
}
