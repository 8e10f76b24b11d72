/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":2,\"terms\":\"thing process exit 23 24 evil tag 27 id 30 header return 25 26 quot object exampl 29 error 404 28 31 32 constructor 16 17 21 proto bodi naïve child content properti whose name close comment index tool modul taken delet data con window devic read kebab case differ 2\",\"docs\":{\"getThing_process_exit_23\":\"0 1 2 3|0 1 2 4|0|5 6 1 2 7|8 1 2 9 5 a|0 1 2 4 b 0 1 2 c 1 2 d e e b f g 8 1 2 h i j 8 1 2 k 1 2 l 1 2 m\",\"constructor\":\"n|n|0||1 2 o 1 2 p 1 2 q r s n s t u|n b v w x y z 10 w y r\",\"index\":\"11|12 x 13 y 14 12 11|0 11|||12 x 13 y 14 12 11 15 16 b v\",\"CON\":\"17|18 19 y|0 17|||18 19 y 1a b v\",\"get_thing\":\"0|13 y 0 1b 1c|0 0|||13 y 0 1b 1c 1a b v\",\"Get-Thing\":\"0|13 y 1d 1c|0 0 1e|||13 y 1d 1c 1a b v\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
