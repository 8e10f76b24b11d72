/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":5,\"terms\":\"thing process exit 23 24 evil tag 27 id 30 header return 25 26 quot exampl 29 28 31 32 constructor 16 17 21 proto bodi naïve child extra properti whose name close comment index tool modul taken delet data content con window devic read kebab case differ 2\",\"docs\":{\"getThing_process_exit_23\":\"0 1 2 3|0 1 2 4|0|5 6 1 2 7|8 1 2 9 5 a|0 1 2 4 b 0 1 2 c 1 2 d e e f 8 1 2 g 8 1 2 h 1 2 i 1 2 j||459480b40d02\",\"constructor\":\"k|k|0||1 2 l 1 2 m 1 2 n o p k p q r s t|k t u v w x t v o||1f6d9137d2ef\",\"index\":\"y|z u 10 v 11 z y|0 y|||z u 10 v 11 z y 12 13 b 14||158487dacec1\",\"CON\":\"15|16 17 v|0 15|||16 17 v 18||38fe6a929b20\",\"get_thing\":\"0|10 v 0 19 1a|0 0|||10 v 0 19 1a 18||afb27031491a\",\"Get-Thing\":\"0|10 v 1b 1a|0 0 1c|||10 v 1b 1a 18||6fc71a8dc4a8\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
