/**
 * A spec with the slips real specs have (RestBench's Spotify spec has each kind: bounds and
 * flags written as strings, a default of an integer written as text, an extension whose `$ref`
 * leads outside the spec's folder, an unused component with a broken ref) served as published:
 * the built CLI over stdio and HTTP, in tools, discovery and code mode, driven by a real MCP
 * client against a recording upstream on 127.0.0.1. Every operation answers, with the repaired
 * values in force (a bound of "50" refuses 60); `--strict` refuses the spec as before; a tool
 * whose schema still does not compile is named at start-up, by `tools` and by `lint`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  connectHttp,
  connectStdio,
  type HttpBridge,
  runCli,
  type SpawnedConnected,
  STACK_LINE,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { describeRequest, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";

const OK = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };

/** Every kind of slip once or more; the spec sits in `api/`, the extension's ref names `../`. */
const SLIPPED = {
  openapi: "3.0.3",
  info: { title: "Slips", version: "1" },
  servers: [{ url: "https://api.example.invalid/v1" }],
  paths: {
    "/albums/{id}/tracks": {
      get: {
        operationId: "getAlbumTracks",
        "x-policy-list": { $ref: "#/components/x-policy/list" },
        parameters: [
          { name: "id", in: "path", required: "true", schema: { type: "string" } },
          {
            name: "limit",
            in: "query",
            required: "false",
            schema: { type: "integer", minimum: "1", maximum: "50", default: "20" },
          },
          {
            name: "tags",
            in: "query",
            explode: "false",
            schema: { type: "array", items: { type: "string" } },
          },
        ],
        responses: OK,
      },
    },
    "/me/albums": {
      put: {
        operationId: "saveAlbums",
        requestBody: {
          required: "true",
          content: {
            "application/json": {
              schema: {
                type: "object",
                additionalProperties: "true",
                required: ["ids"],
                properties: { ids: { type: "array", maxItems: "3", items: { type: "string" } } },
              },
            },
          },
        },
        responses: OK,
      },
    },
    "/me/player/volume": {
      put: {
        operationId: "setVolume",
        parameters: [
          {
            name: "volume_percent",
            in: "query",
            required: "true",
            schema: { type: "integer", minimum: "0", maximum: "100", nullable: "false" },
          },
        ],
        responses: OK,
      },
    },
  },
  components: {
    schemas: { Unused: { properties: { gone: { $ref: "#/components/schemas/Gone" } } } },
    "x-policy": {
      $ref: "../policies.yaml",
      Attribution: {},
      list: [{ $ref: "#/components/x-policy/Attribution" }],
    },
  },
};

/** A slip no repair can read, served with --no-validate: the tool's schema does not compile. */
const UNREADABLE = {
  openapi: "3.0.3",
  info: { title: "Unreadable", version: "1" },
  paths: {
    "/things": {
      get: {
        operationId: "listThings",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: "fifty" } }],
        responses: OK,
      },
    },
    "/ping": { get: { operationId: "ping", responses: OK } },
  },
};

let upstream: Upstream;
let dir: string;
let spec: string;
let unreadable: string;

