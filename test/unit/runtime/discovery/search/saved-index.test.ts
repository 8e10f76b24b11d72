/**
 * The saved search index is checked per tool, as saved contract digests are: a tool whose
 * words changed since the index was saved (its description edited in a generated project) is
 * tokenized afresh; every other tool's saved terms are used, whatever the order of its keys.
 */
import { describe, expect, it } from "vitest";
import type { JsonValue, SearchIndexNode, ToolNode } from "../../../../../src/model/types.js";
import { readDocumentSource, termsOf } from "../../../../../src/runtime/discovery/search/fields.js";
import {
  buildSavedIndex,
  createTermsReader,
} from "../../../../../src/runtime/discovery/search/saved-index.js";
import { createOperationSearch } from "../../../../../src/runtime/discovery/search.js";
import { planSpec, TOY_PATHS } from "../../../../e2e/safety-support.js";

const tools = planSpec({ paths: TOY_PATHS }).tools;
const fresh = (tool: ToolNode) => termsOf(readDocumentSource(tool));
const byName = (name: string) => tools.find((tool) => tool.name === name)!;

/**
 * The index with getPet's saved terms replaced by deleteUser's (its own hash kept): shows when
 * saved terms are read.
 */
function markedIndex(): SearchIndexNode {
  const index = buildSavedIndex(tools);
  const docs = index.docs as Record<string, string>;
  const hash = docs.getPet!.split("|").at(-1)!;
  docs.getPet = [...docs.deleteUser!.split("|").slice(0, -1), hash].join("|");
  return index;
}

const withoutHash = (index: SearchIndexNode, name: string): SearchIndexNode => {
  const docs = { ...(index.docs as Record<string, string>) };
  docs[name] = docs[name]!.split("|").slice(0, -1).join("|");
  return { ...index, docs };
};

/** An index as saved before the hashes: its fields alone per tool. */
const withoutHashes = (index: SearchIndexNode): SearchIndexNode =>
  Object.keys(index.docs as object).reduce(withoutHash, index);

/** The reader's terms of a tool as words (it gives numbers into its terms). */
function createWordsReader(index: SearchIndexNode | undefined): (tool: ToolNode) => string[][] {
  const reader = createTermsReader(index);
  return (tool) => reader.read(tool).map((field) => field.map((n) => reader.terms[n]!));
}

const reversed = (tool: ToolNode): ToolNode =>
  Object.fromEntries(Object.entries(tool).reverse()) as unknown as ToolNode;

describe("createTermsReader", () => {
  it.each<
    [string, (tool: ToolNode) => ToolNode, (index: SearchIndexNode) => SearchIndexNode, "saved" | "fresh"]
  >([
    ["the tool as saved", (t) => t, (i) => i, "saved"],
    ["its keys in another order (a generated project's tool module)", reversed, (i) => i, "saved"],
    [
      "its HTTP method changed (not a word of the index)",
      (t) => ({ ...t, http: { ...t.http, method: "post" } }),
      (i) => i,
      "saved",
    ],
    [
      "its description edited",
      (t) => ({ ...t, description: "Fetch one kitten by its microchip" }),
      (i) => i,
      "fresh",
    ],
    ["its title edited", (t) => ({ ...t, title: "Kitten" }), (i) => i, "fresh"],
    ["its tags edited", (t) => ({ ...t, tags: ["kittens"] }), (i) => i, "fresh"],
    ["its hash missing", (t) => t, (i) => withoutHash(i, "getPet"), "fresh"],
    ["an index saved before the hashes", (t) => t, withoutHashes, "fresh"],
    ["an index of another version", (t) => t, (i) => ({ ...i, version: 1 }), "fresh"],
  ])("getPet, %s: %s terms", (_, change, changeIndex, want) => {
    const tool = change(byName("getPet"));
    const read = createWordsReader(changeIndex(JSON.parse(JSON.stringify(markedIndex()))));
    expect(read(tool)).toEqual(want === "saved" ? fresh(byName("deleteUser")) : fresh(tool));
    expect(read(byName("listPets"))).toEqual(fresh(byName("listPets")));
  });

  it("gives a term repeated in a saved vocabulary one number", () => {
    const index = JSON.parse(JSON.stringify(buildSavedIndex(tools))) as SearchIndexNode;
    const words = (index.terms as string).split(" ");
    const reader = createTermsReader({ ...index, terms: [...words, words[0]].join(" ") });
    expect(reader.terms).toEqual(words);
    expect(new Set(reader.terms).size).toBe(reader.terms.length);
  });

  it("reads numbers written otherwise (upper case, leading zeros) as parseInt reads them", () => {
    const index = JSON.parse(JSON.stringify(buildSavedIndex(tools))) as SearchIndexNode;
    const docs = index.docs as Record<string, string>;
    const [hash] = docs.getPet!.split("|").slice(-1);
    const fields = docs.getPet!.split("|").slice(0, -1);
    const written = fields.map((field) =>
      field === "" ? field : field.split(" ").map((id, i) => (i % 2 === 0 ? id.toUpperCase() : `0${id}`)),
    );
    docs.getPet = [...written.map((field) => (Array.isArray(field) ? field.join(" ") : field)), hash].join(
      "|",
    );
    expect(createWordsReader(index)(byName("getPet"))).toEqual(fresh(byName("getPet")));
  });

  it("reads a tool afresh when its body's action values changed (they are its terms)", () => {
    const [tool] = planSpec({
      paths: {
        "/droplets/{id}/actions": {
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          post: {
            operationId: "dropletActions_post",
            requestBody: {
              content: {
                "application/json": {
                  schema: { type: "object", properties: { type: { type: "string", enum: ["reboot"] } } },
                },
              },
            },
            responses: { "200": { description: "OK" } },
          },
        },
      },
    }).tools;
    const index = JSON.parse(JSON.stringify(buildSavedIndex([tool!]))) as SearchIndexNode;
    // The body's properties are arguments: `type` is one.
    const type = tool!.http.body!.properties!.find((p) => p.name === "type")!.argument;
    const properties = tool!.inputSchema.properties as Record<string, Record<string, JsonValue>>;
    const edited: ToolNode = {
      ...tool!,
      inputSchema: {
        ...tool!.inputSchema,
        properties: { ...properties, [type]: { ...properties[type], enum: ["reboot", "resize"] } },
      },
    };
    expect(createWordsReader(index)(tool!).at(-1)).toEqual(["reboot"]);
    expect(createWordsReader(index)(edited).at(-1)).toEqual(["reboot", "resiz"]);
  });

  it("reads back what it saved for every tool", () => {
    const read = createWordsReader(JSON.parse(JSON.stringify(buildSavedIndex(tools))));
    for (const tool of tools) expect(read(tool)).toEqual(fresh(tool));
  });
});

describe("a search over a saved index", () => {
  it("finds an edited tool by its new words, and not by the old ones", () => {
    const index = buildSavedIndex(tools);
    const edited = tools.map((tool) =>
      tool.name === "getInventory" ? { ...tool, description: "Counts the kittens in the shelter" } : tool,
    );
    const search = createOperationSearch(edited, index);
    expect(search.search("kittens shelter").map((hit) => hit.name)[0]).toBe("getInventory");
    expect(createOperationSearch(tools, index).search("kittens shelter")).toEqual([]);
  });
});
