/**
 * The bridge as an OAuth 2.1 protected resource on its Streamable HTTP endpoint (MCP
 * authorization spec, both protocol eras), loaded only when an issuer is configured:
 * - the protected resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource`
 *   and at the same path with the resource's (and the endpoint's) path after it;
 * - every MCP request carries `Authorization: Bearer <access token>`, checked by
 *   token-verifier.ts; without one, or with one refused, the answer is 401 with
 *   `WWW-Authenticate: Bearer resource_metadata="..."`, which is how a client finds the
 *   authorization server;
 * - a tools/call of an operation the token's scopes do not cover (access/scope-policy.ts) is
 *   answered 403 `insufficient_scope` with the scopes it needs, before anything runs: the
 *   client can step up (sign in again for them) and retry.
 * The token is taken off the request once checked (guards.ts), so nothing downstream can
 * forward it: the API gets its own credentials, never the MCP token.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
} from "@modelcontextprotocol/server";
import { failWith } from "../../../model/diagnostics.js";
import { isRecord } from "../../../model/records.js";
import type { CallerAccess, CallerSource } from "../../access/caller.js";
import { findServedTool } from "../../access/caller.js";
import { createScopePolicy, findMissingScopes } from "../../access/scope-policy.js";
import { CALL_TOOL } from "../../discovery/discovery-tools.js";
import type { ServedRuntime } from "../../server/served-runtime.js";
import { BRIDGE_NAME } from "../../version.js";
import { createIssuerDirectory } from "./issuer-directory.js";
import type { ResolvedOAuthResourceOptions } from "./resource-options.js";
import { createTokenVerifier, type TokenFacts, type VerifiedToken } from "./token-verifier.js";

const METADATA_PATH = "/.well-known/oauth-protected-resource";

export interface FrontDoor {
  /** The protected resource metadata URL the challenges name. */
  readonly metadataUrl: string;
  /** Answers a request for the metadata; false when `pathname` is not one of its paths. */
  serveMetadata(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
  /** The request's verified token; undefined once the 401 (or 500) is answered. */
  authenticate(req: IncomingMessage, res: ServerResponse): Promise<VerifiedToken | undefined>;
  /** Answers 403 insufficient_scope when `body` calls an operation the token may not; true then. */
  refuseScope(body: unknown, token: VerifiedToken, res: ServerResponse): Promise<boolean>;
  /** What each MCP server reads: the caller of a verified token. */
  readonly callers: CallerSource;
}

