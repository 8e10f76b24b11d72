import { describe, expect, it } from "vitest";
import type { LoadedSpec } from "../../src/generator/load.js";
import { planModel } from "../../src/generator/plan.js";
import { cleanProse, compactDescription, fitText } from "../../src/generator/text.js";

function toolFor(operation: Record<string, unknown>, path = "/pets/{petId}", method = "get") {
  const loaded = {
    document: {
      openapi: "3.0.3",
      info: { title: "T", version: "1" },
      paths: { [path]: { [method]: { responses: { "200": { description: "ok" } }, ...operation } } },
    },
    specVersion: "3.0",
    source: "spec.yaml",
    diagnostics: [],
  } as unknown as LoadedSpec;
  return planModel(loaded).tools[0]!;
}

describe("cleanProse", () => {
  it.each([
    { given: "<p>Hello <b>world</b></p>", want: "Hello world" },
    { given: "Use [the filter](https://x.example/g) to narrow", want: "Use the filter to narrow" },
    { given: "Use `per_page` and **page**.", want: "Use per_page and page." },
    { given: 'Lists pets. For more information, see "[Paging](https://x/p)."', want: "Lists pets." },
    { given: "Line one<br/>Line two", want: "Line one\nLine two" },
    { given: "A &amp; B &lt;tag&gt;", want: "A & B <tag>" },
    { given: "# Heading\n\nBody\n\n\n\nMore", want: "Heading\n\nBody\n\nMore" },
    { given: "![logo](x.png)Text", want: "Text" },
    { given: undefined, want: "" },
  ])("$given", ({ given, want }) => {
    expect(cleanProse(given)).toBe(want);
  });
});

describe("fitText and compactDescription", () => {
  it("keeps text within the budget, cutting at a sentence or a word", () => {
    const text = "First sentence here. Second sentence is longer than the budget allows for sure.";
    expect(fitText(text, 200)).toBe(text);
    expect(fitText(text, 30)).toBe("First sentence here.");
    expect(fitText("word ".repeat(40), 20)).toBe("word word word…");
    expect(fitText("x".repeat(50), 10)).toHaveLength(10);
  });
  it.each([
    {
      given: "The account owner of the repository. The name is not case sensitive.",
      want: "The account owner of the repository.",
    },
    {
      given: "The org name. The name is not case sensitive.",
      want: "The org name. The name is not case sensitive.",
    },
    {
      given: "Page size (max 100). For more information, see [Paging](https://x).",
      want: "Page size (max 100).",
    },
  ])("$given → $want", ({ given, want }) => {
    expect(compactDescription(given, 100)).toBe(want);
  });
});

describe("tool descriptions", () => {
  it("never reads undefined: no summary or description gives method, path and tags", () => {
    const tool = toolFor({ tags: ["pets"] });
    expect(tool.description).toBe("Read /pets/{petId} (pets).\nReturns no content.");
    expect(tool.title).toBe("GET /pets/{petId}");
  });

  it("leads with the summary, then the cleaned description, then the documented errors", () => {
    const tool = toolFor({
      summary: "Get a pet",
      description: "<p>Returns one pet.</p> See [docs](https://x).",
      responses: {
        "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
        "404": { description: "missing" },
      },
    });
    // "See docs." only points elsewhere: dropped
    expect(tool.description).toBe("Get a pet.\nReturns one pet.\nErrors: 404.");
  });

  it("says what a tool without an output schema returns", () => {
    const tool = toolFor({
      summary: "Download",
      responses: { "200": { description: "ok", content: { "text/csv": {} } } },
    });
    expect(tool.description).toBe("Download.\nReturns text/csv.");
  });

  it("marks deprecated operations and uses the first sentence when there is no summary", () => {
    const tool = toolFor({ deprecated: true, description: "Fetches a pet. Slowly and with care." });
    expect(tool.description.startsWith("Deprecated. Fetches a pet.")).toBe(true);
  });

  it("keeps a huge description within the budget", () => {
    const tool = toolFor({ summary: "Big", description: "Lorem ipsum dolor sit amet. ".repeat(500) });
    expect(tool.description.length).toBeLessThanOrEqual(200);
    expect(tool.description.startsWith("Big.\nLorem ipsum")).toBe(true);
  });
});
