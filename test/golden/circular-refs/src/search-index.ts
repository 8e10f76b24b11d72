/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":3,\"terms\":\"creat node name children return object requir person peopl id employ\",\"docs\":{\"createNode\":\"0 1|0 1|1||2 3|0 1 4 5 2 3 6 2|c9787fa418a5\",\"getPerson\":\"7|7|8||7 9|7 4 5 2 a 6 7 9|05270290afa1\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
