/**
 * What a search result says an operation does: its title, or, when the title is only its name
 * in words (AWS query APIs: `GET_DescribeImages`, "Get describe images"), the first line of
 * its description; nothing when that too is only the name.
 */
import { describe, expect, it } from "vitest";
import { createOperationSearch } from "../../../../src/runtime/discovery/search.js";
import { planSpec } from "../../../e2e/safety-support.js";

const ok = { "200": { description: "OK" } };
const tools = planSpec({
  paths: {
    "/#Action=DescribeImages": {
      get: {
        operationId: "GET_DescribeImages",
        description: "Describes the specified images available to you. The images include public ones.",
        responses: ok,
      },
    },
    "/#Action=DescribeVolumes": { get: { operationId: "GET_DescribeVolumes", responses: ok } },
    "/orders": { get: { operationId: "listOrders", summary: "List the shop's orders", responses: ok } },
  },
}).tools;

describe("search result summaries", () => {
  const search = createOperationSearch(tools);
  const summaryOf = (query: string, name: string) =>
    search.search(query, { limit: 10 }).find((hit) => hit.name === name)?.summary;

  it.each([
    ["describe images", "GET_DescribeImages", "Describes the specified images available to you."],
    ["describe volumes", "GET_DescribeVolumes", ""],
    ["orders", "listOrders", "List the shop's orders"],
  ])("%s: %s says %j", (query, name, want) => {
    expect(summaryOf(query, name)).toBe(want);
  });
});
