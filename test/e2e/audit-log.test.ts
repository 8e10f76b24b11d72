/**
 * The audit log (one JSON line per call: time, tool, redacted arguments, upstream status,
 * attempts, duration, outcome), and a sweep that no secret, in any form it travels in, shows in
 * a result, a log line or the CLI's output, even when the API echoes every credential back.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../src/runtime/audit/audit-log.js";
import { connectStdio } from "../helpers/bridge.js";
import { describeRequest, sendBytes, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, planSpec } from "./safety-support.js";

const SECRETS = {
  bearer: "bearer-secret-111",
  basic: "alice:basic-secret-222",
  header: "header-secret-333",
  query: "query secret/444",
  clientSecret: "client-secret-555",
};
/** Every form a secret may travel in: as is, base64 (basic), percent-encoded (query), a token. */
const FORMS = [
  ...Object.values(SECRETS),
  Buffer.from(SECRETS.basic).toString("base64"),
  encodeURIComponent(SECRETS.query),
  "issued-token-666",
];

let api: Upstream;
let mode: "echo" | "error" | "html" = "echo";
const ok = { "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } } };
let spec: Record<string, unknown>;

beforeAll(async () => {
  api = await startUpstream((req, res) => {
    if (req.rawPath === "/token")
      return sendJson(res, 200, { access_token: "issued-token-666", expires_in: 600 });
    // The API reflects everything it received: headers, query and body.
    const echo = describeRequest(req);
    if (mode === "error")
      return sendJson(res, 401, { error: "bad credentials", received: echo, raw: req.rawHeaders });
    if (mode === "html")
      return sendBytes(res, 500, "text/html", `<pre>${JSON.stringify(req.rawHeaders)} ${req.rawUrl}</pre>`);
    return sendJson(res, 200, { received: echo, raw: req.rawHeaders, url: req.rawUrl });
  });
  spec = {
    servers: [{ url: api.url }],
    paths: {
      "/all": {
        post: {
          operationId: "everything",
          // Bearer and Basic share the Authorization header: Basic travels on its own operation.
          security: [{ bearer: [], header: [], query: [] }],
          requestBody: {
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    user: { type: "string" },
                    pin: { type: "string", format: "password" },
                    note: { type: "string" },
                  },
                },
              },
            },
          },
          responses: ok,
        },
      },
      "/oauth": { get: { operationId: "viaOauth", security: [{ cc: [] }], responses: ok } },
      "/basic": { get: { operationId: "viaBasic", security: [{ basic: [] }], responses: ok } },
      "/items/{id}": {
        get: {
          operationId: "getItem",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
          responses: ok,
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        basic: { type: "http", scheme: "basic" },
        header: { type: "apiKey", in: "header", name: "X-Key" },
        query: { type: "apiKey", in: "query", name: "key" },
        cc: { type: "oauth2", flows: { clientCredentials: { tokenUrl: `${api.url}/token`, scopes: {} } } },
      },
    },
  };
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  api.reset();
  mode = "echo";
});

function expectNoSecret(where: string, text: string): void {
  for (const form of FORMS) expect(text, `${where} shows ${form}`).not.toContain(form);
}

