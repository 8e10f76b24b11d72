/** Which session makes room for a new one, with a fake clock and fake transports. */
import type { NodeStreamableHTTPServerTransport as StreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { afterEach, describe, expect, it } from "vitest";
import { createSessionStore, type SessionStore } from "../../../../src/runtime/transport/sessions.js";

const closed: string[] = [];
const fake = (name: string) =>
  ({ close: async () => void closed.push(name) }) as unknown as StreamableHTTPServerTransport;
let store: SessionStore | undefined;
afterEach(async () => {
  await store?.close();
  closed.length = 0;
});

type Step = ["add" | "touch" | "hold", string] | ["wait", number];

describe("makeRoom", () => {
  it.each<[string, Step[], boolean, string[]]>([
    ["room left: nothing is closed", [["add", "a"]], true, []],
    [
      "the oldest session that never came back goes first",
      [
        ["add", "a"],
        ["add", "b"],
        ["add", "c"],
      ],
      true,
      ["a"],
    ],
    [
      "an established session idle a minute or more goes when none was abandoned",
      [
        ["add", "a"],
        ["touch", "a"],
        ["add", "b"],
        ["touch", "b"],
        ["add", "c"],
        ["touch", "c"],
        ["wait", 61_000],
        ["touch", "b"],
        ["touch", "c"],
      ],
      true,
      ["a"],
    ],
    [
      "established sessions used within the minute stay: refused",
      [
        ["add", "a"],
        ["touch", "a"],
        ["add", "b"],
        ["touch", "b"],
        ["add", "c"],
        ["touch", "c"],
        ["wait", 30_000],
      ],
      false,
      [],
    ],
    [
      "a session with a request or stream open is never closed, even if it never came back",
      [
        ["add", "a"],
        ["hold", "a"],
        ["add", "b"],
        ["touch", "b"],
        ["add", "c"],
        ["touch", "c"],
        ["wait", 61_000],
      ],
      true,
      ["b"],
    ],
  ])("%s", (_what, steps, room, expectedClosed) => {
    let now = 0;
    store = createSessionStore({ idleMs: 3_600_000, handshakeMs: 3_600_000, max: 3, now: () => now });
    for (const [action, value] of steps) {
      if (action === "wait") now += value;
      else if (action === "add") store.add(value, fake(value));
      else if (action === "touch") store.touch(value);
      else store.hold(value);
    }
    if (store.size < 3) expect(store.makeRoom()).toBe(true);
    else expect(store.makeRoom()).toBe(room);
    expect(closed).toEqual(expectedClosed);
  });
});
