/**
 * The era classifier gives the same verdict on the light request (era-request.ts) as on a real
 * web Request with every header: if the SDK starts reading more of a request, this fails.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { toClassifiedRequest } from "../../../../src/runtime/transport/era-request.js";

const MODERN = "2026-07-28";
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const call = (meta?: object) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "getItem", arguments: { id: 1 }, ...(meta ? { _meta: meta } : {}) },
});
const base: IncomingHttpHeaders = {
  host: "127.0.0.1:3000",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

type Case = [string, string, IncomingHttpHeaders, unknown, boolean];

describe("toClassifiedRequest", () => {
  it.each<Case>([
    ["a 2025 initialize", "POST", base, { jsonrpc: "2.0", id: 0, method: "initialize", params: {} }, true],
    [
      "a 2025 call in a session",
      "POST",
      { ...base, "mcp-session-id": "s", "mcp-protocol-version": "2025-06-18" },
      call(),
      true,
    ],
    ["a 2025 notification", "POST", base, { jsonrpc: "2.0", method: "notifications/initialized" }, true],
    [
      "a 2026 call with its envelope and headers",
      "POST",
      { ...base, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "getItem" },
      call(envelope),
      false,
    ],
    [
      "a 2026 call whose Mcp-Name disagrees",
      "POST",
      { ...base, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "other" },
      call(envelope),
      false,
    ],
    [
      "a modern version header without the envelope",
      "POST",
      { ...base, "mcp-protocol-version": MODERN },
      call(),
      false,
    ],
    ["an envelope without the headers", "POST", base, call(envelope), false],
    ["a 2025 batch", "POST", base, [call(), call()], true],
    ["a posted response", "POST", base, { jsonrpc: "2.0", id: 3, result: {} }, true],
    [
      "a repeated version header",
      "POST",
      { ...base, "mcp-protocol-version": `${MODERN}, ${MODERN}` },
      call(envelope),
      false,
    ],
    ["a GET stream", "GET", { ...base, "mcp-session-id": "s" }, undefined, true],
    [
      "a GET with a modern version header",
      "GET",
      { ...base, "mcp-protocol-version": MODERN },
      undefined,
      true,
    ],
    ["a DELETE", "DELETE", { ...base, "mcp-session-id": "s" }, undefined, true],
    ["null as the body", "POST", base, null, false],
  ])("%s", async (_name, method, headers, body, legacy) => {
    const real = new Request("http://localhost/mcp", {
      method,
      headers: Object.entries(headers).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value ?? ""]).map((one): [string, string] => [name, one]),
      ),
    });
    const expected = await isLegacyRequest(real, body);
    expect(expected).toBe(legacy);
    expect(await isLegacyRequest(toClassifiedRequest({ method, headers }), body)).toBe(expected);
  });
});