beforeAll(async () => {
  upstream = await startUpstream((req, res) => sendJson(res, 200, describeRequest(req)));
  dir = mkdtempSync(join(tmpdir(), "omb-lenient-"));
  mkdirSync(join(dir, "api"));
  spec = join(dir, "api", "openapi.json");
  writeFileSync(spec, JSON.stringify(SLIPPED));
  unreadable = join(dir, "api", "unreadable.json");
  writeFileSync(unreadable, JSON.stringify(UNREADABLE));
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => upstream.reset());

const sent = () => upstream.requests.map((r) => `${r.method} ${r.rawUrl} ${r.text()}`.trim());

/** The three operations, each called once with valid arguments, and what the upstream must get. */
const CALLS: [string, Record<string, unknown>, string][] = [
  ["getAlbumTracks", { id: "a1", limit: 10, tags: ["x", "y"] }, "GET /albums/a1/tracks?limit=10&tags=x,y"],
  ["saveAlbums", { ids: ["a", "b"] }, 'PUT /me/albums {"ids":["a","b"]}'],
  ["setVolume", { volume_percent: 30 }, "PUT /me/player/volume?volume_percent=30"],
];

function expectOk(result: CallToolResult): void {
  expect(result.isError ?? false, textOf(result)).toBe(false);
}

describe("tools and lint on the spec as published", () => {
  it("tools lists every operation and says what was repaired and left out, once per kind", async () => {
    const run = await runCli(["tools", spec, "--no-cache"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Slips 1: 3 tools/);
    const lines = run.stderr.split("\n").filter((line) => /^warning /.test(line));
    expect(lines.filter((l) => l.includes("OMB_SPEC_REPAIRED"))).toEqual([
      expect.stringMatching(
        /openapi\.json#\/paths\/~1albums~1\{id\}~1tracks\/get\/parameters\/0\/required: 7 booleans written as strings read as booleans \(additionalProperties, explode, nullable, required\): "required": "true" read as true here and 6 more$/,
      ),
      expect.stringMatching(
        /: 1 default of a number, integer or boolean schema written as a string read as meant: "default": "20" read as 20 here$/,
      ),
      expect.stringMatching(
        /: 5 numbers written as strings read as numbers \(maxItems, maximum, minimum\): "minimum": "1" read as 1 here and 4 more$/,
      ),
    ]);
    expect(lines.filter((l) => l.includes("OMB_REF_LEFT_UNRESOLVED"))).toEqual([
      expect.stringMatching(
        /#\/components\/x-policy: \$ref "\.\.\/policies\.yaml" left unresolved \(it leads to .*policies\.yaml, outside the folders refs may read\); no operation reaches it, so no tool changes$/,
      ),
      expect.stringMatching(
        /#\/components\/schemas\/Unused\/properties\/gone: \$ref "#\/components\/schemas\/Gone" left unresolved \(it points to nothing in this document\)/,
      ),
    ]);
    expect(run.stderr).not.toMatch(STACK_LINE);
  });

  it("--strict refuses it with the diagnostics the bridge always gave", async () => {
    const run = await runCli(["tools", spec, "--no-cache", "--strict"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^error OMB_REF_OUTSIDE_ROOT .*openapi\.json#\/components\/x-policy: file \$ref "\.\.\/policies\.yaml" refused: it leads to .*policies\.yaml, outside the spec's folder /m,
    );
    // Every broken ref in the one run, the root's own too.
    expect(run.stderr).toMatch(
      /^error OMB_REF_UNRESOLVED .*openapi\.json#\/components\/schemas\/Unused\/properties\/gone: \$ref "#\/components\/schemas\/Gone" points to nothing in this document$/m,
    );
    // Without the extension and the broken component, the slips are what --strict refuses.
    const { "x-policy-list": _list, ...tracks } = SLIPPED.paths["/albums/{id}/tracks"].get;
    const paths = { ...SLIPPED.paths, "/albums/{id}/tracks": { get: tracks } };
    const noPolicy = join(dir, "api", "no-policy.json");
    writeFileSync(noPolicy, JSON.stringify({ ...SLIPPED, paths, components: {} }));
    const invalid = await runCli(["tools", noPolicy, "--no-cache", "--strict"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(
      /^error OMB_SPEC_INVALID .*no-policy\.json#\/paths\/~1albums~1\{id\}~1tracks\/get\/parameters\/0\/required: must be one of true\n {2}hint: .*--no-validate/,
    );
    expect(invalid.stderr).toMatch(
      /#\/paths\/~1me~1player~1volume\/put\/parameters\/0\/schema\/maximum: must be of type number$/m,
    );
    expect(invalid.stderr).not.toContain("OMB_SPEC_REPAIRED");
  });

  it("lint reports on it, naming the repairs; lint --strict refuses it", async () => {
    const run = await runCli(["lint", spec]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("warning OMB_SPEC_REPAIRED");
    expect(run.stdout).toMatch(/3 tools/);
    const strict = await runCli(["lint", spec, "--strict"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^error OMB_REF_OUTSIDE_ROOT /m);
  });

  it("a tool whose schema still does not compile is named by tools, lint and at start-up", async () => {
    const tools = await runCli(["tools", unreadable, "--no-cache", "--no-validate"]);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stderr).toMatch(
      /^warning OMB_TOOL_UNUSABLE .*unreadable\.json#\/paths\/~1things\/get: tool listThings cannot be called: its input schema does not compile \(maximum value must be \["number"\]\); it stays listed, and a call of it answers operation_unavailable$/m,
    );
    const lint = await runCli(["lint", unreadable, "--no-validate"]);
    expect(lint.stderr).toMatch(/^warning OMB_TOOL_UNUSABLE .*tool listThings cannot be called/m);

    const bridge = await connectStdio(unreadable, [
      "--no-validate",
      "--no-cache",
      "--base-url",
      upstream.url,
    ]);
    try {
      expect(bridge.stderr()).toMatch(/warning OMB_TOOL_UNUSABLE .*tool listThings cannot be called/);
      expect(bridge.tools.map((t) => t.name).sort()).toEqual(["listThings", "ping"]);
      const result = (await bridge.call("listThings", { limit: 3 })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^The operation listThings cannot be called through this bridge/);
      expect(upstream.requests).toHaveLength(0);
      expectOk((await bridge.call("ping", {})) as CallToolResult);
      expect(sent()).toEqual(["GET /ping"]);
    } finally {
      await bridge.close();
    }
  });
});

describe("served as published, every operation answers", () => {
  let stdio: SpawnedConnected;
  beforeAll(async () => {
    stdio = await connectStdio(spec, ["--no-cache", "--base-url", upstream.url]);
  });
  afterAll(async () => {
    await stdio.close();
  });

  it("tools mode over stdio: each call reaches the upstream, the repaired bounds hold", async () => {
    expect(stdio.stderr()).toContain("warning OMB_SPEC_REPAIRED");
    expect(stdio.stderr()).toContain("warning OMB_REF_LEFT_UNRESOLVED");
    expect(stdio.tools.map((t) => t.name).sort()).toEqual(["getAlbumTracks", "saveAlbums", "setVolume"]);
    const tracks = stdio.tools.find((t) => t.name === "getAlbumTracks")!;
    expect(tracks.inputSchema.required).toEqual(["id"]);
    expect(tracks.inputSchema.properties?.limit).toMatchObject({ type: "integer", maximum: 50, default: 20 });
    for (const [name, args, request] of CALLS) {
      upstream.reset();
      expectOk((await stdio.call(name, args)) as CallToolResult);
      expect(sent()).toEqual([request]);
    }
    upstream.reset();
    const tooMany = (await stdio.call("getAlbumTracks", { id: "a1", limit: 60 })) as CallToolResult;
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toContain("50");
    const noBody = (await stdio.call("saveAlbums", {})) as CallToolResult;
    expect(noBody.isError).toBe(true);
    expect(upstream.requests).toHaveLength(0);
  });

  it("code mode over stdio: one program calls every operation", async () => {
    const code = await connectStdio(spec, ["--no-cache", "--mode", "code", "--base-url", upstream.url]);
    try {
      const result = (await code.call("execute", {
        program: [
          'const a = await api.getAlbumTracks({ id: "a1", limit: 10, tags: ["x", "y"] });',
          'const b = await api.saveAlbums({ ids: ["a", "b"] });',
          "const c = await api.setVolume({ volume_percent: 30 });",
          "return [a.method, b.method, c.method];",
        ].join("\n"),
      })) as CallToolResult;
      expectOk(result);
      expect(textOf(result)).toContain('"GET"');
      expect(sent()).toEqual(CALLS.map(([, , request]) => request));
    } finally {
      await code.close();
    }
  });

  describe("discovery mode over HTTP", () => {
    let bridge: HttpBridge;
    beforeAll(async () => {
      bridge = await startHttpBridge(spec, ["--no-cache", "--mode", "discovery", "--base-url", upstream.url]);
    });
    afterAll(async () => {
      await bridge.stop();
    });

    it("call_operation answers for each operation", async () => {
      const session = await connectHttp(bridge);
      try {
        expect(session.tools.map((t) => t.name)).toEqual([
          "search_operations",
          "describe_operations",
          "call_operation",
        ]);
        for (const [name, args, request] of CALLS) {
          upstream.reset();
          expectOk((await session.call("call_operation", { name, arguments: args })) as CallToolResult);
          expect(sent()).toEqual([request]);
        }
      } finally {
        await session.close();
      }
      expect(bridge.stdout()).toBe("");
    });
  });
});
