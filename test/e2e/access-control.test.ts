/**
 * Access control end to end: filtered tools are neither listed nor callable (-32602), and
 * destructive operations are allowed, refused, or confirmed with the user through MCP
 * elicitation (refused with a clear message when the client cannot be asked).
 */

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectStdio } from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, errorMeta, planSpec, TOY_PATHS, textOf } from "./safety-support.js";

let upstream: Upstream;
const model = planSpec({ servers: [{ url: "https://api.example.test" }], paths: TOY_PATHS });

beforeAll(async () => {
  upstream = await startUpstream((req, res) => sendJson(res, 200, { method: req.method, path: req.rawPath }));
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

async function unknownToolError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe("filtered tools", () => {
  it("are neither listed nor callable: calling one is -32602 and sends nothing", async () => {
    const bridge = await connectRuntime(model, {
      baseUrl: upstream.url,
      access: { includeTags: ["pets"], excludeTools: ["*Pet"], readOnly: true },
    });
    try {
      const listed = (await bridge.client.listTools()).tools.map((t) => t.name);
      expect(listed).toEqual(["listPets"]);
      for (const name of ["getPet", "deletePet", "getInventory", "createPet"]) {
        const error = await unknownToolError(bridge.call(name, { id: "1" }));
        expect(error.code).toBe(ErrorCode.InvalidParams);
        expect(error.message).toContain(`Unknown tool: ${name}`);
      }
      expect(upstream.requests).toEqual([]);
      const result = await bridge.call("listPets");
      expect(result.isError ?? false).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(["GET /pets"]);
    } finally {
      await bridge.close();
    }
  });

  it("--destructive refuse removes DELETE, PUT and PATCH operations", async () => {
    const bridge = await connectRuntime(model, { baseUrl: upstream.url, access: { destructive: "refuse" } });
    try {
      const listed = (await bridge.client.listTools()).tools.map((t) => t.name);
      expect(listed).toEqual([
        "listPets",
        "createPet",
        "getPet",
        "headPet",
        "getInventory",
        "inventoryOptions",
      ]);
      await unknownToolError(bridge.call("deleteUser", { id: "1" }));
      expect(upstream.requests).toEqual([]);
    } finally {
      await bridge.close();
    }
  });
});

describe("--destructive confirm", () => {
  it("asks the user through elicitation and sends the call when they accept", async () => {
    const asked: string[] = [];
    const bridge = await connectRuntime(
      model,
      { baseUrl: upstream.url, access: { destructive: "confirm" } },
      {
        elicit: (message) => {
          asked.push(message);
          return { action: "accept", content: { confirm: true } };
        },
      },
    );
    try {
      const result = await bridge.call("deletePet", { id: "7" });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("deletePet (DELETE /pets/{id})");
      expect(asked[0]).toContain('{"id":"7"}');
      expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(["DELETE /pets/7"]);
      // Safe operations are never asked about.
      await bridge.call("getPet", { id: "7" });
      expect(asked).toHaveLength(1);
    } finally {
      await bridge.close();
    }
  });

  it.each([
    ["declines", { action: "decline" as const }],
    ["cancels", { action: "cancel" as const }],
    ["accepts without checking the box", { action: "accept" as const, content: { confirm: false } }],
  ])("sends nothing when the user %s", async (_label, answer) => {
    const bridge = await connectRuntime(
      model,
      { baseUrl: upstream.url, access: { destructive: "confirm" } },
      { elicit: () => answer },
    );
    try {
      const result = await bridge.call("updatePet", { id: "7" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Refused: the user did not allow updatePet \(PATCH \/pets\/\{id\}\)\. Nothing was sent\./,
      );
      expect(errorMeta(result)?.category).toBe("confirmation_declined");
      expect(upstream.requests).toEqual([]);
    } finally {
      await bridge.close();
    }
  });

  it("refuses with a clear message when the client does not support elicitation", async () => {
    const bridge = await connectRuntime(model, { baseUrl: upstream.url, access: { destructive: "confirm" } });
    try {
      const result = await bridge.call("deleteUser", { id: "1" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("deleteUser (DELETE /admin/users/{id}) is destructive");
      expect(textOf(result)).toContain("does not support elicitation");
      expect(errorMeta(result)?.category).toBe("confirmation_unavailable");
      expect(upstream.requests).toEqual([]);
      expect((await bridge.call("listPets")).isError ?? false).toBe(false);
    } finally {
      await bridge.close();
    }
  });

  it("refuses when the elicitation itself fails", async () => {
    const bridge = await connectRuntime(
      model,
      { baseUrl: upstream.url, access: { destructive: "confirm" } },
      {
        elicit: () => {
          throw new Error("the user closed the dialog");
        },
      },
    );
    try {
      const result = await bridge.call("deletePet", { id: "1" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("could not be obtained");
      expect(upstream.requests).toEqual([]);
    } finally {
      await bridge.close();
    }
  });
});

describe("the serve flags", () => {
  it("filter the served tools over stdio", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-access-"));
    const spec = join(dir, "toy.json");
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "Toy", version: "1" },
        servers: [{ url: upstream.url }],
        paths: TOY_PATHS,
      }),
    );
    const bridge = await connectStdio(spec, [
      "--include-tags",
      "pets,store",
      "--exclude-tools",
      "head*",
      "--methods",
      "get,delete",
      "--paths",
      "/pets/*,/store/**",
      "--destructive",
      "confirm",
      "--include-tools",
      "nothing-like-this*,*",
    ]);
    try {
      expect(bridge.tools.map((t) => t.name)).toEqual(["getPet", "deletePet", "getInventory"]);
      const result = await bridge.call("deletePet", { id: "1" });
      expect(textOf(result)).toContain("does not support elicitation");
      expect(upstream.requests).toEqual([]);
      expect(bridge.stderr()).toContain("note: tool nothing-like-this* matches no operation");
    } finally {
      await bridge.close();
    }
    const readOnly = await connectStdio(spec, ["--read-only"]);
    try {
      expect(readOnly.tools.map((t) => t.name)).toEqual([
        "listPets",
        "getPet",
        "headPet",
        "getInventory",
        "inventoryOptions",
      ]);
    } finally {
      await readOnly.close();
    }
  });
});
