/**
 * tools/list shows every tool's contract digest through the fast path (digestToolContract);
 * it must be the digest the catalog and `diff` compute (describeContract), for real tools.
 */
import { describe, expect, it } from "vitest";
import { describeContract } from "../../../../src/contracts/contract.js";
import { buildModel } from "../../../../src/generator/compile/build-model.js";
import { digestToolContract } from "../../../../src/runtime/server/contract.js";
import { fixture } from "../../../helpers/bridge.js";

describe("digestToolContract", () => {
  it.each([
    ["petstore", "petstore/petstore.openapi30.yaml", {}],
    ["wire 3.1, with output schemas", "wire/wire.openapi31.yaml", { outputSchemas: true }],
    ["wire 2.0", "wire/wire.swagger20.yaml", {}],
    ["naming", "naming/names.openapi31.yaml", {}],
    ["readme.com (real)", "real/readme.openapi31.yaml", { outputSchemas: true }],
    ["Gitea (346 operations)", "codegen/gitea.openapi30.json", {}],
  ])("is describeContract's digest for every tool of %s", async (_name, path, options) => {
    const model = await buildModel(fixture(...path.split("/")), { cache: false, ...options });
    expect(model.tools.length).toBeGreaterThan(0);
    for (const tool of model.tools)
      expect(digestToolContract(tool), tool.name).toBe(describeContract(tool).digest);
  });
});
