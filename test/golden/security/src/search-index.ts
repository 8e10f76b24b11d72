/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":1,\"documents\":{\"inherited\":{\"name\":[\"inherited\"],\"title\":[\"inherited\"],\"path\":[\"inherited\"],\"tags\":[],\"description\":[\"inherited\",\"return\",\"json\"]},\"public\":{\"name\":[\"public\"],\"title\":[\"public\"],\"path\":[\"public\"],\"tags\":[],\"description\":[\"public\",\"return\",\"json\"]},\"either\":{\"name\":[\"either\"],\"title\":[\"either\"],\"path\":[\"either\"],\"tags\":[],\"description\":[\"bearer\",\"or\",\"the\",\"query\",\"key\",\"only\",\"the\",\"query\",\"key\",\"is\",\"configured\",\"in\",\"the\",\"test\",\"read\",\"only\",\"return\",\"json\"]},\"both\":{\"name\":[\"both\"],\"title\":[\"both\"],\"path\":[\"both\"],\"tags\":[],\"description\":[\"both\",\"return\",\"json\"]},\"oauth\":{\"name\":[\"oauth\"],\"title\":[\"oauth\"],\"path\":[\"oauth\"],\"tags\":[],\"description\":[\"oauth\",\"return\",\"json\"]},\"oidc\":{\"name\":[\"oidc\"],\"title\":[\"oidc\"],\"path\":[\"oidc\"],\"tags\":[],\"description\":[\"oidc\",\"return\",\"json\"]}}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
