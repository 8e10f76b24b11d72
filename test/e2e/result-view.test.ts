/**
 * The MCP Apps result view, for real: the built CLI over Streamable HTTP, a v2 SDK client that
 * declares `io.modelcontextprotocol/ui` (the host), a recording upstream on 127.0.0.1 with a
 * paged list of pets, and the view's HTML from resources/read loaded in headless Chromium
 * (/usr/bin/chromium, through playwright-core) inside a minimal host page written here: it
 * speaks the extension's postMessage protocol (ui/initialize, initialized, tool-input,
 * tool-result) and forwards the view's tools/call to the bridge. Checked by structure: the rows
 * shown, a sort, the next page (a new call reached the upstream), a record; the document under
 * the extension's restrictive default CSP, no network; the view's messages against the
 * extension's own JSON schema (@modelcontextprotocol/ext-apps/schema.json).
 * Skips, saying why, only when /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpBridge, ROOT, startHttpBridge } from "../helpers/bridge.js";
import { type RecordedRequest, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const CHROMIUM = "/usr/bin/chromium";
const UI = "io.modelcontextprotocol/ui";
const MIME = "text/html;profile=mcp-app";
const SPECIES = ["cat", "dog", "fish", "bird"];
const PETS = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  name: `pet-${String(23 - i).padStart(2, "0")}`,
  species: SPECIES[i % SPECIES.length],
  age: (i * 7) % 13,
  owner: { name: `owner ${i}` },
}));

const SPEC = {
  openapi: "3.1.0",
  info: { title: "Pets", version: "1.0.0" },
  servers: [{ url: "http://127.0.0.1:1" }],
  paths: {
    "/pets": {
      get: {
        operationId: "listPets",
        parameters: [
          { name: "page", in: "query", schema: { type: "integer", minimum: 1 } },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 50 } },
        ],
        responses: { "200": { description: "Pets.", content: { "application/json": {} } } },
      },
    },
    "/pets/{petId}": {
      get: {
        operationId: "getPet",
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "A pet.", content: { "application/json": {} } } },
      },
      delete: {
        operationId: "deletePet",
        parameters: [{ name: "petId", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "204": { description: "Gone." } },
      },
    },
  },
};

/** The extension's restrictive default (spec 2026-01-26, "Host Behavior"), with the sandbox proxy's additions. */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; " +
  "base-uri 'self'; object-src 'none'";

const HOST_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>test host</title></head>
<body style="margin:0">
<iframe id="view" sandbox="allow-scripts" style="width:900px;height:560px;border:0"></iframe>
<script>
const frame = document.getElementById("view");
window.fromView = [];
let pending = null;
window.loadView = (html, input, result) => { pending = { input, result }; frame.srcdoc = html; };
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow) return;
  const msg = event.data;
  window.fromView.push(msg);
  const post = (m) => frame.contentWindow.postMessage(m, "*");
  const reply = (result) => post({ jsonrpc: "2.0", id: msg.id, result });
  if (msg.method === "ui/initialize") {
    reply({ protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1.0.0" },
      hostCapabilities: { serverTools: {} }, hostContext: { theme: "light", displayMode: "inline" } });
  } else if (msg.method === "ui/notifications/initialized") {
    post({ jsonrpc: "2.0", method: "ui/notifications/tool-input", params: { arguments: pending.input } });
    post({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: pending.result });
  } else if (msg.method === "tools/call") {
    try { reply(await window.forwardToolCall(msg.params)); }
    catch (error) { post({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: String(error) } }); }
  } else if (msg.id !== undefined && msg.method !== undefined) {
    post({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "not in this host" } });
  }
});
</script></body></html>`;

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`result-view e2e skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);
}

let upstream: Upstream;
let bridge: HttpBridge;
let dir: string;
const listCalls: string[] = [];

function uiClient(extension: boolean, modern = false): Client {
  return new Client(
    { name: "omb-view-host", version: "1.0.0" },
    {
      capabilities: extension ? { extensions: { [UI]: { mimeTypes: [MIME] } } } : {},
      ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    },
  );
}

