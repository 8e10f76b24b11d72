/**
 * Mistakes caught at start-up rather than at every call: each would start "fine" and then fail
 * every call with an error the model cannot fix. A credential for a scheme the spec does not
 * have (a typo), an OAuth2 client for a scheme without a client-credentials flow, no usable
 * server URL, a server variable that does not exist or a value outside its enum, a selection
 * that leaves no tool, the bridge's own token forwarded through a pass-through header. Each is
 * an error diagnostic with a hint (all of them at once); what can be legitimate is a warning.
 */
import { BridgeError, type CodedDiagnostic, createDiagnostic } from "../../model/diagnostics.js";
import { suggestNames } from "../../model/similarity.js";
import type { BridgeModel, SecuritySchemeNode, ServerNode, ToolNode } from "../../model/types.js";
import type { AuthConfig } from "../auth/auth-config.js";
import { toClientEnvNames, toCredentialEnvName, toServerVariableEnvName } from "../auth/credentials.js";
import { MIN_SECRET_LENGTH } from "../auth/secret-forms.js";
import { resolveBaseUrl } from "../request/build-request.js";
import { isLoopbackAddress } from "../transport/guards.js";
import { isAcceptableIssuer, SUPPORTED_ALGORITHMS } from "../transport/oauth/resource-options.js";
import { resolveHttpServerOptions } from "../transport/transport-options.js";
import { type Audience, nameOption } from "./library-options.js";
import { OPTION_TABLE, type Settings } from "./option-table.js";
import type { Environment } from "./read-settings.js";
import { toHttpServerOptions, toTransport } from "./to-options.js";

export interface StartCheckInputs {
  model: BridgeModel;
  /** The tools that will be served (the selection applied). */
  tools: ToolNode[];
  settings: Settings;
  auth: AuthConfig;
  env: Environment;
  /** Values of the server variables from the flags and OPENAPI_MCP_SERVER_VAR_<NAME>. */
  serverVariables: Record<string, string>;
  /**
   * Who reads the diagnostics (default the CLI's operator): the library's are about
   * `options.auth.api_key`, not `--auth api_key`.
   */
  audience?: Audience;
}

/** The warnings to print; throws a BridgeError with every error found. */
export function checkStart(inputs: StartCheckInputs): CodedDiagnostic[] {
  const found = [
    ...checkSchemeNames(inputs),
    ...checkOAuthClients(inputs),
    ...checkCredentialValues(inputs),
    ...checkServerVariables(inputs),
    ...checkServerUrls(inputs),
    ...checkTransport(inputs),
  ];
  const errors = found.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new BridgeError(errors);
  return found;
}

function listNames(names: string[]): string {
  return names.length === 0 ? "none" : names.map((n) => `"${n}"`).join(", ");
}

/**
 * The name meant by a typo: `--auth apikey` for `api_key`, `--server-var regoin` for `region`
 * (model/similarity.ts says what is near).
 */
function guessName(name: string, names: string[]): string | undefined {
  return suggestNames(name, names, 1)[0];
}

