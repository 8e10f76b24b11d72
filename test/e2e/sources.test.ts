/**
 * Where a spec can come from (file, URL, stdin, a saved model) and how references are treated:
 * relative files followed, circular schemas kept as local $defs, network references refused
 * unless allowed.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  connectModel,
  connectSpec,
  connectStdio,
  fixture,
  library,
  runCli,
  textOf,
} from "../helpers/bridge.js";
import { mediaType, sendBytes, sendJson, startUpstream, type Upstream } from "../helpers/upstream.js";
import { WIRE_SPECS, wireResponder } from "./wire-cases.js";

const SPEC = fixture(WIRE_SPECS["3.0"]);

let dir: string;
let upstream: Upstream;
let specText: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "omb-sources-"));
  specText = await readFile(SPEC, "utf8");
  upstream = await startUpstream(wireResponder);
});

afterAll(async () => {
  await upstream.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.reset();
  upstream.setHandler(wireResponder);
});

async function toolsJson(source: string, stdin?: string): Promise<unknown> {
  const run = await runCli(["tools", source, "--json"], stdin === undefined ? {} : { stdin });
  expect(run.code, run.stderr).toBe(0);
  const printed = JSON.parse(run.stdout) as { tools?: unknown[] } | unknown[];
  return Array.isArray(printed) ? printed : printed.tools;
}

describe("spec sources", () => {
  let fromFile: unknown;

  beforeAll(async () => {
    fromFile = await toolsJson(SPEC);
  });

  it("a file gives a non-empty tool list", () => {
    expect(Array.isArray(fromFile)).toBe(true);
    expect((fromFile as unknown[]).length).toBeGreaterThan(20);
  });

  it("an http URL gives the same tools as the file", async () => {
    upstream.setHandler((req, res) =>
      req.rawPath === "/specs/wire.yaml"
        ? sendBytes(res, 200, "application/yaml", specText)
        : sendJson(res, 404, {}),
    );
    expect(await toolsJson(`${upstream.url}/specs/wire.yaml`)).toEqual(fromFile);
    expect(upstream.requests.map((r) => `${r.method} ${r.rawPath}`)).toContain("GET /specs/wire.yaml");
  });

  it("stdin (`-`) gives the same tools as the file", async () => {
    expect(await toolsJson("-", specText)).toEqual(fromFile);
  });

  it("JSON works as well as YAML", async () => {
    const { parse } = await import("yaml");
    const file = join(dir, "wire.openapi30.json");
    await writeFile(file, JSON.stringify(parse(specText)));
    expect(await toolsJson(file)).toEqual(fromFile);
  });

  it("a saved model gives the same tools, and serve can start from it", async () => {
    const { loadSpec, planModel } = await library();
    const model = planModel(await loadSpec(SPEC));
    expect(model.irVersion).toBe(4);
    const roundTripped = JSON.parse(JSON.stringify(model));
    expect(roundTripped).toEqual(model);
    const file = join(dir, "wire.model.json");
    await writeFile(file, JSON.stringify(model));
    expect(await toolsJson(file)).toEqual(fromFile);

    const bridge = await connectStdio(file, ["--base-url", upstream.url]);
    try {
      const result = await bridge.call("getPet", { petId: 4 });
      expect(result.structuredContent).toEqual({ id: 4, name: "Rex" });
      expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/pets/4"]);
    } finally {
      await bridge.close();
    }
  });

  it("buildModel = loadSpec + planModel, and is deterministic", async () => {
    const { buildModel, loadSpec, planModel } = await library();
    const a = await buildModel(SPEC);
    const b = await buildModel(SPEC);
    const c = planModel(await loadSpec(SPEC));
    expect(a.tools).toEqual(b.tools);
    expect(a.tools).toEqual(c.tools);
    expect(a.info.specVersion).toBe("3.0");
    expect((await buildModel(fixture(WIRE_SPECS["3.1"]))).info.specVersion).toBe("3.1");
    expect((await buildModel(fixture(WIRE_SPECS["2.0"]))).info.specVersion).toBe("2.0");
  });
});

describe("references", () => {
  it("follows references to files next to the spec", async () => {
    const bridge = await connectSpec(fixture("refs/external.openapi30.yaml"), { baseUrl: upstream.url });
    try {
      expect(bridge.tools.map((t) => t.name).sort()).toEqual(["createPet", "getPet"]);
      const create = bridge.tools.find((t) => t.name === "createPet")!;
      expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual([
        "color",
        "extraProperties",
        "name",
      ]);
      expect(create.inputSchema.required).toEqual(["name"]);
      upstream.setHandler((_req, res) => sendJson(res, 201, { id: 1, name: "Tom", color: "ginger" }));
      const result = await bridge.call("createPet", { name: "Tom", color: "ginger" });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(result.structuredContent).toEqual({ id: 1, name: "Tom", color: "ginger" });
      const req = upstream.requests[0]!;
      expect(`${req.method} ${req.rawUrl}`).toBe("POST /pets");
      expect(mediaType(req.header("content-type"))).toBe("application/json");
      expect(req.json()).toEqual({ name: "Tom", color: "ginger" });
      const bad = await bridge.call("createPet", { name: "Tom", color: "purple" });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain("color");
    } finally {
      await bridge.close();
    }
  });

  it("keeps circular schemas as local $defs and still validates and sends them", async () => {
    const bridge = await connectSpec(fixture("refs/circular.openapi31.yaml"), { baseUrl: upstream.url });
    try {
      const create = bridge.tools.find((t) => t.name === "createNode")!;
      const text = JSON.stringify(create);
      expect(text.length).toBeLessThan(20_000);
      expect(text).toMatch(/"\$ref":"#\/\$defs\//);
      expect(create.inputSchema).toHaveProperty("$defs");
      expect(Object.keys(create.inputSchema.properties ?? {}).sort()).toEqual([
        "children",
        "extraProperties",
        "name",
      ]);

      const tree = { name: "root", children: [{ name: "a", children: [{ name: "a1" }] }, { name: "b" }] };
      upstream.setHandler((req, res) => sendJson(res, 200, req.json()));
      const result = await bridge.call("createNode", tree);
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests[0]!.json()).toEqual(tree);
      expect(result.structuredContent).toEqual(tree);

      const bad = await bridge.call("createNode", { name: "root", children: [{ children: [] }] });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toContain("name");

      upstream.setHandler((_req, res) =>
        sendJson(res, 200, { name: "Ann", employer: { name: "Acme", staff: [{ name: "Bob" }] } }),
      );
      const person = await bridge.call("getPerson", { personId: "ann" });
      expect(person.structuredContent).toEqual({
        name: "Ann",
        employer: { name: "Acme", staff: [{ name: "Bob" }] },
      });
    } finally {
      await bridge.close();
    }
  });

  describe("network references", () => {
    let specFile: string;
    let refServer: Upstream;

    beforeAll(async () => {
      refServer = await startUpstream((_req, res) =>
        sendBytes(res, 200, "application/yaml", "type: object\nproperties:\n  name: { type: string }\n"),
      );
      specFile = join(dir, "network-ref.openapi30.yaml");
      await writeFile(
        specFile,
        [
          "openapi: 3.0.3",
          "info: { title: Network ref, version: 1.0.0 }",
          "paths:",
          "  /things:",
          "    post:",
          "      operationId: createThing",
          "      requestBody:",
          "        content:",
          "          application/json:",
          `            schema: { $ref: "${refServer.url}/schemas/thing.yaml" }`,
          "      responses:",
          '        "204": { description: Created }',
          "",
        ].join("\n"),
      );
    });

    afterAll(async () => {
      await refServer.close();
    });

    beforeEach(() => {
      refServer.reset();
    });

    it("are refused by default, without fetching anything", async () => {
      const { loadSpec } = await library();
      await expect(loadSpec(specFile)).rejects.toThrow();
      expect(refServer.requests).toHaveLength(0);
    });

    it("are refused by the CLI with a message and no stack trace", async () => {
      const run = await runCli(["tools", specFile]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain("network-ref.openapi30.yaml");
      expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      expect(refServer.requests).toHaveLength(0);
    });

    it("are fetched when allowNetworkRefs is set", async () => {
      const { loadSpec, planModel } = await library();
      const model = planModel(await loadSpec(specFile, { allowNetworkRefs: true }));
      expect(refServer.requests.length).toBeGreaterThan(0);
      const bridge = await connectModel(model, { baseUrl: upstream.url });
      try {
        const tool = bridge.tools.find((t) => t.name === "createThing")!;
        expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(["name", "extraProperties"]);
      } finally {
        await bridge.close();
      }
    });
  });
});
