/**
 * The Redis token store's wire format (RESP2): commands as arrays of bulk strings (byte
 * lengths, not character lengths), and replies parsed only once complete, nested arrays
 * included, errors named.
 */
import { describe, expect, it } from "vitest";
import { encodeCommand, parseReply } from "../../../../src/runtime/auth/user-login/redis-store.js";

describe("encodeCommand", () => {
  it.each([
    [["GET", "k"], "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"],
    [["SET", "k", "é"], "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n"],
    [["SET", "k", ""], "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n"],
  ])("%j", (args, wire) => {
    expect(encodeCommand(args).toString("utf8")).toBe(wire);
  });
});

describe("parseReply", () => {
  it.each<[string, string, unknown, string | undefined]>([
    ["a status", "+OK\r\n", "OK", undefined],
    ["an error", "-ERR wrong\r\n", null, "ERR wrong"],
    ["an integer", ":3\r\n", 3, undefined],
    ["a bulk string", "$5\r\nhello\r\n", "hello", undefined],
    ["a bulk string with CRLF inside", "$4\r\na\r\nb\r\n", "a\r\nb", undefined],
    ["a missing key", "$-1\r\n", null, undefined],
    ["an array", "*2\r\n$1\r\na\r\n:1\r\n", ["a", 1], undefined],
    ["a nested array", "*1\r\n*1\r\n+x\r\n", [["x"]], undefined],
  ])("reads %s", (_what, wire, value, error) => {
    const parsed = parseReply(Buffer.from(wire, "utf8"), 0);
    expect(parsed?.value).toEqual(value);
    expect(parsed?.error).toBe(error);
    expect(parsed?.end).toBe(Buffer.byteLength(wire));
  });

  it.each([["+OK"], ["$5\r\nhel"], ["*2\r\n$1\r\na\r\n"], [""]])("waits for the rest of %j", (wire) => {
    expect(parseReply(Buffer.from(wire, "utf8"), 0)).toBeUndefined();
  });

  it("names a reply that is not RESP", () => {
    expect(parseReply(Buffer.from("HTTP/1.1 400\r\n"), 0)?.error).toMatch(/not RESP/);
  });
});
