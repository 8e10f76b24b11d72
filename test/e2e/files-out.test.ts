/**
 * Files out, through the built CLI with real SDK clients and a recording upstream on 127.0.0.1:
 * a small PNG stays image content; a large PNG and a PDF come back as a resource_link and a line
 * of text (never their base64), which resources/read returns byte for byte to the session that
 * made the call and to no other; in tools, discovery and code mode, and in both protocol eras.
 * Expiry runs in process, on an injected clock.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileStore, setSharedFileStore } from "../../src/runtime/resources/file-store.js";
import {
  connectHttp,
  connectSpec,
  connectStdio,
  type HttpBridge,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { sendBytes, startUpstream, type Upstream } from "../helpers/upstream.js";

const PNG_HEADER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SMALL_PNG = Buffer.concat([PNG_HEADER, randomBytes(2_000)]);
const LARGE_PNG = Buffer.concat([PNG_HEADER, randomBytes(300_000)]);
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(200_000)]);

const SPEC = {
  openapi: "3.1.0",
  info: { title: "Files", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1:1" }],
  paths: {
    "/images/{size}": {
      get: {
        operationId: "getImage",
        parameters: [
          { name: "size", in: "path", required: true, schema: { type: "string", enum: ["small", "large"] } },
        ],
        responses: { "200": { description: "An image.", content: { "image/png": {} } } },
      },
    },
    "/reports/{id}": {
      get: {
        operationId: "getReport",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "A report.", content: { "application/pdf": {} } } },
      },
    },
  },
};

let upstream: Upstream;
let dir: string;
let specPath: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => {
    if (req.rawPath === "/images/small") return sendBytes(res, 200, "image/png", SMALL_PNG);
    if (req.rawPath === "/images/large") return sendBytes(res, 200, "image/png", LARGE_PNG);
    res.setHeader("content-disposition", 'attachment; filename="report-1.pdf"');
    return sendBytes(res, 200, "application/pdf", PDF);
  });
  dir = mkdtempSync(join(tmpdir(), "omb-files-"));
  specPath = join(dir, "files.json");
  writeFileSync(specPath, JSON.stringify(SPEC));
});

afterAll(async () => {
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Result = { content: Array<Record<string, unknown> & { type: string }>; structuredContent?: unknown };

/** The model-facing result holds no base64 of the file (any 4 KiB window of it). */
function expectNoBase64(result: unknown, file: Buffer): void {
  const text = JSON.stringify(result);
  for (const at of [0, 3, file.length - 4096]) {
    expect(text).not.toContain(
      file
        .subarray(at, at + 4096)
        .toString("base64")
        .slice(8, 200),
    );
  }
}

function linkOf(result: Result): { uri: string; mimeType: string; size: number; name: string } {
  const link = result.content.find((c) => c.type === "resource_link");
  expect(link, JSON.stringify(result.content)).toBeDefined();
  return link as never;
}

async function readBytes(client: { readResource(p: { uri: string }): Promise<unknown> }, uri: string) {
  const read = (await client.readResource({ uri })) as { contents: { blob?: string; mimeType?: string }[] };
  return { bytes: Buffer.from(read.contents[0]?.blob ?? "", "base64"), mimeType: read.contents[0]?.mimeType };
}

