/**
 * Static credentials for security schemes: `--auth SCHEME=VALUE` or the environment variable
 * `OPENAPI_MCP_AUTH_<SCHEME>`. Applied only for operations whose `security` asks for them.
 */
import {
  encodeCookieName,
  encodeCookieValue,
  encodeUriComponentStrict,
} from "../../model/percent-encoding.js";
import type { BridgeModel, SecurityRequirementNode, SecuritySchemeNode } from "../../model/types.js";

export interface AppliedCredentials {
  headers: Record<string, string>;
  query: string[];
  cookies: string[];
  /** Scheme names the operation accepts but no credential was configured for (for messages). */
  missing: string[];
}

/** A name as the suffix of an environment variable: upper-cased, other characters as `_`. */
export function toEnvSuffix(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}

/** `OPENAPI_MCP_AUTH_<SCHEME>`: the credential of a security scheme. */
export function toCredentialEnvName(scheme: string): string {
  return `OPENAPI_MCP_AUTH_${toEnvSuffix(scheme)}`;
}

/** `OPENAPI_MCP_CLIENT_ID_<SCHEME>` and `OPENAPI_MCP_CLIENT_SECRET_<SCHEME>`: an OAuth2 client. */
export function toClientEnvNames(scheme: string): { id: string; secret: string } {
  const suffix = toEnvSuffix(scheme);
  return { id: `OPENAPI_MCP_CLIENT_ID_${suffix}`, secret: `OPENAPI_MCP_CLIENT_SECRET_${suffix}` };
}

/** `OPENAPI_MCP_SERVER_VAR_<NAME>`: a value for a server URL variable. */
export function toServerVariableEnvName(name: string): string {
  return `OPENAPI_MCP_SERVER_VAR_${toEnvSuffix(name)}`;
}

/** Looks up each scheme's credential once, from explicit values first, then the environment. */
export function resolveCredentials(
  model: BridgeModel,
  auth: Record<string, string> = {},
  env: Record<string, string | undefined> = {},
): Map<string, string> {
  const result = new Map<string, string>();
  for (const scheme of Object.keys(model.securitySchemes)) {
    const value = auth[scheme] ?? env[toCredentialEnvName(scheme)];
    if (value !== undefined && value !== "") result.set(scheme, value);
  }
  return result;
}

/**
 * Whether a security alternative is met: each of its schemes has a credential (`available`)
 * and, given `schemes`, is one the model knows. `{}` (anonymous access) is met.
 */
export function isAlternativeMet(
  alternative: SecurityRequirementNode,
  available: { has(name: string): boolean },
  schemes?: Record<string, SecuritySchemeNode>,
): boolean {
  return Object.keys(alternative).every(
    (name) => available.has(name) && (schemes === undefined || schemes[name] !== undefined),
  );
}

/**
 * Picks the first alternative of the operation's requirements whose schemes all have a
 * credential (an empty alternative means anonymous access is fine) and renders it.
 */
export function applyCredentials(
  requirements: SecurityRequirementNode[],
  schemes: Record<string, SecuritySchemeNode>,
  credentials: Map<string, string>,
): AppliedCredentials {
  const applied: AppliedCredentials = { headers: {}, query: [], cookies: [], missing: [] };
  if (requirements.length === 0) return applied;
  const usable = requirements.find((alternative) => isAlternativeMet(alternative, credentials, schemes));
  if (!usable) {
    // Only the schemes with no credential: SoundCloud's operations need `AuthHeader` and
    // `ClientId` together, and the result said neither was configured when one was.
    const names = new Set<string>();
    for (const alternative of requirements)
      for (const name of Object.keys(alternative))
        if (!isAlternativeMet({ [name]: [] }, credentials, schemes)) names.add(name);
    applied.missing = [...names];
    return applied;
  }
  for (const name of Object.keys(usable)) {
    const scheme = schemes[name]!;
    const value = credentials.get(name)!;
    renderCredential(scheme, value, applied);
  }
  return applied;
}

function renderCredential(scheme: SecuritySchemeNode, value: string, applied: AppliedCredentials): void {
  switch (scheme.type) {
    case "apiKey":
      if (scheme.in === "header") applied.headers[scheme.name.toLowerCase()] = value;
      else if (scheme.in === "query")
        applied.query.push(`${encodeUriComponentStrict(scheme.name)}=${encodeUriComponentStrict(value)}`);
      else applied.cookies.push(`${encodeCookieName(scheme.name)}=${encodeCookieValue(value)}`);
      return;
    case "http": {
      const kind = scheme.scheme.toLowerCase();
      if (kind === "basic") {
        const encoded = Buffer.from(value, "utf8").toString("base64");
        applied.headers.authorization = `Basic ${encoded}`;
      } else if (kind === "bearer") {
        applied.headers.authorization = `Bearer ${value}`;
      } else {
        applied.headers.authorization = `${scheme.scheme} ${value}`;
      }
      return;
    }
    case "oauth2":
    case "openIdConnect":
      applied.headers.authorization = `Bearer ${value}`;
      return;
    case "mutualTLS":
      return;
  }
}

/** True where a credential value could break out of its header (CR, LF, NUL). */
export function hasControlCharacters(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: this is the check for them
  return /[\x00-\x08\x0A-\x1F\x7F]/.test(value);
}
