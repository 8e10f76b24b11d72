/**
 * The library's way in (`startHttpServer(runtime, { oauth })`): what cannot work is refused
 * with a coded error, the port closed again; a front door that starts serves its metadata at
 * once, with the listening URL as its resource by default.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BridgeError } from "../../../../src/model/diagnostics.js";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import {
  type RunningHttpServer,
  startHttpServer,
} from "../../../../src/runtime/transport/streamable-http.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model = planSpec({ servers: [{ url: "https://api.example.test" }], paths: TOY_PATHS });
let running: RunningHttpServer | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function codeOf(start: Promise<unknown>): Promise<string | undefined> {
  const error = await start.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  return (error as BridgeError).diagnostics[0]?.code;
}

describe("startHttpServer with oauth", () => {
  it.each([
    [
      "with a bearer token",
      { bearerToken: "shared-token", oauth: { issuers: ["https://login.example.com"] } },
      "OMB_OAUTH_RESOURCE_CONFLICT",
    ],
    ["without an issuer", { oauth: { issuers: [] } }, "OMB_OAUTH_RESOURCE_INVALID"],
    [
      "with a resource that is no URL",
      { oauth: { issuers: ["https://login.example.com"], resource: "mcp" } },
      "OMB_OAUTH_RESOURCE_INVALID",
    ],
  ])("refuses a front door %s", async (_name, options, code) => {
    expect(await codeOf(startHttpServer(createBridgeRuntime(model), { port: 0, ...options }))).toBe(code);
  });

  it("serves the metadata at once, the listening URL as the resource by default", async () => {
    running = await startHttpServer(createBridgeRuntime(model), {
      port: 0,
      oauth: { issuers: ["https://login.example.com"], scopeMap: [{ pattern: "*", scopes: ["pets"] }] },
    });
    const metadata = await (
      await fetch(new URL("/.well-known/oauth-protected-resource/mcp", running.url))
    ).json();
    expect(metadata).toMatchObject({
      resource: running.url,
      authorization_servers: ["https://login.example.com"],
      scopes_supported: ["pets"],
    });
    const refused = await fetch(running.url, { method: "POST", body: "{}" });
    expect(refused.status).toBe(401);
  });
});
