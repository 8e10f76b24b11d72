/**
 * docs/serve.md's table of `serve` options is the option table rendered: this fails as soon as
 * they disagree (`npm run options-table` rewrites that copy).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  OPTION_MARKERS,
  readOptionTable,
  renderOptionTable,
  replaceOptionTable,
} from "../../../src/generator/codegen/emit/option-markdown.js";
import { toMarkdownCell } from "../../../src/generator/shared/markdown.js";
import { getOptionSpec, OPTION_KEYS } from "../../../src/runtime/config/option-table.js";

const readme = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "serve.md"), "utf8");

describe("docs/serve.md's option table", () => {
  it("is the option table, rendered (run `npm run options-table` to update it)", () => {
    expect(readOptionTable(readme), "docs/serve.md has no options markers").toBeDefined();
    expect(readOptionTable(readme)).toBe(renderOptionTable());
  });

  it("has one row per option, in table order", () => {
    const rows = renderOptionTable().split("\n").slice(2);
    expect(rows).toHaveLength(OPTION_KEYS.length);
    OPTION_KEYS.forEach((key, i) => {
      expect(rows[i]).toContain(`\`--${getOptionSpec(key).flag}`);
    });
  });
});

describe("the markdown rendering", () => {
  it("replaces what is between the markers, and only that", () => {
    const text = `before\n${OPTION_MARKERS.begin}\nold\n${OPTION_MARKERS.end}\nafter\n`;
    const replaced = replaceOptionTable(text, "| new |");
    expect(replaced).toBe(`before\n${OPTION_MARKERS.begin}\n| new |\n${OPTION_MARKERS.end}\nafter\n`);
    expect(readOptionTable(replaced)).toBe("| new |");
    expect(() => replaceOptionTable("no markers", "x")).toThrow(/markers/);
  });

  it("escapes what markdown would take as markup outside code spans, and | everywhere", () => {
    expect(toMarkdownCell("a|b `c|d` *e* <F> `*g*`")).toBe("a\\|b `c\\|d` \\*e\\* \\<F> `*g*`");
  });
});
