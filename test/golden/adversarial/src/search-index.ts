/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":3,\"terms\":\"thing process exit 23 24 evil tag 27 id 30 header return 25 26 quot object 28 31 32 constructor 16 17 21 proto bodi naïve child content properti whose name close comment index tool modul taken delet data con window devic read kebab case differ 2\",\"docs\":{\"getThing_process_exit_23\":\"0 1 2 3|0 1 2 4|0|5 6 1 2 7|8 1 2 9 5 a|0 1 2 4 b 0 1 2 c 1 2 d e e b f 8 1 2 g 1 2 h 1 2 i|17185b16ee5c\",\"constructor\":\"j|j|0||1 2 k 1 2 l 1 2 m n o j o p q|j b r s t u v w s u n|c8c105f9e33b\",\"index\":\"x|y t z u 10 y x|0 x|||y t z u 10 y x 11 12 b r|5af04c87b507\",\"CON\":\"13|14 15 u|0 13|||14 15 u 16 b r|164ef9386840\",\"get_thing\":\"0|z u 0 17 18|0 0|||z u 0 17 18 16 b r|42fa798ee696\",\"Get-Thing\":\"0|z u 19 18|0 0 1a|||z u 19 18 16 b r|834da0c28f2a\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