async function connect(client: Client): Promise<Client> {
  await client.connect(new StreamableHTTPClientTransport(new URL(bridge.endpoint)));
  return client;
}

beforeAll(async () => {
  upstream = await startUpstream((req: RecordedRequest, res) => {
    if (req.rawPath === "/pets") {
      listCalls.push(req.rawQuery);
      const query = new URLSearchParams(req.rawQuery);
      const page = Number(query.get("page") ?? 1);
      const limit = Number(query.get("limit") ?? 10);
      return sendJson(res, 200, PETS.slice((page - 1) * limit, page * limit));
    }
    const id = Number(req.rawPath.split("/").pop());
    return sendJson(res, 200, PETS.find((pet) => pet.id === id) ?? {});
  });
  dir = mkdtempSync(join(tmpdir(), "omb-view-"));
  const spec = join(dir, "pets.json");
  writeFileSync(spec, JSON.stringify(SPEC));
  bridge = await startHttpBridge(spec, ["--base-url", upstream.url]);
}, 30_000);

afterAll(async () => {
  await bridge?.stop();
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

const require = createRequire(import.meta.url);
const appsSchema = require("@modelcontextprotocol/ext-apps/schema.json") as {
  $defs: Record<string, object>;
};
const ajv = new Ajv2020({ strict: false });
for (const [name, schema] of Object.entries(appsSchema.$defs)) ajv.addSchema({ ...schema, $id: name });
function expectValid(definition: string, value: unknown): void {
  const validate = ajv.getSchema(definition);
  expect(validate, definition).toBeDefined();
  expect(validate!(value), `${definition}: ${JSON.stringify(validate!.errors)}`).toBe(true);
}

describe("tools point at the view only for clients that render views", () => {
  it.each([
    { era: "2025-11-25", modern: false },
    { era: "2026-07-28", modern: true },
  ])("$era: the list tool has _meta.ui.resourceUri; one pet and deletePet do not", async ({ modern }) => {
    const host = await connect(uiClient(true, modern));
    const plain = await connect(uiClient(false, modern));
    try {
      const tools = (await host.listTools()).tools;
      const meta = (name: string) =>
        tools.find((tool) => tool.name === name)?._meta as Record<string, unknown>;
      expect(meta("listPets")?.ui).toEqual({ resourceUri: "ui://openapi-mcp-bridge/result-view" });
      expect(meta("listPets")?.["ui/resourceUri"]).toBe("ui://openapi-mcp-bridge/result-view");
      expectValid("McpUiToolMeta", meta("listPets")?.ui);
      expect(meta("getPet")?.ui).toBeUndefined();
      expect(meta("deletePet")?.ui).toBeUndefined();
      const plainTools = (await plain.listTools()).tools;
      expect(
        plainTools.some((tool) => (tool._meta as Record<string, unknown> | undefined)?.ui !== undefined),
      ).toBe(false);
    } finally {
      await host.close();
      await plain.close();
    }
  });

  it("serves the view as a ui:// resource with the app media type, CSP metadata and no external origin", async () => {
    const host = await connect(uiClient(true));
    try {
      const listed = await host.listResources();
      expect(listed.resources.map((r) => [r.uri, r.mimeType])).toContainEqual([
        "ui://openapi-mcp-bridge/result-view",
        MIME,
      ]);
      const read = await host.readResource({ uri: "ui://openapi-mcp-bridge/result-view" });
      const content = read.contents[0] as unknown as {
        mimeType: string;
        text: string;
        _meta: { ui: unknown };
      };
      expect(content.mimeType).toBe(MIME);
      expectValid("McpUiResourceMeta", content._meta.ui);
      expect(content._meta.ui).toMatchObject({ csp: { connectDomains: [], resourceDomains: [] } });
      const html = content.text;
      expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
      // Nothing from anywhere: no URL, no src/href, no stylesheet link, no @import or url().
      expect(html).not.toMatch(/https?:\/\/|\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
      expect(html).not.toMatch(/\s(src|href|action|formaction)\s*=/i);
      expect(html).not.toMatch(
        /<link\b|@import|url\(|<iframe\b|<object\b|<embed\b|\bfetch\(|XMLHttpRequest|WebSocket/i,
      );
    } finally {
      await host.close();
    }
  });
});

describe("discovery mode", () => {
  it("points no tool at the view, and call_operation's results carry no paging facts", async () => {
    const discovery = await startHttpBridge(join(dir, "pets.json"), [
      "--base-url",
      upstream.url,
      "--mode",
      "discovery",
    ]);
    const host = uiClient(true);
    try {
      await host.connect(new StreamableHTTPClientTransport(new URL(discovery.endpoint)));
      const tools = (await host.listTools()).tools;
      expect(tools.some((tool) => (tool._meta as { ui?: unknown } | undefined)?.ui !== undefined)).toBe(
        false,
      );
      const result = await host.callTool({
        name: "call_operation",
        arguments: { name: "listPets", arguments: { page: 1 } },
      });
      expect(result.isError ?? false).toBe(false);
      expect(Object.keys(result._meta ?? {}).filter((key) => key.endsWith("/page"))).toEqual([]);
    } finally {
      await host.close();
      await discovery.stop();
    }
  });
});

describe("behind serve's several APIs", () => {
  it("the paging facts name the namespaced tool the view calls again (each API's tools carry their namespace)", async () => {
    const second = join(dir, "pets-too.json");
    writeFileSync(second, JSON.stringify({ ...SPEC, info: { title: "More pets", version: "1.0.0" } }));
    const several = await startHttpBridge(
      join(dir, "pets.json"),
      [second, "--namespace", "a,b", "--mode", "tools"],
      {
        OPENAPI_MCP_A__BASE_URL: upstream.url,
        OPENAPI_MCP_B__BASE_URL: upstream.url,
      },
    );
    const host = uiClient(true);
    try {
      await host.connect(new StreamableHTTPClientTransport(new URL(several.endpoint)));
      const tools = (await host.listTools()).tools;
      expect((tools.find((tool) => tool.name === "b__listPets")?._meta as { ui?: unknown })?.ui).toEqual({
        resourceUri: "ui://openapi-mcp-bridge/result-view",
      });
      const result = await host.callTool({ name: "b__listPets", arguments: { page: 2, limit: 5 } });
      expect(result._meta?.["openapi-mcp-bridge/page"]).toEqual({
        tool: "b__listPets",
        arguments: { page: 2, limit: 5 },
        next: { page: 3, limit: 5 },
      });
    } finally {
      await host.close();
      await several.stop();
    }
  });
});

describe.skipIf(!haveChromium)("the view in headless Chromium", () => {
  it("shows the rows, sorts, pages through tools/call to the upstream, and shows a record", async () => {
    const { chromium } = await import("playwright-core");
    const profile = mkdtempSync(join(tmpdir(), "omb-chromium-"));
    const host = await connect(uiClient(true));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      viewport: { width: 920, height: 600 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const requests: string[] = [];
      const problems: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      page.on("console", (message) => {
        if (message.type() === "error" || /Content Security Policy/i.test(message.text()))
          problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(String(error)));
      await page.exposeFunction(
        "forwardToolCall",
        (params: { name: string; arguments?: Record<string, unknown> }) =>
          host.callTool({ name: params.name, arguments: params.arguments ?? {} }),
      );
      await page.setContent(HOST_PAGE);

      const html = (
        (await host.readResource({ uri: "ui://openapi-mcp-bridge/result-view" })).contents[0] as {
          text: string;
        }
      ).text;
      // As the extension's sandbox proxy does: the document under the restrictive default CSP.
      const sandboxed = html.replace(
        "<head>",
        `<head><meta http-equiv="Content-Security-Policy" content="${DEFAULT_CSP}">`,
      );
      const input = { page: 1, limit: 10 };
      const first = await host.callTool({ name: "listPets", arguments: input });
      const callsBefore = listCalls.length;
      await page.evaluate(
        ([doc, args, result]) =>
          (globalThis as unknown as { loadView(d: string, a: unknown, r: unknown): void }).loadView(
            doc,
            args,
            result,
          ),
        [sandboxed, input, first] as const,
      );

      const view = page.frameLocator("#view");
      const rows = view.locator("#rows tr");
      await expect.poll(() => rows.count()).toBe(10);
      const names = () => view.locator("#rows tr td:nth-child(2)").allTextContents();
      expect(await names()).toEqual(PETS.slice(0, 10).map((pet) => pet.name));
      expect(await view.locator("#head th").allTextContents()).toEqual([
        "id",
        "name",
        "species",
        "age",
        "owner",
      ]);

      // Sorting by name: ascending.
      await view.locator('#head th[data-column="name"]').click();
      expect(await names()).toEqual(
        PETS.slice(0, 10)
          .map((pet) => pet.name)
          .sort(),
      );
      await page.screenshot({ path: join(ROOT, "docs/images/result-view.png") });

      // The next page: a new tools/call through the host reached the upstream.
      await view.locator("#next").click();
      await expect.poll(names).toEqual(PETS.slice(10, 20).map((pet) => pet.name));
      expect(listCalls.slice(callsBefore)).toEqual(["page=2&limit=10"]);
      await view.locator("#next").click();
      await expect.poll(names).toEqual(PETS.slice(20).map((pet) => pet.name));
      await view.locator("#prev").click();
      await expect.poll(names).toEqual(PETS.slice(10, 20).map((pet) => pet.name));

      // A row opens its record.
      await view.locator("#rows tr").nth(2).click();
      const record = view.locator("#record");
      await expect.poll(() => record.isVisible()).toBe(true);
      const fields = await view
        .locator("#record-rows tr")
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.querySelector("th")?.textContent, tr.querySelector("td")?.textContent]),
        );
      expect(fields).toEqual([
        ["id", "13"],
        ["name", PETS[12]!.name],
        ["species", PETS[12]!.species],
        ["age", String(PETS[12]!.age)],
        ["owner", JSON.stringify(PETS[12]!.owner, null, 2)],
      ]);
      await view.locator("#back").click();
      await expect.poll(() => rows.count()).toBe(10);

      // The view spoke the extension's protocol, by its schema; nothing went to the network.
      const fromView = (await page.evaluate(
        () => (globalThis as unknown as { fromView: unknown[] }).fromView,
      )) as {
        method?: string;
        params?: unknown;
      }[];
      const init = fromView.find((m) => m.method === "ui/initialize");
      expectValid("McpUiInitializeRequest", { method: init?.method, params: init?.params });
      expect(fromView.some((m) => m.method === "ui/notifications/initialized")).toBe(true);
      const size = fromView.find((m) => m.method === "ui/notifications/size-changed");
      expectValid("McpUiSizeChangedNotification", { method: size?.method, params: size?.params });
      expect(fromView.filter((m) => m.method === "tools/call")).toHaveLength(3);

      // A result that is one object opens as a record, with no table and no pager.
      const one = await host.callTool({ name: "getPet", arguments: { petId: 7 } });
      await page.evaluate(
        ([doc, result]) =>
          (globalThis as unknown as { loadView(d: string, a: unknown, r: unknown): void }).loadView(
            doc,
            {},
            result,
          ),
        [sandboxed, one] as const,
      );
      await expect.poll(() => view.locator("#record").isVisible()).toBe(true);
      expect(await view.locator("#record-rows th").allTextContents()).toEqual([
        "id",
        "name",
        "species",
        "age",
        "owner",
      ]);
      expect(await view.locator("#record-rows tr:nth-child(2) td").textContent()).toBe(PETS[6]!.name);
      expect(await view.locator("#table-box").isVisible()).toBe(false);
      expect(await view.locator("#pager").isVisible()).toBe(false);

      expect(requests.filter((url) => !url.startsWith("about:") && !url.startsWith("data:"))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await host.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 60_000);
});

// The screenshot's folder exists for the test above (docs/images is committed with it).
mkdirSync(join(ROOT, "docs/images"), { recursive: true });
