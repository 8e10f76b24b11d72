/**
 * The search index saved with a model (runtime/discovery/search: buildSearchIndex), built a few
 * hundred tools a step so that the model cache's write leaves `serve` answering (Graph beta's
 * index is over a second of work in one piece). Each chunk's index is built by the search's own
 * builder and merged: its vocabulary numbers become the whole index's, given in the order terms
 * first occur, which is the order one build over all the tools gives them. So the result equals
 * buildSearchIndex(tools) (a unit test compares them); an index of a layout this merge does not
 * know is built in one piece.
 */
import type { SearchIndexNode, ToolNode } from "../../model/types.js";
import { buildSearchIndex } from "../../runtime/discovery/search.js";

/** Tools per step. */
const CHUNK_TOOLS = 100;

/** buildSearchIndex(tools), a chunk of tools a step. */
export function* buildSearchIndexSteps(tools: readonly ToolNode[]): Generator<void, SearchIndexNode, void> {
  if (tools.length <= CHUNK_TOOLS) return buildSearchIndex([...tools]);
  const ids = new Map<string, string>();
  const vocabulary: string[] = [];
  const docs: Record<string, string> = {};
  let version: number | undefined;
  for (let start = 0; start < tools.length; start += CHUNK_TOOLS) {
    const chunk = buildSearchIndex(tools.slice(start, start + CHUNK_TOOLS));
    if (version !== undefined && chunk.version !== version) return buildSearchIndex([...tools]);
    version = chunk.version;
    if (!isMergeable(chunk)) return buildSearchIndex([...tools]);
    const local = chunk.terms === "" ? [] : chunk.terms.split(" ");
    const toGlobal = local.map((term) => {
      let id = ids.get(term);
      if (id === undefined) {
        id = vocabulary.length.toString(36);
        ids.set(term, id);
        vocabulary.push(term);
      }
      return id;
    });
    for (const [name, text] of Object.entries(chunk.docs)) {
      const fields = text.split("|");
      // The last field is the hash of the operation's source, not terms.
      for (let i = 0; i < fields.length - 1; i++) {
        const field = fields[i]!;
        if (field !== "")
          fields[i] = field
            .split(" ")
            .map((id) => toGlobal[Number.parseInt(id, 36)]!)
            .join(" ");
      }
      docs[name] = fields.join("|");
    }
    yield;
  }
  return { version: version!, terms: vocabulary.join(" "), docs };
}

/** The layout merged here: a vocabulary (terms by space) and per tool `ids|ids|...|hash`. */
function isMergeable(
  index: SearchIndexNode,
): index is SearchIndexNode & { terms: string; docs: Record<string, string> } {
  const { terms, docs } = index;
  return (
    Object.keys(index).length === 3 &&
    typeof terms === "string" &&
    typeof docs === "object" &&
    docs !== null &&
    !Array.isArray(docs) &&
    Object.values(docs).every((text) => typeof text === "string")
  );
}
