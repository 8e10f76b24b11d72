/**
 * Tool names: the operationId when it is a portable name, otherwise a cleaned or derived one;
 * unique, at most 64 characters, never "undefined", the same on every run, nothing dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, connectSpec, fixture, library } from "../helpers/bridge.js";

const SPEC = fixture("naming/names.openapi31.yaml");
const PORTABLE = /^[a-zA-Z0-9_-]{1,64}$/;

describe("tool names", () => {
  let bridge: Connected;
  let nameOf: Map<string, string>;

  beforeAll(async () => {
    bridge = await connectSpec(SPEC);
    const { buildModel } = await library();
    const model = await buildModel(SPEC);
    nameOf = new Map(model.tools.map((t) => [`${t.http.method} ${t.http.path}`, t.name]));
  });

  afterAll(async () => {
    await bridge?.close();
  });

  const name = (route: string): string => {
    const found = nameOf.get(route);
    if (found === undefined) throw new Error(`no tool for ${route}: ${[...nameOf.keys()].join(", ")}`);
    return found;
  };

  it("gives every operation one tool with a unique portable name", () => {
    const names = bridge.tools.map((t) => t.name);
    expect(names).toHaveLength(12);
    expect(new Set(names).size).toBe(12);
    for (const n of names) {
      expect(n).toMatch(PORTABLE);
      expect(n).not.toBe("undefined");
    }
    expect([...nameOf.values()].sort()).toEqual([...names].sort());
  });

  it("keeps operationIds that are already portable, including one of exactly 64 characters", () => {
    expect(name("get /fine")).toBe("listThings_v2-beta");
    expect(name("get /exactly-64")).toBe("a234567890123456789012345678901234567890123456789012345678901234");
    expect(name("get /clash-two")).toBe("clash_name");
  });

  it("replaces invalid characters without losing the words", () => {
    for (const route of ["get /dotted", "get /spaced", "get /slashed"]) {
      const n = name(route);
      expect(n, route).toMatch(/things/);
      expect(n, route).toMatch(/list/);
    }
    expect(name("get /clash-one")).not.toBe("clash_name");
    expect(name("get /clash-one")).toMatch(/clash/);
  });

  it("shortens over-long names to distinct names of at most 64 characters", () => {
    const a = name("get /long-a");
    const b = name("get /long-b");
    expect(a.length).toBeLessThanOrEqual(64);
    expect(b.length).toBeLessThanOrEqual(64);
    expect(a).not.toBe(b);
    expect(a.startsWith("retrieve")).toBe(true);
  });

  it("derives names for operations without an operationId", () => {
    const derived = [
      name("get /no-id/{widgetId}/parts"),
      name("post /no-id/{widgetId}/parts"),
      name("get /no-id/widgets/parts"),
    ];
    expect(new Set(derived).size).toBe(3);
    for (const n of derived) expect(n).toMatch(/parts/);
  });

  it("names the same way on every run", async () => {
    const { buildModel } = await library();
    const again = await buildModel(SPEC);
    expect(new Map(again.tools.map((t) => [`${t.http.method} ${t.http.path}`, t.name]))).toEqual(nameOf);
  });
});
