/**
 * The search index of the tools (discovery mode: `--mode discovery`, or `auto` on a large API),
 * built by openapi-mcp-bridge at generation. Generate again to rebuild it.
 */
import type { SearchIndexNode } from "./model/types.js";

/** The index as JSON text. */
export const searchIndexJson = "{\"version\":5,\"terms\":\"list thing v2 beta fine return content dot space slash complet organ project regist widget current long exactli 64 clash name 833434 on two id part requir post creat\",\"docs\":{\"listThings_v2-beta\":\"0 1 2 3|0 1 2 3|4|||0 1 2 3 5 6||e42c611a9678\",\"things_list\":\"1 0|1 0|7|||1 0 5 6||abefe5da9171\",\"list_all_things\":\"0 1|0 1|8|||0 1 5 6||2077fd7051c8\",\"things_list_7a47cb\":\"1 0|1 0|9|||1 0 5 6||480f70110218\",\"retrieveTheCompleteListOfAll_OrganizationAndProjectA_3a8cc11b\":\"a 0 b c|a 0 d e f|g|||a 0 d e f b c 5 6||ea86b7d1c97d\",\"retrieveTheCompleteListOfAll_OrganizationAndProjectB_9ca6fda7\":\"a 0 b c|a 0 d e f|g|||a 0 d e f b c 5 6||45d340739fd0\",\"a234567890123456789012345678901234567890123456789012345678901234\":\"||h i|||5 6||64bb725cb2a8\",\"clash_name_833434\":\"j k l|j k|j m|||j k 5 6||3976d76cc5e0\",\"clash_name\":\"j k|j k|j n|||j k 5 6||04820230010a\",\"get_no-id_by_widgetId_parts\":\"o e o p|o e o p|o p||e o|0 p 5 6 q e o||ea6d5c1f55cf\",\"post_no-id_by_widgetId_parts\":\"r o e o p|r o e o p|o p||e o|s p 5 6 q e o||32a1e4d55b61\",\"get_no-id_widgets_parts\":\"o e p|o e p|o e p|||0 p 5 6||03c40f1d6135\"}}";

/** The index, parsed once at start. */
export const searchIndex: SearchIndexNode = JSON.parse(searchIndexJson) as SearchIndexNode;
