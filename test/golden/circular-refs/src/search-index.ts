/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":5,\"terms\":\"creat node name children extra properti return object requir person peopl id employ\",\"docs\":{\"createNode\":\"0 1|0 1|1||2 3 4 5|0 1 6 7 2 3 8 2||34d34e913c68\",\"getPerson\":\"9|9|a||9 b|9 6 7 2 c 8 9 b||4dc369b677b8\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
