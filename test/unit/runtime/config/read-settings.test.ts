/**
 * The option reader: every parser kind, flags against the environment, and errors that name
 * the flag (or the variable) and say what it takes.
 */
import { describe, expect, it } from "vitest";
import { BridgeError } from "../../../../src/model/diagnostics.js";
import type { Settings } from "../../../../src/runtime/config/option-table.js";
import { type RawFlags, readSettings, toRawFlags } from "../../../../src/runtime/config/read-settings.js";

const HELP = "`test --help`";

function read(flags: RawFlags, env: Record<string, string> = {}): Settings {
  return readSettings(flags, env, { help: HELP });
}

function refusal(flags: RawFlags, env: Record<string, string> = {}): BridgeError {
  try {
    read(flags, env);
  } catch (error) {
    if (error instanceof BridgeError) return error;
    throw error;
  }
  throw new Error("no error");
}

describe("readSettings: each kind of value, from a flag", () => {
  it.each<[string, RawFlags, Settings]>([
    ["nothing given: nothing set (defaults apply later)", {}, {}],
    ["a whole number", { timeout: ["500"] }, { timeout: 500 }],
    ["zero", { "max-result-chars": ["0"] }, { maxResultChars: 0 }],
    ["the last of a repeated single-valued flag", { port: ["1", "2"] }, { port: 2 }],
    ["a port: 0", { port: ["0"] }, { port: 0 }],
    ["a port: 65535", { port: ["65535"] }, { port: 65535 }],
    ["a choice", { transport: ["http"] }, { transport: "http" }],
    ["a switch", { stateless: ["true"] }, { stateless: true }],
    ["text", { host: ["0.0.0.0"] }, { host: "0.0.0.0" }],
    ["an http URL", { "base-url": ["http://127.0.0.1:8080/v1"] }, { baseUrl: "http://127.0.0.1:8080/v1" }],
    [
      "a list, comma-separated and repeated",
      { "allow-origin": ["a, b", "c,,"] },
      { allowOrigin: ["a", "b", "c"] },
    ],
    [
      "NAME=VALUE pairs, the value as written",
      { auth: ["a=1", "b=x=y", "c= spaced "] },
      { auth: { a: "1", b: "x=y", c: " spaced " } },
    ],
    [
      '"Name: value" headers, trimmed',
      { header: ["X-A: 1", " X-B :  two  "] },
      { header: { "X-A": "1", "X-B": "two" } },
    ],
    [
      "selection flags",
      { "include-tools": ["get*"], methods: ["get,post"], "read-only": ["true"], destructive: ["confirm"] },
      { includeTools: ["get*"], methods: ["get", "post"], readOnly: true, destructive: "confirm" },
    ],
  ])("%s", (_name, flags, settings) => {
    expect(read(flags)).toEqual(settings);
  });
});

describe("readSettings: from the environment", () => {
  it.each<[string, Record<string, string>, Settings]>([
    ["a number", { OPENAPI_MCP_TIMEOUT: "700" }, { timeout: 700 }],
    ["a choice", { OPENAPI_MCP_TRANSPORT: "http" }, { transport: "http" }],
    ["a switch: 1", { OPENAPI_MCP_STATELESS: "1" }, { stateless: true }],
    ["a switch: true", { OPENAPI_MCP_READ_ONLY: "true" }, { readOnly: true }],
    ["a switch: 0", { OPENAPI_MCP_STATELESS: "0" }, { stateless: false }],
    ["a list", { OPENAPI_MCP_INCLUDE_TAGS: "pets, store" }, { includeTags: ["pets", "store"] }],
    [
      "headers: a JSON object",
      { OPENAPI_MCP_HEADERS: '{"X-Tenant": "acme", "X-N": 1}' },
      { header: { "X-Tenant": "acme", "X-N": "1" } },
    ],
    ["an empty variable counts as unset", { OPENAPI_MCP_BASE_URL: "", OPENAPI_MCP_PORT: "" }, {}],
    ["a token", { OPENAPI_MCP_HTTP_TOKEN: "t0k3n" }, { httpToken: "t0k3n" }],
    ["a confirmation key", { OPENAPI_MCP_CONFIRM_KEY: "k".repeat(32) }, { confirmKey: "k".repeat(32) }],
    ["variables of other programs are ignored", { PORT: "1", OPENAPI_MCP_NO_SUCH: "x" }, {}],
  ])("%s", (_name, env, settings) => {
    expect(read({}, env)).toEqual(settings);
  });

  it("reads no per-name variable (those are read where the names are known)", () => {
    expect(read({}, { OPENAPI_MCP_AUTH_API_KEY: "k", OPENAPI_MCP_SERVER_VAR_REGION: "eu" })).toEqual({});
  });
});

