/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":1,\"documents\":{\"createNode\":{\"name\":[\"create\",\"node\"],\"title\":[\"create\",\"node\"],\"path\":[\"node\"],\"tags\":[],\"description\":[\"create\",\"node\",\"return\",\"an\",\"object\",\"name\",\"children\",\"required\",\"name\"]},\"getPerson\":{\"name\":[\"get\",\"person\"],\"title\":[\"get\",\"person\"],\"path\":[\"people\"],\"tags\":[],\"description\":[\"get\",\"person\",\"return\",\"an\",\"object\",\"name\",\"employer\",\"required\",\"person\",\"id\"]}}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
