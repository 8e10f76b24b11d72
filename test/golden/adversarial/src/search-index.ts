/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":4,\"terms\":\"thing process exit 23 24 evil tag 27 id 30 header return 25 26 quot object 28 31 32 constructor 16 17 21 proto bodi naïve child extra properti content whose name close comment index tool modul taken delet data con window devic read kebab case differ 2\",\"docs\":{\"getThing_process_exit_23\":\"0 1 2 3|0 1 2 4|0|5 6 1 2 7|8 1 2 9 5 a|0 1 2 4 b 0 1 2 c 1 2 d e e b f 8 1 2 g 1 2 h 1 2 i|17185b16ee5c\",\"constructor\":\"j|j|0||1 2 k 1 2 l 1 2 m n o j o p q r s|j b t s u v w x s v n|ea5de9ed8037\",\"index\":\"y|z u 10 v 11 z y|0 y|||z u 10 v 11 z y 12 13 b t|5af04c87b507\",\"CON\":\"14|15 16 v|0 14|||15 16 v 17 b t|164ef9386840\",\"get_thing\":\"0|10 v 0 18 19|0 0|||10 v 0 18 19 17 b t|42fa798ee696\",\"Get-Thing\":\"0|10 v 1a 19|0 0 1b|||10 v 1a 19 17 b t|834da0c28f2a\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