function checkSchemeNames({
  model,
  settings,
  auth,
  env,
  audience = "cli",
}: StartCheckInputs): CodedDiagnostic[] {
  const schemes = Object.keys(model.securitySchemes);
  const found: CodedDiagnostic[] = [];
  const hint = (name: string) => {
    const guess = guessName(name, schemes);
    if (guess !== undefined)
      return `did you mean "${guess}"? The spec's security schemes: ${listNames(schemes)}`;
    return schemes.length === 0
      ? `the spec declares no security scheme; send a credential ${audience === "cli" ? 'with --header "Name: value"' : "in options.headers"}`
      : `the spec's security schemes: ${listNames(schemes)}`;
  };
  const unknown = (where: string, name: string) => {
    if (Object.hasOwn(model.securitySchemes, name)) return;
    found.push(
      createDiagnostic("OMB_AUTH_SCHEME_UNKNOWN", `${where}: the spec has no security scheme "${name}"`, {
        hint: hint(name),
      }),
    );
  };
  const fromFlags = new Set(Object.keys(settings.auth ?? {}));
  for (const name of fromFlags) unknown(nameOption(audience, "auth", name), name);
  for (const name of Object.keys(auth.auth))
    if (!fromFlags.has(name)) unknown(`the auth config's auth.${name}`, name);
  const clientFlags = new Set(Object.keys(settings.oauthClient ?? {}));
  for (const name of clientFlags) unknown(nameOption(audience, "oauthClient", name), name);
  for (const name of Object.keys(auth.oauth))
    if (!clientFlags.has(name)) unknown(`the auth config's oauth2.${name}`, name);
  const passFlags = settings.passThroughHeader ?? {};
  for (const [header, name] of Object.entries({ ...auth.passThroughHeaders, ...passFlags })) {
    unknown(
      audience === "cli"
        ? `--pass-through-header ${header}=${name}`
        : nameOption(audience, "passThroughHeader", header),
      name,
    );
  }
  // A variable for a scheme the spec does not have may be meant for another API: a warning.
  const known = new Set<string>([OPTION_TABLE.authConfig.env]);
  for (const name of schemes) {
    known.add(toCredentialEnvName(name));
    const client = toClientEnvNames(name);
    known.add(client.id).add(client.secret);
  }
  for (const variable of Object.keys(env)) {
    if (!/^OPENAPI_MCP_(AUTH|CLIENT_ID|CLIENT_SECRET)_/.test(variable) || known.has(variable)) continue;
    if (env[variable] === undefined || env[variable] === "") continue;
    found.push(
      createDiagnostic(
        "OMB_AUTH_SCHEME_UNKNOWN",
        `${variable} names no security scheme of the spec; it is not used`,
        { severity: "warning", hint: `the spec's security schemes: ${listNames(schemes)}` },
      ),
    );
  }
  return found;
}

function checkOAuthClients(inputs: StartCheckInputs): CodedDiagnostic[] {
  const { model, auth, audience = "cli" } = inputs;
  const found: CodedDiagnostic[] = [];
  for (const [name, client] of Object.entries(auth.oauth)) {
    const scheme = model.securitySchemes[name];
    if (scheme === undefined) continue; // reported as an unknown scheme
    if (scheme.type !== "oauth2" && scheme.type !== "openIdConnect") {
      found.push(
        createDiagnostic(
          "OMB_AUTH_CONFIG",
          `OAuth2 client credentials are configured for "${name}", which is a ${scheme.type} scheme, not oauth2 or openIdConnect`,
          {
            hint:
              audience === "cli"
                ? `give its credential with --auth ${name}=VALUE instead`
                : `give its credential in ${nameOption(audience, "auth", name)} instead`,
          },
        ),
      );
      continue;
    }
    if (client.flow === "authorizationCode") {
      found.push(...checkUserLogin(name, scheme, client, inputs));
      continue;
    }
    if (
      scheme.type === "oauth2" &&
      client.tokenUrl === undefined &&
      clientCredentialsTokenUrl(scheme) === undefined
    ) {
      found.push(
        createDiagnostic(
          "OMB_AUTH_CONFIG",
          `OAuth2 client credentials are configured for "${name}", whose flows have no clientCredentials flow with a tokenUrl`,
          {
            hint:
              audience === "cli"
                ? `name the token URL in the auth config (oauth2.${name}.tokenUrl), or give a token you have with --auth ${name}=TOKEN`
                : `name the token URL in ${nameOption(audience, "oauthClient", name)}.tokenUrl, or give a token you have in ${nameOption(audience, "auth", name)}`,
          },
        ),
      );
    }
  }
  return found;
}

/**
 * A per-user login (auth/user-login/) acts as each signed-in MCP user: it needs the HTTP
 * transport with the OAuth front door (who the user is), a provider to send the user to and a
 * token URL, and a redirect URL the bridge can serve.
 */
