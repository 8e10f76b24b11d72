/**
 * Secrets in every form they travel in, against a real loopback API that echoes what it got the
 * way real servers do (PHP's `\/`, Python's `\u00e9`, the request URL as sent, the Authorization
 * header): nothing of a credential reaches the model, in the text copy, the structured copy or
 * an error. Also: the bridge's own --http-token never goes upstream, and a token URL on another
 * port of the API's host gets no client secret.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBridgeRuntime } from "../../src/runtime/engine/bridge-runtime.js";
import { startHttpServer } from "../../src/runtime/transport/streamable-http.js";
import { textOf as cliTextOf, connectStdio, runCli } from "../helpers/bridge.js";
import {
  sendBytes,
  sendJson,
  startUpstream,
  type Upstream,
  type UpstreamHandler,
} from "../helpers/upstream.js";
import { connectRuntime, planSpec, textOf } from "./safety-support.js";

/** The body as PHP's json_encode writes it: `/` as `\/`, non-ASCII as `\uXXXX`. */
function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll("/", "\\/")
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Echoes what a request carried, in the style the path asks for. */
const echo: UpstreamHandler = (req, res) => {
  const seen = {
    url: req.rawUrl,
    authorization: req.header("authorization") ?? null,
    key: req.header("x-key") ?? null,
    body: req.text(),
  };
  if (req.rawPath.startsWith("/php")) return sendBytes(res, 200, "application/json", phpJson(seen));
  if (req.rawPath.startsWith("/password")) {
    const basic = /^Basic (.+)$/.exec(seen.authorization ?? "")?.[1];
    const pair = basic ? Buffer.from(basic, "base64").toString("utf8") : "";
    return sendJson(res, 200, { password: pair.slice(pair.indexOf(":") + 1) });
  }
  if (req.rawPath.startsWith("/denied"))
    return sendJson(res, 401, { message: `bad token ${seen.authorization}` });
  return sendJson(res, 200, seen);
};

const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
const paths = {
  "/echo": { get: { operationId: "echo", responses: ok } },
  "/php": { get: { operationId: "echoPhp", security: [{ key: [] }], responses: ok } },
  "/query": { get: { operationId: "echoQuery", security: [{ queryKey: [] }], responses: ok } },
  "/password": { get: { operationId: "echoPassword", security: [{ basic: [] }], responses: ok } },
  "/denied": { get: { operationId: "denied", responses: ok } },
  "/token-echo": { get: { operationId: "viaClient", security: [{ cc: [] }], responses: ok } },
  "/pass": { get: { operationId: "passThrough", security: [{ bearer: [] }], responses: ok } },
};
const schemes = (tokenUrl: string) => ({
  key: { type: "apiKey", in: "header", name: "X-Key" },
  queryKey: { type: "apiKey", in: "query", name: "api_key" },
  basic: { type: "http", scheme: "basic" },
  bearer: { type: "http", scheme: "bearer" },
  cc: { type: "oauth2", flows: { clientCredentials: { tokenUrl, scopes: {} } } },
});

let api: Upstream;
let idp: Upstream;

beforeAll(async () => {
  api = await startUpstream(echo);
  // A token endpoint that refuses the client and echoes the Basic header it got, as some do.
  idp = await startUpstream((req, res) =>
    sendJson(res, 401, {
      error: "invalid_client",
      error_description: `client authentication failed for ${req.header("authorization")}`,
    }),
  );
});
afterAll(async () => {
  await api.close();
  await idp.close();
});
beforeEach(() => {
  api.reset();
  idp.reset();
});

function everything(result: CallToolResult): string {
  return JSON.stringify(result);
}

describe("every form of a credential is redacted", () => {
  const model = () =>
    planSpec({
      servers: [{ url: api.url }],
      paths,
      components: { securitySchemes: schemes(`${idp.url}/token`) },
    });

  it('a credential echoed JSON-escaped (\\/, \\", \\\\, \\u00e9) in the text copy', async () => {
    const secret = 'sk/"live\\é-0123';
    const bridge = await connectRuntime(model(), { env: {}, auth: { key: secret } });
    try {
      const result = await bridge.call("echoPhp");
      expect(api.requests[0]!.header("x-key")).toBe(secret);
      expect(textOf(result)).toContain('"key":"[REDACTED]"');
      expect(textOf(result)).not.toContain("live");
      expect(everything(result)).not.toContain("live");
    } finally {
      await bridge.close();
    }
  });

  it("a query credential with !'()*, echoed as the URL was sent", async () => {
    const secret = "k!'()*ey-7890";
    const bridge = await connectRuntime(model(), { env: {}, auth: { queryKey: secret } });
    try {
      const result = await bridge.call("echoQuery");
      expect(api.requests[0]!.rawQuery).toBe("api_key=k%21%27%28%29%2Aey-7890");
      expect(everything(result)).not.toContain("%2Aey-7890");
      expect(everything(result)).not.toContain("ey-7890");
      expect(textOf(result)).toContain("api_key=[REDACTED]");
    } finally {
      await bridge.close();
    }
  });

  it("an HTTP Basic password echoed alone", async () => {
    const bridge = await connectRuntime(model(), { env: {}, auth: { basic: "alice:hunter2-pw" } });
    try {
      const result = await bridge.call("echoPassword");
      expect(everything(result)).not.toContain("hunter2-pw");
      expect(result.structuredContent).toEqual({ password: "[REDACTED]" });
    } finally {
      await bridge.close();
    }
  });

  it("the OAuth2 client credentials as the base64 Basic header a token endpoint echoes", async () => {
    const bridge = await connectRuntime(model(), {
      env: {},
      oauth: { cc: { clientId: "my-client", clientSecret: "cl!ent-secret-42", trustSpecTokenUrl: true } },
    });
    try {
      const result = await bridge.call("viaClient");
      const sentBasic = idp.requests[0]!.header("authorization")!;
      expect(sentBasic).toMatch(/^Basic /);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("client authentication failed for Basic [REDACTED]");
      expect(everything(result)).not.toContain(sentBasic.slice(6));
      expect(api.requests).toHaveLength(0);
    } finally {
      await bridge.close();
    }
  });
});