function modernClient(): Client {
  return new Client(
    { name: "omb-files-e2e", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
}

describe("files out over Streamable HTTP (built CLI)", () => {
  let bridge: HttpBridge;

  beforeAll(async () => {
    bridge = await startHttpBridge(specPath, ["--base-url", upstream.url]);
  }, 30_000);

  afterAll(async () => {
    await bridge?.stop();
  });

  it("keeps a small image as image content", async () => {
    const session = await connectHttp(bridge);
    try {
      const result = (await session.call("getImage", { size: "small" })) as Result;
      expect(result.content.map((c) => c.type)).toEqual(["image"]);
      expect(Buffer.from(String(result.content[0]!.data), "base64").equals(SMALL_PNG)).toBe(true);
    } finally {
      await session.close();
    }
  });

  it.each([
    { given: "a large PNG", name: "getImage", args: { size: "large" }, file: LARGE_PNG, type: "image/png" },
    { given: "a PDF", name: "getReport", args: { id: 1 }, file: PDF, type: "application/pdf" },
  ])(
    "links $given; its session reads the exact bytes, another session cannot",
    async ({ name, args, file, type }) => {
      const mine = await connectHttp(bridge);
      const other = await connectHttp(bridge);
      try {
        const result = (await mine.call(name, args)) as Result;
        expect(result.content.map((c) => c.type)).toEqual(["text", "resource_link"]);
        expectNoBase64(result, file);
        const link = linkOf(result);
        expect(link).toMatchObject({ mimeType: type, size: file.length });
        expect(textOf(result as never)).toContain(link.uri);
        const read = await readBytes(mine.client, link.uri);
        expect(read.mimeType).toBe(type);
        expect(read.bytes.equals(file)).toBe(true);
        await expect(other.client.readResource({ uri: link.uri })).rejects.toThrow(/not found/i);
      } finally {
        await mine.close();
        await other.close();
      }
    },
  );

  it("declares the resources capability and lists no private file", async () => {
    const session = await connectHttp(bridge);
    try {
      expect(session.client.getServerCapabilities()?.resources).toBeDefined();
      const listed = await session.client.listResources();
      expect(listed.resources.every((resource) => resource.uri.startsWith("ui://"))).toBe(true);
    } finally {
      await session.close();
    }
  });

  it("2026-07-28: links the file; the credential that called reads it, another cannot", async () => {
    const connect = async (token: string) => {
      const client = modernClient();
      await client.connect(
        new StreamableHTTPClientTransport(new URL(bridge.endpoint), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    const mine = await connect("user-a");
    const other = await connect("user-b");
    try {
      expect(mine.getProtocolEra()).toBe("modern");
      const result = (await mine.callTool({ name: "getReport", arguments: { id: 2 } })) as Result;
      expectNoBase64(result, PDF);
      const link = linkOf(result);
      expect((await readBytes(mine, link.uri)).bytes.equals(PDF)).toBe(true);
      await expect(other.readResource({ uri: link.uri })).rejects.toThrow(/not found/i);
    } finally {
      await mine.close();
      await other.close();
    }
  });
});

describe.each([
  {
    mode: "discovery",
    call: { name: "call_operation", arguments: { name: "getReport", arguments: { id: 3 } } },
  },
  {
    mode: "code",
    call: { name: "execute", arguments: { program: "return await api.getReport({ id: 3 });" } },
  },
])("files out in $mode mode (built CLI)", ({ mode, call }) => {
  let bridge: HttpBridge;

  beforeAll(async () => {
    bridge = await startHttpBridge(specPath, ["--base-url", upstream.url, "--mode", mode]);
  }, 30_000);

  afterAll(async () => {
    await bridge?.stop();
  });

  it("the result names the file's URI, never its bytes; the session reads them", async () => {
    const session = await connectHttp(bridge);
    try {
      const result = (await session.call(call.name, call.arguments)) as Result;
      expect(result).not.toHaveProperty("isError", true);
      expectNoBase64(result, PDF);
      const uri = /openapi-mcp-bridge:\/\/files\/[A-Za-z0-9_-]+/.exec(JSON.stringify(result))?.[0];
      expect(uri, JSON.stringify(result).slice(0, 2000)).toBeDefined();
      expect((await readBytes(session.client, uri!)).bytes.equals(PDF)).toBe(true);
    } finally {
      await session.close();
    }
  });
});

describe("files out over stdio (built CLI)", () => {
  it("links the PDF and the one client reads it", async () => {
    const session = await connectStdio(specPath, ["--base-url", upstream.url]);
    try {
      const result = (await session.call("getReport", { id: 5 })) as Result;
      expectNoBase64(result, PDF);
      const link = linkOf(result);
      expect(link.name).toBe("report-1.pdf");
      expect((await readBytes(session.client, link.uri)).bytes.equals(PDF)).toBe(true);
    } finally {
      await session.close();
    }
  });
});

describe("a kept file expires (in process, injected clock)", () => {
  it("is read before its time-to-live and not after", async () => {
    let now = 0;
    const previous = setSharedFileStore(
      createFileStore(
        { itemBytes: 1 << 20, ownerBytes: 4 << 20, totalBytes: 8 << 20, ttlMs: 60_000 },
        () => now,
      ),
    );
    const session = await connectSpec(specPath, { baseUrl: upstream.url });
    try {
      const link = linkOf((await session.call("getReport", { id: 4 })) as Result);
      now = 59_000;
      expect((await readBytes(session.client, link.uri)).bytes.equals(PDF)).toBe(true);
      now = 59_000 + 60_000;
      await expect(session.client.readResource({ uri: link.uri })).rejects.toThrow(/not found/i);
    } finally {
      await session.close();
      setSharedFileStore(previous);
    }
  });
});