describe("readSettings: flags win over the environment", () => {
  it.each<[string, RawFlags, Record<string, string>, Settings]>([
    ["a number", { port: ["4000"] }, { OPENAPI_MCP_PORT: "5000" }, { port: 4000 }],
    ["a choice", { transport: ["stdio"] }, { OPENAPI_MCP_TRANSPORT: "http" }, { transport: "stdio" }],
    [
      "a list: the flags replace it",
      { methods: ["get"] },
      { OPENAPI_MCP_METHODS: "post,put" },
      { methods: ["get"] },
    ],
    [
      "headers: name by name",
      { header: ["X-A: flag"] },
      { OPENAPI_MCP_HEADERS: '{"X-A": "env", "X-B": "env"}' },
      { header: { "X-A": "flag", "X-B": "env" } },
    ],
    [
      "the variable where no flag is given",
      { timeout: ["1"] },
      { OPENAPI_MCP_RETRIES: "0" },
      { timeout: 1, retries: 0 },
    ],
  ])("%s", (_name, flags, env, settings) => {
    expect(read(flags, env)).toEqual(settings);
  });

  it("refuses a bad variable even where a flag overrides it", () => {
    // A bad variable is a mistake even when a flag overrides it: said rather than hidden.
    expect(refusal({ port: ["1"] }, { OPENAPI_MCP_PORT: "x" }).code).toBe("OMB_OPTION_INVALID");
  });
});

