/** The confirmation question shows which record a destructive call changes, never cut off. */
import { describe, expect, it } from "vitest";
import { describeArguments } from "../../../../src/runtime/access/confirm.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const model = planSpec({ paths: TOY_PATHS });
const deletePet = model.tools.find((tool) => tool.name === "deletePet")!;
const updatePet = model.tools.find((tool) => tool.name === "updatePet")!;

describe("describeArguments", () => {
  it("keeps short arguments as they are", () => {
    expect(describeArguments(deletePet, { id: "7" })).toBe('{"id":"7"}');
  });

  it("shows the path value first and whole, however long the rest the caller sent before it", () => {
    const args = { note: "x".repeat(5_000), id: "PRODUCTION-DATABASE" };
    const shown = describeArguments(updatePet, args);
    expect(shown.startsWith('{"id":"PRODUCTION-DATABASE","note":"xxx')).toBe(true);
    expect(shown).toMatch(/… \(\d[\d,]* more characters\)$/);
    expect(shown.length).toBeLessThan(1_100);
  });

  it("never cuts a path value, even one longer than the budget", () => {
    const id = "y".repeat(3_000);
    const shown = describeArguments(deletePet, { id });
    expect(shown).toBe(JSON.stringify({ id }));
  });
});