export function createFrontDoor(
  options: ResolvedOAuthResourceOptions,
  runtime: ServedRuntime,
  endpoint: string,
): FrontDoor {
  const directory = createIssuerDirectory({
    timeoutMs: options.fetchTimeoutMs,
    maxBytes: options.maxFetchBytes,
    cacheMs: options.cacheMs,
  });
  const verifier = createTokenVerifier(options, directory);
  const policy = createScopePolicy({ rules: options.scopeMap, specScopes: options.specScopes });
  if (options.issuers.length === 0 || !URL.canParse(options.resource)) {
    failWith(
      "OMB_OAUTH_RESOURCE_INVALID",
      options.issuers.length === 0
        ? "the OAuth front door names no issuer"
        : `the resource ${JSON.stringify(options.resource)} is not a URL`,
      {
        hint: "give the authorization server's issuer and the bridge's public URL (https://mcp.example.com/mcp)",
      },
    );
  }
  const resource = new URL(options.resource);
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const metadataPaths = new Set([
    METADATA_PATH,
    `${METADATA_PATH}${resource.pathname.replace(/\/$/, "")}`,
    `${METADATA_PATH}${endpoint}`,
  ]);

  const callerOf = (token: VerifiedToken | undefined): CallerAccess | undefined => {
    const facts = (token?.extra as { facts?: TokenFacts } | undefined)?.facts;
    if (token === undefined || facts === undefined) return undefined;
    const granted = new Set(token.scopes);
    return {
      subject: facts.subject,
      missingScopes: (tool) => findMissingScopes(policy.requiredFor(tool), granted),
    };
  };

  return {
    metadataUrl,
    serveMetadata(req, res, pathname) {
      if (!metadataPaths.has(pathname.replace(/\/$/, "") || "/")) return false;
      // Public by design (RFC 9728): any origin may read it, so browser clients can discover.
      const cors = {
        "access-control-allow-origin": "*",
        "access-control-allow-headers": "mcp-protocol-version",
      };
      if (req.method === "OPTIONS") {
        res.writeHead(204, { ...cors, "access-control-allow-methods": "GET" }).end();
      } else if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { ...cors, allow: "GET" }).end();
      } else {
        const document = {
          resource: options.resource,
          authorization_servers: options.issuers,
          scopes_supported: [...new Set([...options.baseScopes, ...policy.scopesOf(runtime.model.tools)])],
          bearer_methods_supported: ["header"],
          resource_name: `${runtime.model.info.title} (${BRIDGE_NAME})`,
        };
        res
          .writeHead(200, { ...cors, "content-type": "application/json", "cache-control": "max-age=300" })
          .end(req.method === "HEAD" ? undefined : JSON.stringify(document));
      }
      req.resume();
      return true;
    },
    async authenticate(req, res) {
      const header = req.headers.authorization;
      const match = header === undefined ? null : /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
      if (match === null) {
        // No credentials: RFC 6750 §3.1 names no error, only where to get a token (and which scopes to ask for first).
        req.resume();
        const scope = options.baseScopes.length > 0 ? `, scope="${options.baseScopes.join(" ")}"` : "";
        res
          .writeHead(401, {
            "content-type": "application/json",
            "www-authenticate": `Bearer resource_metadata="${metadataUrl}"${scope}`,
          })
          .end(
            JSON.stringify({
              error: "invalid_token",
              error_description:
                "This MCP endpoint needs an OAuth access token: Authorization: Bearer <token>",
            }),
          );
        return undefined;
      }
      let token: VerifiedToken;
      try {
        token = await verifier.verify(match[1]!);
      } catch (error) {
        req.resume();
        await sendWebResponse(
          res,
          bearerAuthChallengeResponse(error, {
            requiredScopes: options.baseScopes,
            resourceMetadataUrl: metadataUrl,
          }),
        );
        return undefined;
      }
      const granted = new Set(token.scopes);
      if (options.baseScopes.some((scope) => !granted.has(scope))) {
        req.resume();
        const refusal = new OAuthError(
          OAuthErrorCode.InsufficientScope,
          "Every request needs the scopes named",
        );
        await sendWebResponse(
          res,
          bearerAuthChallengeResponse(refusal, {
            requiredScopes: options.baseScopes,
            resourceMetadataUrl: metadataUrl,
          }),
        );
        return undefined;
      }
      return token;
    },
    async refuseScope(body, token, res) {
      const caller = callerOf(token);
      if (caller === undefined) return false;
      for (const message of Array.isArray(body) ? body : [body]) {
        const name = toCalledOperation(message, runtime);
        const tool = name === undefined ? undefined : findServedTool(runtime.model, name);
        if (tool === undefined) continue;
        const missing = caller.missingScopes(tool);
        if (missing.length === 0) continue;
        const refusal = new OAuthError(
          OAuthErrorCode.InsufficientScope,
          `The operation ${tool.name} needs the scope ${missing.join(" ")}`,
        );
        await sendWebResponse(
          res,
          bearerAuthChallengeResponse(refusal, { requiredScopes: missing, resourceMetadataUrl: metadataUrl }),
        );
        return true;
      }
      return false;
    },
    callers: { callerOf: (authInfo) => callerOf(authInfo as VerifiedToken | undefined) },
  };
}

/**
 * The operation a JSON-RPC message calls: a tools/call's tool in tools mode, the operation
 * call_operation names in discovery mode. A code-mode program's calls are known only as it
 * runs: those are refused one by one (engine/call-pipeline.ts).
 */
function toCalledOperation(message: unknown, runtime: ServedRuntime): string | undefined {
  if (!isRecord(message) || message.method !== "tools/call" || !isRecord(message.params)) return undefined;
  const { name, arguments: args } = message.params;
  if (typeof name !== "string") return undefined;
  if (runtime.mode.mode === "tools") return name;
  if (
    runtime.mode.mode === "discovery" &&
    name === CALL_TOOL &&
    isRecord(args) &&
    typeof args.name === "string"
  ) {
    return args.name;
  }
  return undefined;
}

async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers).end(await response.text());
}

export { resolveOAuthResourceOptions } from "./resource-options.js";
