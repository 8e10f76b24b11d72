/** What the audit log may show of a call's arguments. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JsonSchema } from "../../../../src/model/types.js";
import {
  createAuditLog,
  isSensitiveName,
  REDACTED,
  redactArguments,
} from "../../../../src/runtime/audit/audit-log.js";

describe("isSensitiveName", () => {
  it.each([
    ["password", true],
    ["newPassword", true],
    ["passwd", true],
    ["client_secret", true],
    ["access_token", true],
    ["pageToken", true],
    ["apiKey", true],
    ["api-key", true],
    ["X-API-KEY", true],
    ["key", true],
    ["Authorization", true],
    ["credentials", true],
    ["private_key", true],
    ["sessionId", true],
    ["name", false],
    ["keyword", false],
    ["monkey", false],
    ["passenger", false],
    ["id", false],
  ])("%s → %s", (name, want) => {
    expect(isSensitiveName(name)).toBe(want);
  });
});

describe("redactArguments", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: {
      login: { $ref: "#/$defs/Login" },
      pin: { type: "string", format: "password" },
      list: { type: "array", items: { $ref: "#/$defs/Login" } },
      extra: { type: "object", additionalProperties: { type: "string", format: "password" } },
    },
    $defs: {
      Login: {
        type: "object",
        properties: { user: { type: "string" }, code: { type: "string", format: "password" } },
      },
    },
  };

  it("redacts by name, by format: password (through $defs, items and additionalProperties) and by value", () => {
    const out = redactArguments(
      {
        login: { user: "bob", code: "1234", token: "t" },
        pin: "9999",
        list: [{ user: "a", code: "c" }],
        extra: { anything: "hidden" },
        apiKey: "k",
        note: "my key is sk-live-123 ok",
        count: 3,
        flag: null,
      },
      schema,
      ["sk-live-123"],
    );
    expect(out).toEqual({
      login: { user: "bob", code: REDACTED, token: REDACTED },
      pin: REDACTED,
      list: [{ user: "a", code: REDACTED }],
      extra: { anything: REDACTED },
      apiKey: REDACTED,
      note: `my key is ${REDACTED} ok`,
      count: 3,
      flag: null,
    });
  });

  it("cuts huge strings, long arrays and deep nesting, and keeps __proto__ a plain key", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100; i++) deep = { d: deep };
    const hostile = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
    ) as object;
    const out = redactArguments(
      { big: "x".repeat(1_000_000), many: Array.from({ length: 1000 }, (_, i) => i), deep, hostile },
      undefined,
      [],
    ) as Record<string, unknown>;
    expect(out["big"]).toBe(`${"x".repeat(500)}…[1000000 characters]`);
    expect((out["many"] as unknown[]).length).toBe(101);
    expect((out["many"] as unknown[])[100]).toBe("…[1000 items]");
    expect(JSON.stringify(out).length).toBeLessThan(5000);
    expect(JSON.stringify(out["hostile"])).toBe(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
    );
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("createAuditLog('-')", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("writes one JSON line per entry to stderr", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const log = createAuditLog("-");
    log.write({ time: "t", tool: "x", arguments: {}, durationMs: 1, outcome: "ok" });
    await log.close();
    expect(lines).toEqual(['{"time":"t","tool":"x","arguments":{},"durationMs":1,"outcome":"ok"}\n']);
  });
});
