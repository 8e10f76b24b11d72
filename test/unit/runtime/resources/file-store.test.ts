import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import { createFileStore, FILE_URI_PREFIX } from "../../../../src/runtime/resources/file-store.js";
import { toSuccessResult } from "../../../../src/runtime/results/success.js";

const LIMITS = { itemBytes: 100, ownerBytes: 2500, totalBytes: 4000, ttlMs: 1000 };
const file = (size: number, fill = 1) => ({ bytes: Buffer.alloc(size, fill), mimeType: "application/pdf" });

describe("the file store", () => {
  it("gives back the exact bytes to the owner only", () => {
    const store = createFileStore(LIMITS, () => 0);
    const uri = store.keep("session a", { ...file(50, 9), name: "a.pdf" });
    expect(uri).toMatch(new RegExp(`^${FILE_URI_PREFIX}[A-Za-z0-9_-]{22}$`));
    expect(store.read("session a", uri!)?.bytes.equals(Buffer.alloc(50, 9))).toBe(true);
    expect(store.read("session a", uri!)?.name).toBe("a.pdf");
    expect(store.read("session b", uri!)).toBeUndefined();
    expect(store.read(undefined, uri!)).toBeUndefined();
  });

  it.each([
    { given: "a file over the item cap", sizes: [101], kept: [false] },
    {
      given: "files over the owner's room: the oldest go",
      sizes: [100, 100, 100],
      kept: [false, true, true],
    },
  ])("bounds: $given", ({ sizes, kept }) => {
    const store = createFileStore(LIMITS, () => 0);
    const uris = sizes.map((size) => store.keep("o", file(size)));
    expect(uris.map((uri) => uri !== undefined && store.read("o", uri) !== undefined)).toEqual(kept);
  });

  it("counts each file for its entry too: tiny files cannot pile up past the bounds", () => {
    const store = createFileStore(LIMITS, () => 0);
    const uris = Array.from({ length: 10 }, () => store.keep("o", file(1)));
    expect(uris.filter((uri) => store.read("o", uri!) !== undefined)).toHaveLength(2);
  });

  it("keeps the total within bounds across owners", () => {
    const store = createFileStore(LIMITS, () => 0);
    const first = store.keep("a", file(100));
    for (const owner of ["b", "c", "d", "e"]) store.keep(owner, file(100));
    expect(store.read("a", first!)).toBeUndefined();
  });

  it("expires a file ttlMs after it was kept or last read (injected clock)", () => {
    let now = 0;
    const store = createFileStore(LIMITS, () => now);
    const uri = store.keep("o", file(10))!;
    now = 900;
    expect(store.read("o", uri)).toBeDefined();
    now = 1800;
    expect(store.read("o", uri)).toBeDefined();
    now = 2800;
    expect(store.read("o", uri)).toBeUndefined();
  });
});

describe("binary answers as links", () => {
  const tool = { name: "getReport", outputSchema: undefined } as unknown as ToolNode;
  const answer = (bytes: Buffer, type: string) => ({
    status: 200,
    headers: { "content-type": type },
    body: bytes,
    truncated: false,
  });

  it.each([
    { given: "a small image", type: "image/png", size: 1000, want: ["image"] },
    { given: "a large image", type: "image/png", size: 200_000, want: ["text", "resource_link"] },
    {
      given: "a PDF over the inline size",
      type: "application/pdf",
      size: 70_000,
      want: ["text", "resource_link"],
    },
    { given: "a small zip", type: "application/zip", size: 100, want: ["resource"] },
  ])("$given → $want", ({ type, size, want }) => {
    const store = createFileStore();
    const bytes = Buffer.alloc(size, 42);
    const result = toSuccessResult(tool, answer(bytes, type) as never, {
      maxTextChars: 25_000,
      files: { store, owner: "me" },
    });
    expect(result.content.map((c) => c.type)).toEqual(want);
    const link = result.content.find((c) => c.type === "resource_link");
    if (link?.type === "resource_link") {
      expect(link).toMatchObject({ mimeType: type, size });
      expect(store.read("me", link.uri)?.bytes.equals(bytes)).toBe(true);
      // The model's copy holds no base64 of the file.
      expect(JSON.stringify(result)).not.toContain(bytes.subarray(0, 3000).toString("base64"));
    }
  });

  it("links a file where the spec promised JSON, in an error result, never its bytes as text", () => {
    const store = createFileStore();
    const bytes = Buffer.concat([Buffer.from("%PDF-1.7"), Buffer.alloc(5000, 200)]);
    const withSchema = { ...tool, outputSchema: { type: "object" } } as unknown as ToolNode;
    const result = toSuccessResult(withSchema, answer(bytes, "application/pdf") as never, {
      maxTextChars: 25_000,
      files: { store, owner: "me" },
    });
    expect(result.isError).toBe(true);
    expect(result.content.map((c) => c.type)).toEqual(["text", "resource_link"]);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain("the answer is application/pdf, not the JSON the spec documents");
    expect(text).not.toContain("%PDF");
    const link = result.content[1] as { uri: string };
    expect(store.read("me", link.uri)?.bytes.equals(bytes)).toBe(true);
  });
});