describe("audit log and redaction (library)", () => {
  it("logs every call with redacted arguments, status, attempts and outcome, and no secret anywhere", async () => {
    const entries: AuditEntry[] = [];
    const bridge = await connectRuntime(planSpec(spec), {
      env: {},
      auth: { bearer: SECRETS.bearer, basic: SECRETS.basic, header: SECRETS.header, query: SECRETS.query },
      oauth: { cc: { clientId: "c", clientSecret: SECRETS.clientSecret } },
      retry: { retries: 2, baseDelayMs: 1 },
      audit: { write: (entry) => entries.push(entry), close: async () => {} },
    });
    const results: CallToolResult[] = [];
    try {
      for (const m of ["echo", "error", "html"] as const) {
        mode = m;
        results.push(
          await bridge.call("everything", {
            user: "bob",
            pin: "4321",
            note: `pasted ${SECRETS.header} here`,
          }),
        );
        results.push(await bridge.call("viaOauth"));
        results.push(await bridge.call("viaBasic"));
      }
      mode = "echo";
      results.push(await bridge.call("getItem", { id: "not a number" }));
      await expect(bridge.call("noSuchTool", { password: "pw" })).rejects.toThrow(/Unknown tool/);
    } finally {
      await bridge.close();
    }
    // The secrets did reach the API (otherwise this test proves nothing)...
    const wire = JSON.stringify(api.requests.map((r) => [r.rawHeaders, r.rawUrl]));
    expect(wire).toContain(Buffer.from(SECRETS.basic).toString("base64"));
    expect(wire).toContain(SECRETS.bearer);
    expect(wire).toContain("issued-token-666");
    // ...and came back in every answer, but no result and no log line shows one.
    for (const result of results) expectNoSecret("a result", JSON.stringify(result));
    expect(JSON.stringify(results[0]!.structuredContent)).toContain("[REDACTED]");
    expectNoSecret("the audit log", JSON.stringify(entries));

    expect(entries.map((e) => [e.tool, e.outcome, e.category ?? null, e.status ?? null])).toEqual([
      ["everything", "ok", null, 200],
      ["viaOauth", "ok", null, 200],
      ["viaBasic", "ok", null, 200],
      ["everything", "error", "authentication", 401],
      ["viaOauth", "error", "authentication", 401],
      ["viaBasic", "error", "authentication", 401],
      ["everything", "error", "upstream_bug", 500],
      ["viaOauth", "error", "upstream_bug", 500],
      ["viaBasic", "error", "upstream_bug", 500],
      ["getItem", "error", "invalid_argument", null],
      ["noSuchTool", "error", "unknown_tool", null],
    ]);
    expect(entries[0]!.arguments).toEqual({ user: "bob", pin: "[REDACTED]", note: "pasted [REDACTED] here" });
    expect(entries[10]!.arguments).toEqual({ password: "[REDACTED]" });
    expect(entries[0]!.attempts).toBe(1);
    expect(entries[4]!.attempts).toBe(2); // 401, new token, once more
    for (const entry of entries) {
      expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("--audit-log FILE", () => {
  it("appends JSON lines over stdio, with no secret in the file or on stderr", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-audit-"));
    const specFile = join(dir, "api.json");
    writeFileSync(
      specFile,
      JSON.stringify({ openapi: "3.1.0", info: { title: "Audit", version: "1" }, ...spec }),
    );
    const log = join(dir, "audit.jsonl");
    const bridge = await connectStdio(specFile, ["--audit-log", log, "--auth", `header=${SECRETS.header}`], {
      OPENAPI_MCP_AUTH_BEARER: SECRETS.bearer,
      OPENAPI_MCP_AUTH_BASIC: SECRETS.basic,
      OPENAPI_MCP_AUTH_QUERY: SECRETS.query,
    });
    try {
      expectNoSecret(
        "a result",
        JSON.stringify(await bridge.call("everything", { user: "u", pin: "0000", note: "n" })),
      );
      await bridge.call("getItem", { id: 5 });
    } finally {
      await bridge.close();
    }
    const deadline = Date.now() + 5000;
    let lines: AuditEntry[] = [];
    while (Date.now() < deadline) {
      lines = readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as AuditEntry);
      if (lines.length === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(lines.map((l) => [l.tool, l.outcome, l.status])).toEqual([
      ["everything", "ok", 200],
      ["getItem", "ok", 200],
    ]);
    expect(lines[0]!.arguments).toEqual({ user: "u", pin: "[REDACTED]", note: "n" });
    expectNoSecret("the audit file", readFileSync(log, "utf8"));
    expectNoSecret("stderr", bridge.stderr());
  });
});
