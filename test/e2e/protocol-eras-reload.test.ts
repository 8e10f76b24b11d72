/**
 * The 2026-07-28 era beyond plain calls, through the built CLI with the v2 client pinned to it,
 * over stdio and Streamable HTTP (sessionful and --stateless): `serve --watch` tells a modern
 * client that the tools changed (its subscriptions/listen stream) while a 1.x-SDK 2025 client
 * of the same process gets notifications/tools/list_changed; a tool the reload removed answers
 * "tool changed" in both eras; and code mode runs a program that calls the API.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOG_META_KEY } from "../../src/runtime/server/tool-contracts.js";
import {
  CLI,
  type Connected,
  connectHttp,
  connectStdio,
  ROOT,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { echoHandler, startUpstream, type Upstream } from "../helpers/upstream.js";

const MODERN = "2026-07-28";
const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };

function pets(withDelete: boolean): string {
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Pets", version: withDelete ? "1" : "2" },
    paths: {
      "/pets": { get: { operationId: "listPets", responses: ok } },
      ...(withDelete
        ? {
            "/pets/{id}": {
              delete: {
                operationId: "deletePet",
                parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
                responses: ok,
              },
            },
          }
        : {}),
    },
  });
}

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream(echoHandler);
});
afterAll(async () => {
  await upstream.close();
});

/** A modern client that tells when the server says its tools changed, and the names it then lists. */
function modernClient(): { client: Client; changed: Promise<string[]> } {
  let tell: (names: string[]) => void = () => {};
  const changed = new Promise<string[]>((resolve) => {
    tell = resolve;
  });
  const client = new Client(
    { name: "omb-eras-reload", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: MODERN } },
      listChanged: {
        tools: {
          onChanged: (error, tools) => {
            if (!error && tools) tell(tools.map((tool) => tool.name));
          },
        },
      },
    },
  );
  return { client, changed };
}

interface Both {
  modern: Client;
  modernChanged: Promise<string[]>;
  legacy: Connected;
  close(): Promise<void>;
}

type Open = (spec: string, args: string[]) => Promise<Both>;

const transports: [string, Open][] = [
  [
    "stdio",
    async (spec, args) => {
      const { client, changed } = modernClient();
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, "serve", spec, ...args],
          env: { PATH: process.env.PATH ?? "" },
          cwd: ROOT,
          stderr: "ignore",
        }),
      );
      const legacy = await connectStdio(spec, args);
      return {
        modern: client,
        modernChanged: changed,
        legacy,
        close: async () => {
          await client.close();
          await legacy.close();
        },
      };
    },
  ],
  ...(["", "--stateless"] as const).map((flag): [string, Open] => [
    `Streamable HTTP${flag ? " --stateless" : ""}`,
    async (spec, args) => {
      const server = await startHttpBridge(spec, [...(flag ? [flag] : []), ...args]);
      const { client, changed } = modernClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
      const legacy = await connectHttp(server);
      return {
        modern: client,
        modernChanged: changed,
        legacy,
        close: async () => {
          await client.close();
          await legacy.close();
          await server.stop();
        },
      };
    },
  ]),
];

describe.each(transports)("the 2026-07-28 era over %s", (_name, open) => {
  it("hears of a reload that changed the tools, as the 2025 client beside it does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-eras-reload-"));
    const spec = join(dir, "pets.json");
    writeFileSync(spec, pets(true));
    const both = await open(spec, ["--watch", "--base-url", upstream.url]);
    try {
      const listed = await both.modern.listTools();
      expect(listed.tools.map((tool) => tool.name)).toEqual(["listPets", "deletePet"]);
      // What a modern client holds: each request stands alone, so it says which list it called from.
      const held = listed._meta?.[CATALOG_META_KEY];
      expect(held).toEqual({ catalogVersion: "1.0.0" });
      const legacyChanged = new Promise<void>((resolve) =>
        both.legacy.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
      );
      // The stateless 2025 side has no stream to tell it on; every other client hears.
      const stateless = _name.includes("stateless");
      writeFileSync(spec, pets(false));
      expect(await both.modernChanged).toEqual(["listPets"]);
      if (!stateless) await legacyChanged;
      // A call made from the old list (its catalog version in `_meta`) is told the tool changed.
      const removed = await both.modern.callTool({
        name: "deletePet",
        arguments: { id: "1" },
        _meta: { [CATALOG_META_KEY]: held },
      });
      expect(removed.isError).toBe(true);
      expect(textOf(removed)).toMatch(/The tool deletePet changed since this client listed the tools/);
      // Without it the tool is simply unknown now.
      await expect(both.modern.callTool({ name: "deletePet", arguments: { id: "1" } })).rejects.toThrow(
        /Unknown tool: deletePet/,
      );
      expect(upstream.requests.filter((req) => req.method === "DELETE")).toHaveLength(0);
    } finally {
      await both.close();
    }
  });

  it("runs a code-mode program that calls the API", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-eras-code-"));
    const spec = join(dir, "pets.json");
    writeFileSync(spec, pets(true));
    const both = await open(spec, ["--mode", "code", "--base-url", upstream.url]);
    try {
      expect((await both.modern.listTools()).tools.map((tool) => tool.name)).toContain("execute");
      const before = upstream.requests.length;
      const result = await both.modern.callTool({
        name: "execute",
        arguments: { program: "const pets = await api.listPets({}); return { path: pets.path };" },
      });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(textOf(result)).toContain("/pets");
      expect(upstream.requests.slice(before).map((req) => `${req.method} ${req.rawPath}`)).toEqual([
        "GET /pets",
      ]);
    } finally {
      await both.close();
    }
  });
});
