/**
 * Examples that are a template's blanks (Postman's `{{BLOCK_ID}}`, `<string>`) are no examples:
 * neither in input schemas nor in the description's "Example:" line.
 */
import { describe, expect, it } from "vitest";
import { isPlaceholderValue } from "../../../src/generator/compile/placeholder-values.js";
import { planSpec } from "../../e2e/safety-support.js";

describe("isPlaceholderValue", () => {
  it.each([
    ["{{BLOCK_ID}}", true],
    ["{{NOTION_VERSION}}", true],
    ["Bearer {{token}}", true],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: code in an example is a value (the adversarial golden's)
    ["${process.exit(29)}", false],
    ["<string>", true],
    ["<dateTime>", true],
    ["<p>Hello</p>", false],
    ["a < b > c", false],
    ["block_1234", false],
    ["{}", false],
    ["$5.00", false],
    [42, false],
  ])("%j → %s", (value, want) => {
    expect(isPlaceholderValue(value)).toBe(want);
  });
});

describe("planning leaves template blanks out of examples", () => {
  const model = planSpec({
    paths: {
      "/v1/blocks/{id}": {
        get: {
          operationId: "retrieveABlock",
          summary: "Retrieve a block",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" }, example: "{{BLOCK_ID}}" },
            {
              name: "Notion-Version",
              in: "header",
              schema: { type: "string", example: "{{NOTION_VERSION}}" },
            },
            { name: "page_size", in: "query", schema: { type: "integer", example: 100 } },
          ],
          responses: { "200": { description: "OK" } },
        },
      },
    },
  });
  const tool = model.tools[0]!;
  const properties = tool.inputSchema.properties as Record<string, Record<string, unknown>>;

  it("in the input schema", () => {
    expect(properties.id).not.toHaveProperty("examples");
    expect(properties["Notion-Version"]).not.toHaveProperty("examples");
    expect(properties.page_size?.examples).toEqual([100]);
  });

  it("in the description", () => {
    expect(tool.description).not.toContain("{{");
  });
});
