/**
 * The server's instructions quote the spec's description as a model should read it: no HTML or
 * markdown, and clipped only when the clip saves more than its marker costs.
 */
import { describe, expect, it } from "vitest";
import type { ModeChoice } from "../../../../src/runtime/discovery/mode.js";
import { clip } from "../../../../src/runtime/results/body-text.js";
import { FIELD_SYNTAX } from "../../../../src/runtime/results/project-fields.js";
import { describeServer } from "../../../../src/runtime/server/server-instructions.js";
import { planSpec, TOY_PATHS } from "../../../e2e/safety-support.js";

const TOOLS_MODE: ModeChoice = { mode: "tools", requested: "tools", tools: 10, reason: "forced" };
const FIELDS = `Beside its arguments, a tool takes "_fields" (${FIELD_SYNTAX}) to answer with only those fields.`;
const sentence = "Pets live here and are fed twice a day by the staff. "; // 53 characters

function instructionsFor(description: string): string {
  const model = planSpec({ info: { title: "Toy", version: "1", description }, paths: TOY_PATHS });
  return describeServer({ model, mode: TOOLS_MODE });
}

describe("the server's instructions", () => {
  it.each([
    {
      case: "HTML",
      given: "<p>The <b>Toy</b> API &amp; its <a href='https://x.example'>pets</a>.</p><p>More.</p>",
      want: `Tools for the Toy API (version 1): each tool is one HTTP operation. ${FIELDS} The Toy API & its pets.`,
    },
    {
      case: "markdown",
      given: "The **Toy** API: see [pets](https://x.example)\nand `id`.\n\nMore.",
      want: `Tools for the Toy API (version 1): each tool is one HTTP operation. ${FIELDS} The Toy API: see pets and id.`,
    },
    {
      case: "a first paragraph a few characters over the room",
      given: `${sentence.repeat(6)}Fed.`.trim(),
      want: `Tools for the Toy API (version 1): each tool is one HTTP operation. ${FIELDS} ${`${sentence.repeat(6)}Fed.`.trim()}`,
    },
  ])("quote the description cleaned: $case", ({ given, want }) => {
    expect(instructionsFor(given)).toBe(want);
  });

  it("clip a long first paragraph with a marker that says how much is left out", () => {
    const text = instructionsFor(sentence.repeat(20).trim());
    expect(text).toMatch(/\n\[… \d+ more characters not shown\]$/);
    expect(text.length).toBeLessThan(sentence.repeat(20).length);
  });
});

describe("clip", () => {
  it.each([
    { length: 100, max: 100, clipped: false },
    // The marker ("\n[… 20 more characters not shown]", 33 characters) would cost more than the 20 it saves.
    { length: 120, max: 100, clipped: false },
    { length: 133, max: 100, clipped: false },
    { length: 134, max: 100, clipped: true },
    { length: 1000, max: 100, clipped: true },
  ])("$length characters within $max: clipped $clipped", ({ length, max, clipped }) => {
    const text = "x".repeat(length);
    const result = clip(text, max);
    expect(result === text).toBe(!clipped);
    expect(result.length).toBeLessThanOrEqual(text.length);
  });
});