function checkUserLogin(
  name: string,
  scheme: SecuritySchemeNode,
  client: StartCheckInputs["auth"]["oauth"][string],
  { settings }: StartCheckInputs,
): CodedDiagnostic[] {
  const found: CodedDiagnostic[] = [];
  const fail = (message: string, hint: string) =>
    found.push(createDiagnostic("OMB_USER_LOGIN_INVALID", `oauth2.${name}: ${message}`, { hint }));
  if (toTransport(settings) !== "http" || (settings.authIssuer ?? []).length === 0) {
    fail(
      "flow: authorizationCode signs each MCP user in to the API, so the bridge must know who the user is",
      "serve over --transport http with the OAuth front door (--auth-issuer https://your-idp), or use client credentials",
    );
  }
  const flows =
    scheme.type === "oauth2" ? (scheme.flows as Record<string, Record<string, unknown> | undefined>) : {};
  const code = flows?.["authorizationCode"];
  if (client.authorizationUrl === undefined && typeof code?.["authorizationUrl"] !== "string") {
    fail(
      "the spec's scheme has no authorizationCode flow with an authorizationUrl",
      `name the provider's authorization URL in the auth config (oauth2.${name}.authorizationUrl)`,
    );
  }
  if (client.tokenUrl === undefined && typeof code?.["tokenUrl"] !== "string") {
    fail(
      "the spec's scheme has no authorizationCode flow with a tokenUrl",
      `name the provider's token URL in the auth config (oauth2.${name}.tokenUrl)`,
    );
  }
  let redirect: URL | undefined;
  try {
    redirect = new URL(client.redirectUrl ?? "");
  } catch {
    redirect = undefined;
  }
  if (
    redirect === undefined ||
    !(redirect.protocol === "https:" || isLoopbackAddress(redirect.hostname.replace(/^\[|\]$/g, "")))
  ) {
    fail(
      `the redirectUrl "${client.redirectUrl ?? ""}" is not an https URL (http only on loopback)`,
      "give the bridge's public https URL with the callback path, as registered with the provider, e.g. https://bridge.example.com/oauth/callback",
    );
  } else if (redirect.pathname === resolveHttpServerOptions(toHttpServerOptions(settings)).path) {
    fail(
      `the redirectUrl's path ${redirect.pathname} is the MCP endpoint's`,
      "give the callback a path of its own, e.g. /oauth/callback",
    );
  }
  if (
    settings.tokenStore !== undefined &&
    settings.tokenStore !== "memory" &&
    settings.tokenStoreKey === undefined
  ) {
    fail(
      "a shared --token-store needs the key its tokens are sealed with: without one, each process seals with its own random key and no other replica (nor this one after a restart) can read them",
      "give every replica the same --token-store-key (OPENAPI_MCP_TOKEN_STORE_KEY), 32 random bytes or more",
    );
  }
  return found;
}

function clientCredentialsTokenUrl(
  scheme: Extract<SecuritySchemeNode, { type: "oauth2" }>,
): string | undefined {
  const flows = scheme.flows as Record<string, { tokenUrl?: unknown } | undefined> | null;
  const tokenUrl = flows?.["clientCredentials"]?.tokenUrl;
  return typeof tokenUrl === "string" && tokenUrl !== "" ? tokenUrl : undefined;
}

/** A character an HTTP header cannot carry as is: a control character, or one beyond Latin-1. */
function headerProblem(value: string): string | undefined {
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code > 0xff) {
      return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    }
  }
  return undefined;
}

/** Whether a scheme's credential goes into a header as given (not base64- or percent-encoded). */
function isSentAsIs(scheme: SecuritySchemeNode): boolean {
  if (scheme.type === "apiKey") return scheme.in === "header";
  if (scheme.type === "http") return scheme.scheme.toLowerCase() !== "basic";
  return scheme.type === "oauth2" || scheme.type === "openIdConnect";
}

function checkCredentialValues({
  model,
  settings,
  auth,
  env,
  audience = "cli",
}: StartCheckInputs): CodedDiagnostic[] {
  const found: CodedDiagnostic[] = [];
  for (const [name, scheme] of Object.entries(model.securitySchemes)) {
    const fromFlag = settings.auth?.[name];
    const variable = toCredentialEnvName(name);
    const value = fromFlag ?? auth.auth[name] ?? env[variable];
    if (value === undefined || value === "") continue;
    const where =
      fromFlag !== undefined
        ? nameOption(audience, "auth", name)
        : auth.auth[name] !== undefined
          ? `the auth config's auth.${name}`
          : variable;
    const bad = isSentAsIs(scheme) ? headerProblem(value) : undefined;
    if (bad !== undefined) {
      found.push(
        createDiagnostic(
          "OMB_AUTH_CONFIG",
          `${where}: the value has a character an HTTP header cannot carry (${bad})`,
          {
            hint: "check the value (a stray newline from a file?); header credentials are plain ASCII or Latin-1 text",
          },
        ),
      );
    } else if (value.length < MIN_SECRET_LENGTH) {
      found.push(
        createDiagnostic(
          "OMB_SECRET_SHORT",
          `${where} is ${value.length} character${value.length === 1 ? "" : "s"} long: too short to be redacted from results`,
          { hint: "check the value; results and the audit log show values this short unredacted" },
        ),
      );
    }
  }
  return found;
}

