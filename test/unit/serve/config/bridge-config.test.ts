/** The bridge's config file: its APIs, their options through the option table's parsers, and its mistakes. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BridgeError } from "../../../../src/model/diagnostics.js";
import { readBridgeConfig } from "../../../../src/serve/config/bridge-config.js";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "omb-bridge-config-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function refusal(text: string, name = "bad.yaml"): Promise<string> {
  const error = await readBridgeConfig(file(name, text), {}).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  const diagnostic = (error as BridgeError).diagnostics[0]!;
  expect(diagnostic.code).toBe("OMB_BRIDGE_CONFIG");
  expect(diagnostic.file).toContain(name);
  return `${diagnostic.message} ${diagnostic.hint ?? ""}`;
}

describe("readBridgeConfig", () => {
  it("reads a YAML map of APIs, each option by flag name or key, through the table's parsers", async () => {
    const config = await readBridgeConfig(
      file(
        "bridge.yaml",
        [
          "transport: http",
          "port: 0",
          "mode: discovery",
          "apis:",
          "  erp:",
          "    spec: ./specs/erp.yaml",
          "    base-url: http://127.0.0.1:8081/v1",
          "    auth: { api_key: { env: ERP_KEY } }",
          "    header: { X-Tenant: acme }",
          "    timeout: 5000",
          "    readOnly: true",
          "    include-tools: [order_*, customer_*]",
          "    audit-log: logs/erp.jsonl",
          "    overrides: ./erp.overrides.yaml",
          "  crm:",
          "    spec: https://crm.example.com/openapi.json",
          "    server-var: { region: eu }",
          "    read-only: false",
        ].join("\n"),
      ),
      { ERP_KEY: "erp-secret" },
    );
    expect(config.settings).toEqual({ transport: "http", port: 0, mode: "discovery" });
    expect(config.apis.map((a) => a.namespace)).toEqual(["erp", "crm"]);
    const [erp, crm] = config.apis;
    expect(erp!.spec).toBe(join(dir, "specs/erp.yaml"));
    expect(erp!.settings).toEqual({
      baseUrl: "http://127.0.0.1:8081/v1",
      auth: { api_key: "erp-secret" },
      header: { "X-Tenant": "acme" },
      timeout: 5000,
      readOnly: true,
      includeTools: ["order_*", "customer_*"],
      auditLog: join(dir, "logs/erp.jsonl"),
    });
    expect(erp!.extra).toEqual({ overrides: "./erp.overrides.yaml" });
    expect(crm!.spec).toBe("https://crm.example.com/openapi.json");
    expect(crm!.settings).toEqual({ serverVar: { region: "eu" }, readOnly: false });
  });

  it("reads the OAuth front door for the whole bridge: the scope map as a map, in order, secrets from the environment", async () => {
    const config = await readBridgeConfig(
      file(
        "front-door.yaml",
        [
          "transport: http",
          "auth-issuer: [https://login.example.com]",
          "auth-resource: https://mcp.example.com/mcp",
          "auth-scopes: mcp",
          "auth-scope-map:",
          "  tag:admin: notes:admin",
          '  "create*": notes:write notes:read',
          '  "health": ""',
          "authIntrospectionClient: bridge",
          "authIntrospectionSecret: { env: INTROSPECTION_SECRET }",
          "apis:",
          "  notes: { spec: ./notes.yaml }",
        ].join("\n"),
      ),
      { INTROSPECTION_SECRET: "s3cret-from-env" },
    );
    expect(config.settings).toMatchObject({
      authIssuer: ["https://login.example.com"],
      authResource: "https://mcp.example.com/mcp",
      authScopes: ["mcp"],
      authScopeMap: [
        { pattern: "tag:admin", scopes: ["notes:admin"] },
        { pattern: "create*", scopes: ["notes:write", "notes:read"] },
        { pattern: "health", scopes: [] },
      ],
      authIntrospectionClient: "bridge",
      authIntrospectionSecret: "s3cret-from-env",
    });
  });

  it("reads a JSON list of APIs, the namespace optional", async () => {
    const config = await readBridgeConfig(
      file(
        "bridge.json",
        JSON.stringify({ apis: [{ spec: "a.yaml" }, { spec: "b.yaml", namespace: "bee" }] }),
      ),
      {},
    );
    expect(config.apis.map((a) => [a.namespace, a.where])).toEqual([
      [undefined, "apis[0]"],
      ["bee", "apis[1]"],
    ]);
  });

  it.each([
    ["a file that is no object", "- a\n- b\n", /must be an object with `apis`/],
    ["no apis", "port: 3000\n", /apis: must be a map/],
    ["an empty list of APIs", "apis: []\n", /names no API/],
    [
      "an API without a spec",
      "apis:\n  erp: { timeout: 5 }\n",
      /apis\.erp\.spec: must be a spec file or URL/,
    ],
    [
      "a bad number",
      "apis:\n  erp: { spec: a.yaml, timeout: soon }\n",
      /apis\.erp\.timeout: expected a whole number.*timeout takes/,
    ],
    [
      "a bad choice",
      "mode: fast\napis:\n  erp: { spec: a.yaml }\n",
      /mode: expected one of tools, discovery, code, auto/,
    ],
    [
      "a bad URL",
      "apis:\n  erp: { spec: a.yaml, base-url: ftp://x }\n",
      /apis\.erp\.base-url: "ftp:\/\/x" is not an http\(s\) URL/,
    ],
    [
      "an unset variable",
      "apis:\n  erp: { spec: a.yaml, auth: { k: { env: NOPE_NOT_SET } } }\n",
      /apis\.erp\.auth: k: the environment variable NOPE_NOT_SET is not set/,
    ],
    [
      "a header with a newline",
      'apis:\n  erp: { spec: a.yaml, header: { X-A: "a\\nb" } }\n',
      /control character/,
    ],
    [
      "a namespace that disagrees with its key",
      "apis:\n  erp: { spec: a.yaml, namespace: crm }\n",
      /apis\.erp\.namespace: says "crm" but the entry is under "erp"/,
    ],
    [
      "a switch that is no switch",
      "apis:\n  erp: { spec: a.yaml, read-only: maybe }\n",
      /read-only: expected 1 or 0/,
    ],
    [
      "a bridge option in an API",
      "apis:\n  erp: { spec: a.yaml, mode: discovery }\n",
      /apis\.erp\.mode: is an option of the whole bridge, not of one API.*top of the file/,
    ],
  ])("refuses %s, naming the key", async (_what, text, want) => {
    expect(await refusal(text)).toMatch(want);
  });

  it("refuses a file that is neither JSON nor YAML", async () => {
    expect(await refusal("apis: [\n", "broken.yaml")).toMatch(/neither JSON nor YAML/);
  });
});
