/**
 * Hostile specs through the built CLI, as an operator would meet them: a `$ref` that reads a
 * secret from outside the spec's folder or `/dev/zero`, a document nested 100,000 deep, and
 * spec regexes (`pattern`, `patternProperties`, `format`, an output schema's pattern) built to
 * backtrack for minutes: the bridge refuses the first ones at start-up with a coded diagnostic
 * and answers the others in bounded time while `/healthz` and other sessions keep answering.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectHttp,
  type HttpBridge,
  runCli,
  STACK_LINE,
  startHttpBridge,
  textOf,
} from "../helpers/bridge.js";
import { sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { connectRuntime, planSpec } from "./safety-support.js";

const dir = mkdtempSync(join(tmpdir(), "omb-hostile-specs-"));
const specDir = join(dir, "spec");
const SECRET = "TOPSECRET-credential-9931";

function writeJson(name: string, document: Record<string, unknown>): string {
  const file = join(specDir, name);
  writeFileSync(
    file,
    JSON.stringify({ openapi: "3.1.0", info: { title: "Hostile", version: "1" }, ...document }),
  );
  return file;
}

/** One GET operation whose description is `$ref: ref` (where an attacker wants the file's text). */
function refSpec(name: string, ref: string): string {
  return writeJson(name, {
    paths: {
      "/x": {
        get: { operationId: "x", description: { $ref: ref }, responses: { "200": { description: "OK" } } },
      },
    },
  });
}

beforeAll(() => {
  mkdirSync(specDir, { recursive: true });
  mkdirSync(join(dir, "secret"), { recursive: true });
  writeFileSync(join(dir, "secret", "creds.yaml"), `token: ${SECRET}\n`);
});

describe("specs that read what they must not, at start-up", () => {
  it.each([
    ["a file outside the spec's folder", "../secret/creds.yaml#/token", "OMB_REF_OUTSIDE_ROOT"],
    ["an absolute path", "/etc/hostname", "OMB_REF_OUTSIDE_ROOT"],
  ])("%s: serve and tools refuse it, the secret nowhere", async (_what, ref, code) => {
    const spec = refSpec("read.json", ref);
    for (const args of [
      ["tools", spec],
      ["serve", spec],
    ]) {
      const run = await runCli([...args, "--no-cache"]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(code);
      expect(run.stderr).toContain("--ref-root");
      expect(run.stderr).not.toMatch(STACK_LINE);
      expect(run.stdout + run.stderr).not.toContain(SECRET);
    }
  });

  it("--ref-root lets the operator allow the other folder", async () => {
    const run = await runCli([
      "tools",
      refSpec("read.json", "../secret/creds.yaml#/token"),
      "--ref-root",
      join(dir, "secret"),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(SECRET);
  });

  it("$ref: /dev/zero (allowed as a root) is refused at once, memory untouched", async () => {
    const run = await runCli(["tools", refSpec("zero.json", "/dev/zero"), "--ref-root", "/dev"], {
      timeoutMs: 10_000,
    });
    expect(run.signal).toBeNull();
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("OMB_REF_NOT_FILE");
    expect(run.stderr).toContain("not a regular file (a character device)");
  });

  it("a spec nested 100,000 deep gets OMB_SPEC_TOO_DEEP with the pointer, not OMB_INTERNAL", async () => {
    const file = join(specDir, "deep.json");
    writeFileSync(
      file,
      `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"Deep":${'{"items":'.repeat(100_000)}{}${"}".repeat(100_000)}}}}`,
    );
    const run = await runCli(["serve", file, "--no-cache"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^error OMB_SPEC_TOO_DEEP .*deep\.json#\/components\/schemas\/Deep\/items\/items/,
    );
    expect(run.stderr).not.toContain("OMB_INTERNAL");
    expect(run.stderr).not.toContain("Maximum call stack");
  });
});

describe("spec regexes run in bounded time (HTTP, two sessions)", () => {
  let api: Upstream;
  let bridge: HttpBridge;
  const evil = "^(a+)+$";
  const attack = `${"a".repeat(41)}!`;

  beforeAll(async () => {
    api = await startUpstream((req, res) => {
      if (req.rawPath === "/answer") sendJson(res, 200, { code: attack });
      else sendJson(res, 200, { ok: true });
    });
    const spec = writeJson("redos.json", {
      servers: [{ url: api.url }],
      paths: {
        "/things": {
          post: {
            operationId: "createThing",
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      code: { type: "string", pattern: evil },
                      site: { type: "string", format: "url" },
                      labels: { type: "object", patternProperties: { [evil]: { type: "string" } } },
                    },
                  },
                },
              },
            },
            responses: { "200": { description: "OK" } },
          },
        },
        "/answer": {
          get: {
            operationId: "getAnswer",
            responses: {
              "200": {
                description: "OK",
                content: {
                  "application/json": {
                    schema: { type: "object", properties: { code: { type: "string", pattern: evil } } },
                  },
                },
              },
            },
          },
        },
      },
    });
    bridge = await startHttpBridge(spec, ["--no-cache", "--output-schemas"]);
  });
  afterAll(async () => {
    await bridge.stop();
    await api.close();
  });

  it("a pattern, a url format and a patternProperties key built to backtrack are answered, the loop free", async () => {
    const [first, second] = [await connectHttp(bridge), await connectHttp(bridge)];
    try {
      const calls = [
        first.call("createThing", { code: attack }),
        first.call("createThing", { site: `http://${":".repeat(20_000)} ` }),
        first.call("createThing", { labels: { [attack]: "x" } }),
      ];
      // While those are being checked, another session and the health check are answered.
      const [health, other] = await Promise.all([
        fetch(`http://127.0.0.1:${bridge.port}/healthz`),
        second.call("createThing", { code: "aaaa" }),
      ]);
      expect(health.status).toBe(200);
      expect(other.isError ?? false, textOf(other)).toBe(false);
      const [pattern, url, key] = await Promise.all(calls);
      expect(textOf(pattern!)).toContain('must match the pattern "^(a+)+$"');
      expect(url!.isError).toBe(true);
      expect(textOf(url!)).toContain("site: expected a URL");
      expect(key!.isError ?? false, textOf(key!)).toBe(false);
      expect(api.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("an upstream answer is checked against an output schema's pattern in bounded time", async () => {
    // The planner's outline output schemas carry no patterns; a hand-made model may.
    const model = planSpec(
      {
        servers: [{ url: api.url }],
        paths: {
          "/answer": { get: { operationId: "getAnswer", responses: { "200": { description: "OK" } } } },
        },
      },
      { outputSchemas: true },
    );
    model.tools[0]!.outputSchema = {
      type: "object",
      properties: { code: { type: "string", pattern: evil } },
    };
    const runtime = await connectRuntime(model, { env: {} });
    try {
      const result = await runtime.call("getAnswer");
      expect(textOf(result)).toContain(attack);
      expect(textOf(result)).toContain("does not match the documented response schema");
      expect(result.structuredContent).toBeUndefined();
    } finally {
      await runtime.close();
    }
  });
});
