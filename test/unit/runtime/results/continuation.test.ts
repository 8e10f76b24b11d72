/**
 * Continuation of cut answers: a cut answer is kept whole, its marker gives a handle, and
 * reading the handles one after another gives back every item (or every character) the API
 * sent, in order, each part within the budget; the store stays within its bounds and gives a
 * handle only to the owner that got it.
 */
import { describe, expect, it } from "vitest";
import { readContinuation } from "../../../../src/runtime/results/continuation.js";
import { createScrubber } from "../../../../src/runtime/results/redact-secrets.js";
import {
  createResultStore,
  parseHandle,
  type ResultStore,
  resultOwner,
} from "../../../../src/runtime/results/result-store.js";
import { fitJson, fitText, TRUNCATION_META_KEY } from "../../../../src/runtime/results/truncate.js";

const textOf = (result: { content: { type: string; text?: string }[] }) =>
  result.content.map((c) => c.text ?? "").join("\n");

const continueText = (handle: string) => `read ${JSON.stringify({ continue: handle })}`;

/** Reads every part after the first; returns the parts' texts and structured copies. */
function readAll(store: ResultStore, first: string | undefined, budget: number, owner?: string) {
  const parts: { text: string; structured: unknown }[] = [];
  let handle = first;
  for (let guard = 0; handle !== undefined && guard < 1000; guard++) {
    const part = readContinuation(handle, { store, budget, continueText, ...(owner ? { owner } : {}) });
    expect(part.isError, textOf(part)).toBeUndefined();
    expect(textOf(part).length).toBeLessThanOrEqual(budget);
    parts.push({ text: textOf(part), structured: part.structuredContent });
    handle = (part._meta?.[TRUNCATION_META_KEY] as { continuation?: string } | undefined)?.continuation;
  }
  return parts;
}

/** The JSON text of a part (its note removed). */
const bodyOf = (text: string) => text.slice(0, text.lastIndexOf("\n[Part of a cut answer"));