describe("readSettings: bad values", () => {
  it.each<[string, RawFlags, string, RegExp]>([
    [
      "not a number",
      { port: ["abc"] },
      "OMB_OPTION_INVALID",
      /^--port: expected a port number from 0 to 65535, got "abc"$/,
    ],
    ["a port out of range", { port: ["65536"] }, "OMB_OPTION_INVALID", /^--port: expected a port number/],
    [
      "a negative number",
      { timeout: ["-1"] },
      "OMB_OPTION_INVALID",
      /^--timeout: expected a whole number of at least 1, got "-1"$/,
    ],
    // 0 ms would time every call out at once, reported as "no upstream call slot was free".
    [
      "a zero timeout",
      { timeout: ["0"] },
      "OMB_OPTION_INVALID",
      /^--timeout: expected a whole number of at least 1, got "0"$/,
    ],
    [
      "a zero connect timeout",
      { "connect-timeout": ["0"] },
      "OMB_OPTION_INVALID",
      /^--connect-timeout: expected a whole number of at least 1/,
    ],
    [
      "no upstream call at once",
      { "max-concurrency": ["0"] },
      "OMB_OPTION_INVALID",
      /^--max-concurrency: expected a whole number of at least 1/,
    ],
    [
      "a zero response limit",
      { "max-response-bytes": ["0"] },
      "OMB_OPTION_INVALID",
      /^--max-response-bytes: expected a whole number of at least 1/,
    ],
    ["a fraction", { retries: ["1.5"] }, "OMB_OPTION_INVALID", /^--retries: expected a whole number/],
    ["an empty number", { retries: [""] }, "OMB_OPTION_INVALID", /^--retries: expected a whole number/],
    [
      "an unknown choice",
      { transport: ["pigeon"] },
      "OMB_OPTION_INVALID",
      /^--transport: expected one of stdio, http, got "pigeon"$/,
    ],
    [
      "an unknown policy",
      { destructive: ["maybe"] },
      "OMB_OPTION_INVALID",
      /^--destructive: expected one of allow, refuse, confirm/,
    ],
    [
      "a pair without =",
      { auth: ["apikey"] },
      "OMB_OPTION_INVALID",
      /^--auth: expected SCHEME=VALUE, got "apikey"$/,
    ],
    [
      "a pair without a name",
      { "server-var": ["=eu"] },
      "OMB_OPTION_INVALID",
      /^--server-var: expected NAME=VALUE/,
    ],
    ["a header without :", { header: ["X-A=1"] }, "OMB_OPTION_INVALID", /^--header: expected "Name: value"/],
    [
      "a header name with a space",
      { header: ["X A: 1"] },
      "OMB_OPTION_INVALID",
      /^--header: "X A" is not a valid header name$/,
    ],
    [
      "a header value with a line break",
      { header: ["X-A: 1\r\nX-B: 2"] },
      "OMB_OPTION_INVALID",
      /control character/,
    ],
    [
      "a URL that is not http(s)",
      { "base-url": ["ftp://x"] },
      "OMB_BASE_URL",
      /^--base-url: "ftp:\/\/x" is not an http\(s\) URL$/,
    ],
    ["no URL at all", { "base-url": ["api.example.com"] }, "OMB_BASE_URL", /is not an http\(s\) URL/],
  ])("%s", (_name, flags, code, message) => {
    const error = refusal(flags);
    expect(error.code).toBe(code);
    expect(error.diagnostics).toHaveLength(1);
    expect(error.diagnostics[0]?.message).toMatch(message);
    expect(error.diagnostics[0]?.hint).toContain(HELP);
  });

  it("refuses a confirmation key under 32 bytes without showing it", () => {
    for (const error of [
      refusal({ "confirm-key": ["s3cret-but-short"] }),
      refusal({}, { OPENAPI_MCP_CONFIRM_KEY: "s3cret-but-short" }),
    ]) {
      expect(error.diagnostics[0]?.message).toMatch(/expected a secret of at least 32 bytes, got 16 bytes$/);
      expect(JSON.stringify(error.diagnostics)).not.toContain("s3cret");
    }
  });

  it("the hint says what the option takes", () => {
    expect(refusal({ port: ["x"] }).diagnostics[0]?.hint).toBe(
      "--port takes a port number from 0 to 65535 (0 picks a free one); `test --help` lists every option",
    );
  });

  it.each<[string, Record<string, string>, RegExp, string]>([
    [
      "a number",
      { OPENAPI_MCP_PORT: "abc" },
      /^OPENAPI_MCP_PORT \(--port\): expected a port number/,
      "OPENAPI_MCP_PORT takes",
    ],
    [
      "a switch",
      { OPENAPI_MCP_STATELESS: "maybe" },
      /^OPENAPI_MCP_STATELESS \(--stateless\): expected 1 or 0/,
      "takes 1 or 0",
    ],
    [
      "headers that are no JSON",
      { OPENAPI_MCP_HEADERS: "X-A: 1" },
      /^OPENAPI_MCP_HEADERS \(--header\): expected a JSON object/,
      "a JSON object of names to values",
    ],
    [
      "headers as a JSON array",
      { OPENAPI_MCP_HEADERS: "[1]" },
      /expected a JSON object/,
      "OPENAPI_MCP_HEADERS takes",
    ],
  ])("from the environment, %s names the variable and its flag", (_name, env, message, hint) => {
    const error = refusal({}, env);
    expect(error.code).toBe("OMB_OPTION_INVALID");
    expect(error.diagnostics[0]?.message).toMatch(message);
    expect(error.diagnostics[0]?.hint).toContain(hint);
  });
});

describe("readSettings: a part of the table", () => {
  it("reads only the keys asked for", () => {
    const settings = readSettings(
      { port: ["x"], methods: ["get"] },
      { OPENAPI_MCP_TIMEOUT: "x" },
      {
        help: HELP,
        keys: ["methods"],
      },
    );
    expect(settings).toEqual({ methods: ["get"] });
  });
});

describe("toRawFlags", () => {
  it("turns parseArgs values into every occurrence of each flag", () => {
    expect(toRawFlags({ port: "1", stateless: true, header: ["a: 1", "b: 2"], "read-only": false })).toEqual({
      port: ["1"],
      stateless: ["true"],
      header: ["a: 1", "b: 2"],
    });
  });
});