/** Every server URL a served tool may use. */
function serversOf({ model, tools }: StartCheckInputs): ServerNode[] {
  const servers = new Set<ServerNode>(model.servers);
  for (const tool of tools) for (const server of tool.http.servers ?? []) servers.add(server);
  return [...servers];
}

function checkServerVariables(inputs: StartCheckInputs): CodedDiagnostic[] {
  const { settings, serverVariables, audience = "cli" } = inputs;
  const found: CodedDiagnostic[] = [];
  const servers = serversOf(inputs);
  const names = [...new Set(servers.flatMap((s) => Object.keys(s.variables)))];
  const replaced = settings.baseUrl !== undefined;
  for (const name of Object.keys(settings.serverVar ?? {})) {
    if (names.includes(name)) continue;
    found.push(
      createDiagnostic(
        "OMB_SERVER_VARIABLE",
        `${nameOption(audience, "serverVar", name)}: no server URL of the spec has a variable "${name}"`,
        {
          ...(replaced ? { severity: "warning" as const } : {}),
          hint:
            names.length === 0
              ? "the spec's server URLs have no variables"
              : `the variables: ${listNames(names)}${guessName(name, names) ? `; did you mean "${guessName(name, names)}"?` : ""}`,
        },
      ),
    );
  }
  if (replaced) return found; // --base-url replaces the server URL: its variables do not matter
  for (const [name, value] of Object.entries(serverVariables)) {
    for (const server of servers) {
      const allowed = server.variables[name]?.enum;
      if (allowed === undefined || allowed.length === 0 || allowed.includes(value)) continue;
      const source =
        settings.serverVar?.[name] !== undefined
          ? audience === "cli"
            ? `--server-var ${name}=${value}`
            : `${nameOption(audience, "serverVar", name)} "${value}"`
          : `${toServerVariableEnvName(name)}=${value}`;
      found.push(
        createDiagnostic(
          "OMB_SERVER_VARIABLE",
          `${source}: the server URL ${server.url} allows only ${listNames(allowed)}`,
          {
            hint: `give one of the values the spec lists, e.g. ${audience === "cli" ? `--server-var ${name}=${allowed[0]}` : `${nameOption(audience, "serverVar", name)}: "${allowed[0]}"`}`,
          },
        ),
      );
      break;
    }
  }
  return found;
}

function checkServerUrls(inputs: StartCheckInputs): CodedDiagnostic[] {
  const { model, tools, settings, serverVariables, audience = "cli" } = inputs;
  if (tools.length === 0) return [];
  const failures = new Map<string, string[]>();
  // A placeholder host per base URL (read once per URL, not per tool), and the tools calling it.
  const placeholders = new Map<string, { label: string | undefined; names: string[] }>();
  // Most tools share the document's servers: each list is resolved once.
  const bases = new Map<ServerNode[], ReturnType<typeof resolveBaseUrl>>();
  for (const tool of tools) {
    const servers = tool.http.servers ?? model.servers;
    let base = bases.get(servers);
    if (base === undefined) {
      base = resolveBaseUrl(servers, settings.baseUrl, serverVariables);
      bases.set(servers, base);
    }
    if (!("error" in base)) {
      if (settings.baseUrl === undefined) {
        let placeholder = placeholders.get(base.url);
        if (placeholder === undefined) {
          placeholder = { label: findPlaceholderHost(base.url), names: [] };
          placeholders.set(base.url, placeholder);
        }
        if (placeholder.label !== undefined) placeholder.names.push(tool.name);
      }
      continue;
    }
    const unfilled = /\{([^}]+)\}/.exec(servers[0]?.url ?? "")?.[1];
    const problem =
      unfilled !== undefined && settings.baseUrl === undefined && serverVariables[unfilled] === undefined
        ? `the server URL ${servers[0]!.url} has a variable "${unfilled}" without a value`
        : base.error.replace(/; start the bridge with --base-url.*$/, ""); // the hint says it
    failures.set(problem, [...(failures.get(problem) ?? []), tool.name]);
  }
  const found: CodedDiagnostic[] = [];
  for (const [url, { label, names }] of placeholders) {
    if (label === undefined) continue;
    const which = names.length === tools.length ? "every tool" : `${names.length} of ${tools.length} tools`;
    found.push(
      createDiagnostic(
        "OMB_SERVER_PLACEHOLDER",
        `the spec's server URL ${url} names a placeholder host (${label}): ${which} would call it`,
        { hint: serverUrlHint(audience, false) },
      ),
    );
  }
  for (const [problem, names] of failures) {
    const all = names.length === tools.length;
    const hint = serverUrlHint(audience, problem.includes("without a value"));
    found.push(
      createDiagnostic(
        "OMB_SERVER_URL",
        all
          ? `no tool can be called: ${problem}`
          : `${names.length} of ${tools.length} tools cannot be called (${names.slice(0, 3).join(", ")}${names.length > 3 ? ", …" : ""}): ${problem}`,
        { ...(all ? {} : { severity: "warning" as const }), hint },
      ),
    );
  }
  return found;
}

