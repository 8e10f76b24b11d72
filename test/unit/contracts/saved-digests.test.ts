/**
 * Contract digests saved with a model (`model` command) stand in for computed ones only while
 * they still describe the tool: tools/list shows the same digests either way.
 */
import { describe, expect, it } from "vitest";
import { buildModel } from "../../../src/generator/compile/build-model.js";
import { parseModel, serializeModel } from "../../../src/model/serialize.js";
import type { BridgeModel, JsonValue, ToolNode } from "../../../src/model/types.js";
import { digestToolContract } from "../../../src/runtime/server/contract.js";
import {
  CONTRACT_DIGEST_VERSION,
  readSavedDigest,
  saveContractDigests,
} from "../../../src/runtime/server/saved-digests.js";
import { toListedTool } from "../../../src/runtime/server/tool-list.js";
import { createCatalogTracker } from "../../../src/serve/reload/catalog-tracker.js";
import { fixture } from "../../helpers/bridge.js";

/** A model as `model` saves it and `serve` reads it back. */
async function savedModel(): Promise<BridgeModel> {
  const model = await buildModel(fixture("codegen", "gitea.openapi30.json"), { cache: false });
  return parseModel(serializeModel({ ...model, contractDigests: saveContractDigests(model.tools) }));
}

const contractDigestOf = (model: BridgeModel, tool: ToolNode) =>
  createCatalogTracker(model).contractOf(toListedTool(tool)).digest;

describe("saved contract digests", () => {
  it("are the computed digests of every tool read back", async () => {
    const model = await savedModel();
    expect(model.contractDigests?.version).toBe(CONTRACT_DIGEST_VERSION);
    for (const tool of model.tools) {
      expect(readSavedDigest(model, tool), tool.name).toBe(digestToolContract(tool));
      expect(contractDigestOf(model, tool), tool.name).toBe(digestToolContract(tool));
    }
  });

  it("are not used for a tool changed after they were saved", async () => {
    const model = await savedModel();
    const [first, second] = model.tools as [ToolNode, ToolNode];
    const changed: ToolNode = {
      ...first,
      inputSchema: {
        ...first.inputSchema,
        properties: { ...(first.inputSchema.properties as Record<string, JsonValue>), extra: {} },
      },
    };
    const renamed: ToolNode = { ...second, description: `${second.description} (edited)` };
    const edited = { ...model, tools: [changed, renamed, ...model.tools.slice(2)] };
    expect(readSavedDigest(edited, changed)).toBeUndefined();
    expect(readSavedDigest(edited, renamed)).toBeUndefined();
    expect(digestToolContract(changed)).not.toBe(digestToolContract(first));
    expect(contractDigestOf(edited, changed)).toBe(digestToolContract(changed));
    expect(contractDigestOf(edited, renamed)).toBe(digestToolContract(renamed));
  });

  it("are not used when saved under another definition, or malformed, or for another name", async () => {
    const model = await savedModel();
    const tool = model.tools[0]!;
    const saved = model.contractDigests!;
    const entry = saved.tools[tool.name]!;
    const cases: BridgeModel[] = [
      { ...model, contractDigests: { ...saved, version: CONTRACT_DIGEST_VERSION + 1 } },
      { ...model, contractDigests: { version: CONTRACT_DIGEST_VERSION, tools: {} } },
      { ...model, contractDigests: null as unknown as BridgeModel["contractDigests"] },
      {
        ...model,
        contractDigests: {
          version: CONTRACT_DIGEST_VERSION,
          tools: { [tool.name]: { ...entry, digest: 5 as unknown as string } },
        },
      },
    ];
    for (const other of cases) {
      expect(readSavedDigest(other, tool)).toBeUndefined();
      expect(contractDigestOf(other, tool)).toBe(digestToolContract(tool));
    }
    const inherited = { ...tool, name: "constructor" };
    expect(readSavedDigest(model, inherited)).toBeUndefined();
  });
});
