/**
 * What `install` writes starts a working bridge: the built CLI adds the example spec to a
 * Cursor configuration, then the entry is started the way Cursor starts it (its command, its
 * args, its env with `${env:NAME}` expanded from the environment) and an SDK client calls the
 * example API through it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, ROOT } from "../helpers/bridge.js";

interface Petstore {
  DEMO_API_KEY: string;
  startPetstore(): Promise<{ url: string; close(): Promise<void> }>;
}
const { DEMO_API_KEY, startPetstore } = (await import(
  pathToFileURL(join(ROOT, "examples", "petstore", "server.mjs")).href
)) as Petstore;

const run = promisify(execFile);
const scratch = mkdtempSync(join(tmpdir(), "omb-install-e2e-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("install, then the client starts the entry", () => {
  it("serves the spec with the options given and the credential from the environment", async () => {
    const api = await startPetstore();
    const config = join(scratch, "mcp.json");
    try {
      const spec = join(ROOT, "examples", "petstore", "openapi.yaml");
      const { stderr } = await run(
        process.execPath,
        [
          CLI,
          "install",
          spec,
          "--client",
          "cursor",
          "--config",
          config,
          "--base-url",
          api.url,
          "--read-only",
        ],
        {
          env: { ...process.env, OPENAPI_MCP_CACHE: "0" },
        },
      );
      expect(stderr).toContain(`added "demo-pet-store" in Cursor's configuration: ${config}`);
      const entry = JSON.parse(readFileSync(config, "utf8")).mcpServers["demo-pet-store"] as {
        command: string;
        args: string[];
        env: Record<string, string>;
      };
      const env = Object.fromEntries(
        Object.entries(entry.env).map(([name, value]) => [
          name,
          value.replace(/\$\{env:(\w+)\}/g, (_, v: string) =>
            v === "OPENAPI_MCP_AUTH_APIKEY" ? DEMO_API_KEY : "",
          ),
        ]),
      );
      const client = new Client({ name: "cursor-like", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: entry.command,
          args: entry.args,
          env: { PATH: process.env["PATH"] ?? "", OPENAPI_MCP_CACHE: "0", ...env },
          stderr: "pipe",
        }),
      );
      try {
        const { tools } = await client.listTools();
        // --read-only: only the GET operations.
        expect(tools.map((t) => t.name).sort()).toEqual(["getPetById", "listPets"]);
        const result = await client.callTool({ name: "getPetById", arguments: { petId: 1 } });
        expect(result.isError).toBeFalsy();
        expect(JSON.stringify(result.content)).toContain("Rex");
      } finally {
        await client.close();
      }
    } finally {
      await api.close();
    }
  });
});