/**
 * The label of a server URL's host that a spec's authors left for the reader to replace
 * (Jira's `your-domain.atlassian.net`), if any. Hosts reserved for examples (`example.com`,
 * `*.test`) are not counted: test setups and local mocks use them on purpose.
 */
export function findPlaceholderHost(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return host.split(".").find((label) => PLACEHOLDER_LABEL.test(label));
}

/** `your-domain`, `yourcompany`, `my_instance`: a label that asks to be replaced. */
const PLACEHOLDER_LABEL =
  /^(?:your|my)[-_]?(?:domain|company|site|instance|org|organi[sz]ation|tenant|subdomain|server|host|account|shop|store|workspace|team|app|name|region)$/;

function serverUrlHint(audience: Audience, variableUnfilled: boolean): string {
  if (audience === "library") {
    return variableUnfilled
      ? "give it in options.serverVariables, or the whole URL in options.baseUrl"
      : 'give the API\'s URL in options.baseUrl ("https://host/path")';
  }
  return variableUnfilled
    ? "give it with --server-var NAME=VALUE (or OPENAPI_MCP_SERVER_VAR_<NAME>), or the whole URL with --base-url"
    : "give the API's URL with --base-url https://host/path (or OPENAPI_MCP_BASE_URL)";
}

function checkTransport(inputs: StartCheckInputs): CodedDiagnostic[] {
  const { settings, auth } = inputs;
  if (toTransport(settings) !== "http") return [];
  const found: CodedDiagnostic[] = [];
  if (settings.httpToken !== undefined) {
    for (const header of Object.keys({ ...auth.passThroughHeaders, ...settings.passThroughHeader })) {
      if (header.toLowerCase() !== "authorization") continue;
      found.push(
        createDiagnostic(
          "OMB_AUTH_CONFIG",
          `--pass-through-header ${header}: the Authorization header carries the bridge's own --http-token, which is never sent upstream`,
          {
            hint: "let clients send the API credential in another header, e.g. --pass-through-header X-Upstream-Authorization=SCHEME",
          },
        ),
      );
    }
  }
  found.push(...checkFrontDoor(inputs));
  const { host } = resolveHttpServerOptions(toHttpServerOptions(settings));
  if (settings.httpToken === undefined && settings.authIssuer === undefined && !isLoopbackAddress(host)) {
    found.push(
      createDiagnostic(
        "OMB_HTTP_EXPOSED",
        `the bridge listens on ${host} without --http-token: ANYONE WHO CAN REACH THIS PORT CAN CALL EVERY TOOL with the configured credentials`,
        {
          hint: "set OPENAPI_MCP_HTTP_TOKEN (clients send Authorization: Bearer TOKEN), or bind --host 127.0.0.1",
        },
      ),
    );
  }
  return found;
}

/**
 * The OAuth front door (transport/oauth/): not beside --http-token, issuers and resource that
 * can be trusted (https; http only on loopback, for local testing), asymmetric algorithms, an
 * introspection client with its secret, and the MCP token never taken for an API credential.
 */
