/**
 * A real OAuth 2.1 / OpenID Connect authorization server for the tests: `oidc-provider` (a
 * certified OpenID provider) on 127.0.0.1, with the client credentials grant, resource
 * indicators (RFC 8707: tokens name the resource they are for as their audience) and
 * introspection (RFC 7662). Access tokens are JWTs signed with the server's ES256 key, or
 * opaque for clients listed in `opaqueClients`. The private key is the test's too, so it can
 * craft tokens the bridge must refuse (an expired one, another issuer's...).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

export interface TestClient {
  id: string;
  secret: string;
  /** The scopes it may be given, space-separated. */
  scope: string;
  /**
   * A web application that signs users in (authorization code with PKCE, refresh tokens),
   * sending them back to these URLs; without, a client credentials client.
   */
  redirectUris?: string[];
}

export interface AuthorizationServer {
  /** The issuer identifier: `http://127.0.0.1:PORT`. */
  issuer: string;
  /** The ES256 key access tokens are signed with (kid `es-1`). */
  signingKey: CryptoKey;
  signingKid: string;
  /** A client credentials grant for `client`, for `resource` (every scope it may have by default); throws on an error answer. */
  token(client: TestClient, options: { resource: string; scope?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startAuthorizationServer(options: {
  clients: TestClient[];
  scopes: string[];
  /** Clients whose access tokens are opaque (checked by introspection). */
  opaqueClients?: string[];
}): Promise<AuthorizationServer> {
  const es = await generateKeyPair("ES256", { extractable: true });
  const rsa = await generateKeyPair("RS256", { extractable: true });
  const keys: JWK[] = [
    { ...(await exportJWK(es.privateKey)), kid: "es-1", alg: "ES256", use: "sig" },
    { ...(await exportJWK(rsa.privateKey)), kid: "rs-1", alg: "RS256", use: "sig" },
  ];
  const opaque = new Set(options.opaqueClients ?? []);
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", () => resolve()));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.id,
      client_secret: client.secret,
      ...(client.redirectUris !== undefined
        ? {
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            redirect_uris: client.redirectUris,
          }
        : { grant_types: ["client_credentials"], response_types: [], redirect_uris: [] }),
      ...(client.scope !== "" ? { scope: client.scope } : {}),
    })),
    // Users who sign in get a refresh token (the bridge refreshes their access tokens).
    issueRefreshToken: () => true,
    scopes: options.scopes,
    jwks: { keys },
    features: {
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      // The provider's own login and consent pages, driven over HTTP by signIn below.
      devInteractions: { enabled: options.clients.some((client) => client.redirectUris !== undefined) },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string, client: { clientId: string }) => ({
          scope: options.scopes.join(" "),
          audience: resource,
          accessTokenTTL: 300,
          accessTokenFormat: opaque.has(client.clientId) ? "opaque" : "jwt",
          jwt: { sign: { alg: "ES256" } },
        }),
      },
    },
  });
  // Plain http on loopback is what the tests run: the provider is told it is behind no proxy.
  http.on("request", provider.callback());
  return {
    issuer,
    signingKey: es.privateKey,
    signingKid: "es-1",
    async token(client, request) {
      const form = new URLSearchParams({ grant_type: "client_credentials", resource: request.resource });
      // Every scope the client may have, unless the test asks for fewer.
      const scope = request.scope ?? client.scope;
      if (scope !== "") form.set("scope", scope);
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`,
        },
        body: form.toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (body.access_token === undefined) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/**
 * A user's browser through the provider's login and consent pages (devInteractions): from the
 * authorization URL to the redirect back to the client, which is returned, not followed.
 */
export async function signIn(authorizationUrl: string, login: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  const step = async (method: "GET" | "POST", target: URL, form?: URLSearchParams): Promise<Response> => {
    const response = await fetch(target, {
      method,
      redirect: "manual",
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(form !== undefined ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(form !== undefined ? { body: form.toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  };
  for (let hop = 0; hop < 12; hop++) {
    const response = await step("GET", url);
    const location = response.headers.get("location");
    if (location !== null) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next;
      url = next;
      continue;
    }
    const page = await response.text();
    const action = /action="([^"]+)"/.exec(page)?.[1];
    if (action === undefined) throw new Error(`no form on ${url.href}: ${page.slice(0, 300)}`);
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    const form = new URLSearchParams(
      prompt === "login" ? { prompt, login, password: "any" } : { prompt: prompt ?? "consent" },
    );
    const submitted = await step("POST", new URL(action, url), form);
    const after = submitted.headers.get("location");
    if (after === null) throw new Error(`the ${prompt} form was not accepted: HTTP ${submitted.status}`);
    url = new URL(after, url);
    if (url.origin !== origin) return url;
  }
  throw new Error("the sign-in did not end");
}
