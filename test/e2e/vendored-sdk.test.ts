/**
 * The vendored SDK in dist/vendor/mcp-sdk (scripts/bundle-sdk.mjs), as the build left it: one
 * copy of Ajv, zod and the SDK's core across every entry (the server package's own inlined Ajv
 * is not among them), and the modules a stdio server loads statically never reach the HTTP side
 * (the node adapter, hono, createMcpHandler); Ajv is evaluated on first use, not on import, and
 * its stand-ins behave as the modules they stand for.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/bridge.js";
import { readStaticClosure } from "../helpers/static-imports.js";

const VENDOR = join(ROOT, "dist", "vendor", "mcp-sdk");

/**
 * The source files a bundle file holds, by the `// node_modules/...` line before each (a
 * worktree whose node_modules links elsewhere writes `// ../<where>/node_modules/...`).
 */
function sourcesOf(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^\/\/ (?:\.\.\/\S*?)?(node_modules\/\S+)$/gm)].map(
    (m) => m[1]!,
  );
}

describe("the vendored SDK", () => {
  const files = readdirSync(VENDOR)
    .filter((name) => name.endsWith(".js") || name.endsWith(".cjs"))
    .map((name) => join(VENDOR, name));
  const sources = files.flatMap(sourcesOf);

  it("holds one copy of Ajv, zod and the SDK's core", () => {
    const count = (source: string) => sources.filter((s) => s === source).length;
    expect(count("node_modules/ajv/dist/core.js")).toBe(1);
    expect(count("node_modules/ajv/dist/compile/index.js")).toBe(1);
    expect(count("node_modules/zod/v4/core/core.js")).toBe(1);
    // The server package's provider inlined its own Ajv (ajv@8.18.0 in its sources); none is left.
    const providerText = files.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(providerText).not.toMatch(/ajv@\d/);
    expect(providerText).toMatch(/class AjvJsonSchemaValidator|AjvJsonSchemaValidator = class/);
  });

  it("serves stdio without loading the HTTP side", () => {
    const stdio = new Set([
      ...readStaticClosure(join(VENDOR, "server.js")),
      ...readStaticClosure(join(VENDOR, "server-stdio.js")),
      ...readStaticClosure(join(VENDOR, "server-validators-ajv.js")),
    ]);
    const http = readStaticClosure(join(VENDOR, "server-http.js"));
    const httpOnly = [...readStaticClosure(join(VENDOR, "node.js")), ...http].filter(
      (file) => !stdio.has(file),
    );
    expect(httpOnly.length).toBeGreaterThan(0);
    const stdioSources = [...stdio].flatMap(sourcesOf);
    expect(
      stdioSources.some((s) => s.startsWith("node_modules/@hono/") || s.startsWith("node_modules/hono/")),
    ).toBe(false);
    expect(stdioSources.some((s) => s.startsWith("node_modules/@modelcontextprotocol/node/"))).toBe(false);
    // createMcpHandler lives in a file only the HTTP entries reach.
    const handlerFiles = files.filter((file) =>
      /function createMcpHandler\b/.test(readFileSync(file, "utf8")),
    );
    expect(handlerFiles).toHaveLength(1);
    expect(stdio.has(handlerFiles[0]!)).toBe(false);
    expect(http.has(handlerFiles[0]!)).toBe(true);
  });

  it("routes an inbound message by its request guard first, with the verdicts of the SDK's order", async () => {
    const text = files.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(text).toContain(
      "if (isJSONRPCRequest(message)) this._onrequest(message, extra);\n\t\t\telse if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this._onresponse(message);",
    );
    expect(text).not.toContain(
      "if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this._onresponse(message);\n\t\t\telse if (isJSONRPCRequest(message))",
    );
    // The SDK's own guards (core's schemas): the route in its order and in the bundle's agree.
    const core = await import("@modelcontextprotocol/core");
    const is = (schema: { safeParse(value: unknown): { success: boolean } }) => (value: unknown) =>
      schema.safeParse(value).success;
    const request = is(core.JSONRPCRequestSchema);
    const notification = is(core.JSONRPCNotificationSchema);
    const response = (value: unknown) =>
      is(core.JSONRPCResultResponseSchema)(value) || is(core.JSONRPCErrorResponseSchema)(value);
    const sdkOrder = (m: unknown) =>
      response(m) ? "response" : request(m) ? "request" : notification(m) ? "notification" : "unknown";
    const bundled = (m: unknown) =>
      request(m) ? "request" : response(m) ? "response" : notification(m) ? "notification" : "unknown";
    const messages: unknown[] = [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: {} } },
      { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", id: 1, method: "ping", result: {} },
      { jsonrpc: "2.0", id: 1, method: "ping", error: { code: 1, message: "m" } },
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1, result: { content: [] } },
      { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "no" } },
      { jsonrpc: "2.0", error: { code: -32700, message: "parse" } },
      { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "m" } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      { jsonrpc: "2.0", id: null, method: "ping" },
      { jsonrpc: "1.0", id: 1, method: "ping" },
      { id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 1.5, method: "ping" },
      { jsonrpc: "2.0", id: 1, method: 5 },
      null,
      "text",
      [],
    ];
    for (const message of messages) expect(bundled(message), JSON.stringify(message)).toBe(sdkOrder(message));
  });

  it("evaluates Ajv on first use, not when its entries or the server are imported", () => {
    expect(ajvCodeRuns("")).toBe(0);
    expect(ajvCodeRuns('new m["ajv-2020"].Ajv2020();')).toBeGreaterThan(0);
  });

  it("gives stand-ins that behave as Ajv, ajv-formats and the SDK's validator", () => {
    const checks = `
      const { Ajv2020 } = m["ajv-2020"];
      const ajv = new Ajv2020({ strict: false });
      m["ajv-formats"].default.default(ajv);
      const email = ajv.compile({ type: "string", format: "email" });
      const { AjvJsonSchemaValidator } = m["server-validators-ajv"];
      const sdk = new AjvJsonSchemaValidator().getValidator({ type: "object", properties: { n: { type: "integer" } } });
      const server = new m.server.Server({ name: "t", version: "1" }, {});
      const byDefault = server._jsonSchemaValidator.getValidator({ type: "string", format: "uri" });
      console.log(JSON.stringify([
        ajv instanceof Ajv2020, new m.ajv.Ajv() instanceof m.ajv.default, Object.getPrototypeOf(ajv) === Ajv2020.prototype, new (class Sub extends Ajv2020 {})().constructor.name, typeof Ajv2020, Ajv2020.name,
        email("a@b.example"), email("nope"),
        Object.keys(m["ajv-full-formats"].fullFormats).includes("email"), typeof m["ajv-full-formats"].fullFormats,
        sdk({ n: 1 }).valid, sdk({ n: "x" }).valid, sdk({ n: "x" }).errorMessage,
        server._jsonSchemaValidator instanceof AjvJsonSchemaValidator, byDefault("https://x.example").valid, byDefault("no uri").valid,
      ]));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", `${importAll()}${checks}`], {
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual([
      true,
      true,
      true,
      "Sub",
      "function",
      "Ajv2020",
      true,
      false,
      true,
      "object",
      true,
      false,
      "data/n must be integer",
      true,
      true,
      false,
    ]);
  });
});

const LAZY_ENTRIES = [
  "ajv",
  "ajv-2020",
  "ajv-formats",
  "ajv-full-formats",
  "server-validators-ajv",
  "server",
  "server-stdio",
];

/** A module body importing every entry a start or the runtime imports, as `m[name]`. */
function importAll(): string {
  const lines = LAZY_ENTRIES.map(
    (name, i) => `import * as e${i} from ${JSON.stringify(pathToFileURL(join(VENDOR, `${name}.js`)).href)};`,
  );
  const table = LAZY_ENTRIES.map((name, i) => `${JSON.stringify(name)}: e${i}`).join(", ");
  return `${lines.join("\n")}\nconst m = { ${table} };\n`;
}

/** How often Ajv's code generator class ran in a process that imports every entry, then runs `then`. */
function ajvCodeRuns(then: string): number {
  const coverage = mkdtempSync(join(tmpdir(), "omb-ajv-coverage-"));
  try {
    execFileSync(process.execPath, ["--input-type=module", "-e", `${importAll()}${then}`], {
      env: { ...process.env, NODE_V8_COVERAGE: coverage },
    });
    let runs = 0;
    for (const file of readdirSync(coverage)) {
      const report = JSON.parse(readFileSync(join(coverage, file), "utf8")) as {
        result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
      };
      for (const script of report.result)
        if (script.url.startsWith(pathToFileURL(VENDOR).href))
          for (const fn of script.functions)
            if (fn.functionName === "_Code") runs += fn.ranges[0]?.count ?? 0;
    }
    return runs;
  } finally {
    rmSync(coverage, { recursive: true, force: true });
  }
}
