/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":5,\"terms\":\"inherit return json public either bearer queri kei configur test read oauth oidc\",\"docs\":{\"inherited\":\"0|0|0|||0 1 2||689843bac101\",\"public\":\"3|3|3|||3 1 2||373f9c80ed4a\",\"either\":\"4|4|4|||5 6 7 6 7 8 9 a 1 2||741fce343783\",\"both\":\"|||||1 2||34acb85c4328\",\"oauth\":\"b|b|b|||b 1 2||b0215828c247\",\"oidc\":\"c|c|c|||c 1 2||e6c7257847f6\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
