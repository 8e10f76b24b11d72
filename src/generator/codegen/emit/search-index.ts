/**
 * `src/search-index.ts`: the tools' search index for discovery mode, built at generation over
 * the project's tools (the selection applied), so the generated server searches exactly as
 * `serve` does for the same tools, without building the index at start-up. It is kept as JSON
 * text, escaped like any spec text, and parsed once when the server starts: parsing JSON is
 * faster than compiling an object literal of the same size, for tsc and for Node alike.
 */
import type { SearchIndexNode } from "../../../model/types.js";
import type { ModuleSpec } from "../print/module-spec.js";

export function emitSearchIndexModule(index: SearchIndexNode): ModuleSpec {
  return {
    docs: [
      "The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),",
      "built by openapi-mcp-bridge at generation. Generate again to rebuild it.",
    ].join("\n"),
    imports: [{ module: "./model/types.js", named: ["SearchIndexNode"], typeOnly: true }],
    declarations: [
      {
        kind: "const",
        name: "searchIndexJson",
        docs: "The index as JSON text.",
        value: JSON.stringify(index),
      },
      {
        kind: "code",
        text: [
          "/** The index, parsed once at start. */",
          "export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;",
        ].join("\n"),
      },
    ],
  };
}
