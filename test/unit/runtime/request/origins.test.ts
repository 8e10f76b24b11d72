/**
 * Where a call goes and whether it may carry the operator's credentials: resolveBaseUrl's
 * refusals (userinfo, backslashes, control characters, a variable outside its enum) and the
 * origin policy with the start-up line's description.
 */
import { describe, expect, it } from "vitest";
import type { BridgeModel, ServerNode, ToolNode } from "../../../../src/model/types.js";
import { resolveBaseUrl } from "../../../../src/runtime/request/build-request.js";
import { createOriginPolicy, describeCallOrigins } from "../../../../src/runtime/request/origins.js";

const server = (url: string, variables: ServerNode["variables"] = {}): ServerNode => ({ url, variables });

describe("resolveBaseUrl", () => {
  it.each([
    ["https://api.example.com/v1/", undefined, {}, { url: "https://api.example.com/v1" }],
    ["https://{region}.example.com", undefined, {}, { url: "https://eu.example.com" }],
    ["https://{region}.example.com", undefined, { region: "us" }, { url: "https://us.example.com" }],
    [
      "https://x.example.com",
      "https://override.example.com/base/",
      {},
      { url: "https://override.example.com/base" },
    ],
  ])("%s (override %s, variables %j) → %j", (url, override, variables, want) => {
    const servers = [server(url, { region: { default: "eu", enum: ["eu", "us"] } })];
    expect(resolveBaseUrl(servers, override, variables)).toEqual(want);
  });

  it.each([
    [
      "https://api.example.com@evil.example/",
      undefined,
      {},
      "user name or password before its host (evil.example)",
    ],
    ["https://user:secret@api.example.com/", undefined, {}, "user name or password"],
    ["https://evil.example\\@api.example.com/", undefined, {}, "backslash"],
    ["https://api.exa\nmple.com/", undefined, {}, "control character"],
    ["https://x.example.com", "https://me@other.example.com", {}, "user name or password"],
    [
      "https://{region}.example.com",
      undefined,
      { region: "evil.example/x" },
      'must be one of "eu", "us", not "evil.example/x"',
    ],
    ["ftp://files.example.com", undefined, {}, 'uses "ftp:"'],
    ["/v1", undefined, {}, "not an absolute URL"],
  ])("%s (override %s, variables %j) is refused: %s", (url, override, variables, message) => {
    const servers = [server(url, { region: { default: "eu", enum: ["eu", "us"] } })];
    const resolved = resolveBaseUrl(servers, override, variables);
    expect("error" in resolved ? resolved.error : resolved.url).toContain(message);
  });
});

describe("the origin policy", () => {
  const tool = (name: string, servers?: ServerNode[]): ToolNode =>
    ({
      name,
      http: { method: "get", path: `/${name}`, ...(servers ? { servers } : {}) },
    }) as unknown as ToolNode;
  const model = {
    servers: [server("https://api.example.com/v1")],
    tools: [
      tool("a"),
      tool("b", [server("https://api.example.com:443/v2")]),
      tool("c", [server("https://files.example.net")]),
      tool("d", [server("http://api.example.com")]),
      tool("e", [server("/relative")]),
    ],
  } as unknown as BridgeModel;

  it.each([
    ["https://api.example.com", {}, true],
    ["https://files.example.net", {}, false],
    ["http://api.example.com", {}, false],
    ["https://api.example.com:8443", {}, false],
    ["https://files.example.net", { trustedOrigins: ["https://files.example.net:443/any"] }, true],
    ["https://api.example.com", { baseUrl: "http://127.0.0.1:8080" }, false],
    ["http://127.0.0.1:8080", { baseUrl: "http://127.0.0.1:8080/x" }, true],
  ])("%s with %j: credentials %s", (origin, inputs, allowed) => {
    expect(createOriginPolicy(model, inputs).allows(origin)).toBe(allowed);
  });

  it("the start-up line lists the API's origin first, then the others with their tool counts", () => {
    expect(describeCallOrigins(model, {})).toBe(
      "calls go to https://api.example.com; https://files.example.net (1 tool, without credentials); http://api.example.com (1 tool, without credentials); no usable server URL for 1 tool",
    );
    expect(describeCallOrigins(model, { trustedOrigins: ["https://files.example.net"] })).toContain(
      "https://files.example.net (1 tool, trusted)",
    );
    expect(describeCallOrigins(model, { baseUrl: "http://127.0.0.1:9" })).toBe(
      "calls go to http://127.0.0.1:9",
    );
  });
});