describe("--header values", () => {
  it("an Authorization given with --header is redacted from results, whole and as the token alone (stdio)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-secret-"));
    const file = join(dir, "spec.json");
    writeFileSync(
      file,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "Echo", version: "1" },
        servers: [{ url: api.url }],
        paths,
      }),
    );
    const bridge = await connectStdio(file, [
      "--header",
      "Authorization: Bearer hdr-token-5678",
      "--header",
      "Stripe-Version: 2024-06-20",
    ]);
    try {
      const echoed = await bridge.call("echo");
      expect(api.requests[0]!.header("authorization")).toBe("Bearer hdr-token-5678");
      expect(cliTextOf(echoed)).toContain('"authorization":"[REDACTED]"');
      const denied = await bridge.call("denied");
      expect(denied.isError).toBe(true);
      expect(cliTextOf(denied)).toContain("bad token [REDACTED]");
      for (const result of [echoed, denied]) expect(JSON.stringify(result)).not.toContain("hdr-token-5678");
      expect(bridge.stderr()).not.toContain("hdr-token-5678");
    } finally {
      await bridge.close();
    }
  });
});

describe("the bridge's own --http-token", () => {
  const model = () =>
    planSpec({
      servers: [{ url: api.url }],
      paths,
      components: { securitySchemes: schemes(`${api.url}/token`) },
    });

  it("is never forwarded upstream, even when a pass-through header maps Authorization", async () => {
    const runtime = createBridgeRuntime(model(), {
      env: {},
      passThroughHeaders: { Authorization: "bearer" },
    });
    const running = await startHttpServer(runtime, { port: 0, bearerToken: "bridge-own-token-1" });
    try {
      const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
      const { StreamableHTTPClientTransport } = await import(
        "@modelcontextprotocol/sdk/client/streamableHttp.js"
      );
      const client = new Client({ name: "t", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(running.url), {
          requestInit: { headers: { authorization: "Bearer bridge-own-token-1" } },
        }),
      );
      await client.callTool({ name: "passThrough", arguments: {} });
      await client.close();
      expect(api.requests).toHaveLength(1);
      expect(api.requests[0]!.header("authorization")).toBeUndefined();
    } finally {
      await running.close();
      await runtime.close();
    }
  });

  it("serve refuses --pass-through-header Authorization together with --http-token", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-secret-"));
    const file = join(dir, "spec.json");
    writeFileSync(
      file,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "Echo", version: "1" },
        servers: [{ url: api.url }],
        paths,
        components: { securitySchemes: schemes(`${api.url}/token`) },
      }),
    );
    const run = await runCli(
      ["serve", file, "--transport", "http", "--port", "0", "--pass-through-header", "authorization=bearer"],
      { env: { OPENAPI_MCP_HTTP_TOKEN: "bridge-own-token-2" } },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error OMB_AUTH_CONFIG --pass-through-header authorization: the Authorization header carries the bridge's own --http-token/m,
    );
    expect(run.stderr).toContain("hint:");
    expect(run.stderr).not.toContain("bridge-own-token-2");
  });
});

describe("OAuth2 token URLs: ports count", () => {
  it("a spec's token URL on another port of the API's host gets no client secret", async () => {
    const other = `http://127.0.0.1:${new URL(idp.url).port}`;
    const bridge = await connectRuntime(
      planSpec({
        servers: [{ url: api.url }],
        paths,
        components: { securitySchemes: schemes(`${other}/token`) },
      }),
      { env: {}, oauth: { cc: { clientId: "c", clientSecret: "client-secret-99" } } },
    );
    try {
      const result = await bridge.call("viaClient");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`the spec's token URL ${other}/token is not on the API's site`);
      expect(idp.requests).toHaveLength(0);
      expect(api.requests).toHaveLength(0);
    } finally {
      await bridge.close();
    }
  });
});
