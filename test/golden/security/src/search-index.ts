/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":4,\"terms\":\"inherit return json public either bearer queri kei configur test read oauth oidc\",\"docs\":{\"inherited\":\"0|0|0|||0 1 2|1de5d4629625\",\"public\":\"3|3|3|||3 1 2|c59a07e66c8e\",\"either\":\"4|4|4|||5 6 7 6 7 8 9 a 1 2|ea42552e2302\",\"both\":\"|||||1 2|69f4e5052a0f\",\"oauth\":\"b|b|b|||b 1 2|82b61e929941\",\"oidc\":\"c|c|c|||c 1 2|0962ccbb61dd\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