function checkFrontDoor({ settings, auth }: StartCheckInputs): CodedDiagnostic[] {
  const found: CodedDiagnostic[] = [];
  const issuers = settings.authIssuer ?? [];
  const invalid = (message: string, hint: string) =>
    found.push(createDiagnostic("OMB_OAUTH_RESOURCE_INVALID", message, { hint }));
  if (issuers.length === 0) {
    const stray = (["authResource", "authScopes", "authScopeMap", "authIntrospectionClient"] as const).filter(
      (key) => settings[key] !== undefined,
    );
    for (const key of stray) {
      found.push(
        createDiagnostic(
          "OMB_OAUTH_RESOURCE_INVALID",
          `--${OPTION_TABLE[key].flag} does nothing without --auth-issuer`,
          {
            severity: "warning",
            hint: "name the authorization server with --auth-issuer https://issuer (or OPENAPI_MCP_AUTH_ISSUER)",
          },
        ),
      );
    }
    return found;
  }
  if (settings.httpToken !== undefined) {
    found.push(
      createDiagnostic(
        "OMB_OAUTH_RESOURCE_CONFLICT",
        "--http-token and --auth-issuer both guard the HTTP endpoint: give one of them",
        {
          hint: "--http-token is one shared token for simple setups; --auth-issuer checks each user's OAuth access token",
        },
      ),
    );
  }
  for (const issuer of issuers) {
    if (!isAcceptableIssuer(issuer, isLoopbackAddress)) {
      invalid(
        `--auth-issuer ${issuer}: an issuer must be an https URL (http only on a loopback address, for testing)`,
        "give the authorization server's issuer identifier, as its metadata names it: https://login.example.com/realm",
      );
    }
  }
  if (settings.authResource !== undefined && !isAcceptableIssuer(settings.authResource, isLoopbackAddress)) {
    invalid(
      `--auth-resource ${settings.authResource}: the bridge's public URL must be https (http only on a loopback address)`,
      "give the MCP endpoint's URL as clients reach it, e.g. https://mcp.example.com/mcp",
    );
  }
  const { host } = resolveHttpServerOptions(toHttpServerOptions(settings));
  if (settings.authResource === undefined && !isLoopbackAddress(host)) {
    found.push(
      createDiagnostic(
        "OMB_OAUTH_RESOURCE_INVALID",
        `--auth-issuer without --auth-resource on ${host}: tokens must name the URL the bridge listens on, which clients behind a proxy or DNS name do not use`,
        {
          severity: "warning",
          hint: "set --auth-resource to the MCP endpoint's public URL (OPENAPI_MCP_AUTH_RESOURCE)",
        },
      ),
    );
  }
  const supported: readonly string[] = SUPPORTED_ALGORITHMS;
  for (const alg of settings.authAlgorithms ?? []) {
    if (supported.includes(alg)) continue;
    invalid(
      /^HS\d+$/i.test(alg) || alg.toLowerCase() === "none"
        ? `--auth-algorithms ${alg}: tokens are checked with the issuer's public keys; ${alg === "none" ? "an unsigned token" : "an HMAC signature"} is never accepted`
        : `--auth-algorithms ${alg}: not an algorithm the bridge checks`,
      `use asymmetric algorithms: ${SUPPORTED_ALGORITHMS.join(", ")}`,
    );
  }
  if ((settings.authIntrospectionClient === undefined) !== (settings.authIntrospectionSecret === undefined)) {
    invalid(
      settings.authIntrospectionClient === undefined
        ? "OPENAPI_MCP_AUTH_INTROSPECTION_SECRET is set without --auth-introspection-client"
        : "--auth-introspection-client has no secret: set OPENAPI_MCP_AUTH_INTROSPECTION_SECRET",
      "give both the introspection client's id and its secret, or neither (then only JWT access tokens are accepted)",
    );
  }
  for (const header of Object.keys({ ...auth.passThroughHeaders, ...settings.passThroughHeader })) {
    if (header.toLowerCase() !== "authorization") continue;
    found.push(
      createDiagnostic(
        "OMB_AUTH_CONFIG",
        `--pass-through-header ${header}: the Authorization header carries the MCP access token, which is never sent upstream`,
        {
          hint: "let clients send the API credential in another header, e.g. --pass-through-header X-Upstream-Authorization=SCHEME",
        },
      ),
    );
  }
  return found;
}