describe("a cut list is read in whole items, all of them, in order", () => {
  const cases = [
    { name: "106 crew members, small budget", pads: Array(106).fill(20) },
    { name: "a root list", pads: Array(300).fill(5), root: true },
    { name: "some items larger than one part", pads: [10, 10, 10, 3000, 10, 2500, 10, 10] },
    { name: "every item larger than the budget: the whole text", pads: Array(6).fill(1500) },
  ];
  it.each(cases)("$name", ({ pads, root }) => {
    const budget = 2000;
    const store = createResultStore();
    const items = pads.map((pad, i) => ({ id: i, name: `person ${i}`, bio: "x".repeat(pad) }));
    const value = root ? items : { id: 550, crew: items };
    const text = JSON.stringify(value);
    const fitted = fitJson(value, text, {
      budget,
      keep: {
        store,
        continueText,
        structuredOf: (v) => (v === undefined ? {} : (v as Record<string, unknown>)),
      },
    });
    expect(fitted.text.length).toBeLessThanOrEqual(budget);
    expect(fitted.text).not.toContain("cannot be fetched");
    const handle = fitted.truncation?.continuation;
    expect(fitted.text).toContain(JSON.stringify({ continue: handle }));
    const parts = readAll(store, handle, budget);
    expect(parts.at(-1)?.text).toContain("This is the end of the answer.");
    if (fitted.truncation?.shortened) {
      expect(JSON.parse(parts.map((p) => bodyOf(p.text)).join(""))).toEqual(value);
      return;
    }
    const shown = fitted.truncation?.items?.shown ?? 0;
    // Whole-item parts are JSON lists; an item too large for a part comes as text windows.
    const rest: unknown[] = [];
    let pending = "";
    for (const part of parts) {
      const body = bodyOf(part.text);
      if (part.text.includes("(whole items, as a JSON list)")) {
        rest.push(...(JSON.parse(body) as unknown[]));
        expect(part.structured).toMatchObject(root ? {} : { id: 550 });
      } else {
        pending += body;
        if (isCompleteJson(pending)) {
          rest.push(JSON.parse(pending));
          pending = "";
        }
      }
    }
    expect(pending).toBe("");
    const first = Array.isArray(fitted.value) ? fitted.value : (fitted.value as { crew: unknown[] }).crew;
    expect([...first.slice(0, shown), ...rest]).toEqual(items);
  });
});

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("text and shortened JSON are read in windows, losing nothing", () => {
  it("text cut at a line: the parts continue where the first stopped", () => {
    const store = createResultStore();
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${"y".repeat(i % 40)}`).join("\n");
    const fitted = fitText(text, { budget: 1500, keep: { store, continueText } });
    const shown = fitted.text.slice(0, fitted.text.lastIndexOf("\n[Truncated"));
    const parts = readAll(store, fitted.truncation?.continuation, 1500);
    expect(shown + parts.map((p) => bodyOf(p.text)).join("")).toBe(text);
  });

  it("a kept answer is kept redacted: a secret a window boundary would split never comes back", () => {
    const secret = "sk-live-0123456789abcdef";
    const scrub = createScrubber([secret]);
    const store = createResultStore();
    // The secret on every line, so that some window boundaries fall inside it.
    const text = Array.from(
      { length: 300 },
      (_, i) => `line ${i} token=${secret} ${"y".repeat(i % 37)}`,
    ).join("\n");
    const fitted = fitText(text, { budget: 1500, keep: { store, continueText, scrub } });
    const parts = readAll(store, fitted.truncation?.continuation, 1500);
    const read = parts.map((p) => bodyOf(p.text)).join("");
    expect(read.length).toBeGreaterThan(0);
    for (const piece of [secret, secret.slice(0, 12), secret.slice(12)]) expect(read).not.toContain(piece);
    expect(read).toBe(scrub(text).slice(scrub(text).length - read.length));
  });

  it("an object with no list to cut: the whole JSON text, from the start", () => {
    const store = createResultStore();
    const value = { description: "z".repeat(9000), nested: { more: "w".repeat(3000) } };
    const text = JSON.stringify(value);
    const fitted = fitJson(value, text, { budget: 2000, keep: { store, continueText } });
    expect(fitted.text).toContain("The whole answer is kept");
    const parts = readAll(store, fitted.truncation?.continuation, 2000);
    expect(JSON.parse(parts.map((p) => bodyOf(p.text)).join(""))).toEqual(value);
  });
});

describe("the store's bounds and owners", () => {
  const answer = (chars: number) => ({ units: ["a".repeat(chars)], label: "t", items: false });

  it("a handle is read only by the owner that got it", () => {
    const store = createResultStore();
    const id = store.keep("session-a", answer(10))!;
    expect(store.read("session-a", id)).toBeDefined();
    expect(store.read("session-b", id)).toBeUndefined();
    expect(store.read(undefined, id)).toBeUndefined();
  });

  it("keeps at most an owner's room, the oldest going first; never more than the total", () => {
    const store = createResultStore({ ownerChars: 100, totalChars: 150, ttlMs: 60_000 });
    const a1 = store.keep("a", answer(60))!;
    const a2 = store.keep("a", answer(60))!;
    expect(store.read("a", a1)).toBeUndefined();
    expect(store.read("a", a2)).toBeDefined();
    const b1 = store.keep("b", answer(60))!;
    const b2 = store.keep("b", answer(60))!;
    // 60 (a2) + 60 (b1) + 60 (b2) > 150: b's own oldest goes
    expect(store.read("b", b1)).toBeUndefined();
    expect(store.read("b", b2)).toBeDefined();
    expect(store.keep("a", answer(101))).toBeUndefined();
  });

  it("forgets an answer its time after the last read", () => {
    let time = 0;
    const store = createResultStore({ ownerChars: 100, totalChars: 100, ttlMs: 1000 }, () => time);
    const id = store.keep(undefined, answer(10))!;
    time = 900;
    expect(store.read(undefined, id)).toBeDefined();
    time = 1800;
    expect(store.read(undefined, id)).toBeDefined();
    time = 2801;
    expect(store.read(undefined, id)).toBeUndefined();
  });

  it.each([
    ["not a handle", /is not a continuation handle/],
    ["AAAAAAAAAAAAAAAAAAAAAA.0", /no longer kept/],
  ])("%s: an isError result that says what to do", (handle, message) => {
    const result = readContinuation(handle, { store: createResultStore(), budget: 1000, continueText });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });

  it("parses the handles it formats", () => {
    expect(parseHandle("abcdefgh_-.12.345")).toEqual({
      id: "abcdefgh_-",
      position: { unit: 12, offset: 345 },
    });
    expect(parseHandle("abcdefgh.3")).toEqual({ id: "abcdefgh", position: { unit: 3, offset: 0 } });
    expect(parseHandle("x.1")).toBeUndefined();
  });
});

describe("resultOwner: who may read a call's kept answers", () => {
  it.each([
    [{ session: "s1" }, "session s1"],
    [{ session: "s1", headers: { authorization: "Bearer a" } }, "session s1"],
    [{ headers: { authorization: "Bearer a" } }, "credential"],
    [{ headers: { "x-api-key": "k" } }, "credential"],
    [{}, undefined],
  ])("%j", (context, want) => {
    const owner = resultOwner(context);
    if (want === undefined) expect(owner).toBeUndefined();
    else expect(owner?.startsWith(want)).toBe(true);
  });

  it("two credentials without a session are two owners, and the secret is not in the owner", () => {
    const a = resultOwner({ headers: { authorization: "Bearer secret-a" } });
    const b = resultOwner({ headers: { authorization: "Bearer secret-b" } });
    expect(a).not.toBe(b);
    expect(a).not.toContain("secret-a");
  });
});
