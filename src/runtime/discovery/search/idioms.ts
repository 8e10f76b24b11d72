/**
 * What an API's path idioms do, in the words a person uses for it. A path says `$count`, `$ref`,
 * `delta()` or `#Action=DescribeInstances`; a task says "how many", "add a member", "track
 * changes" or "list instances". Each idiom found in a path adds these words to the operation's
 * path field (fields.ts), so the task's own words find it:
 *
 * - OData (Microsoft Graph, SAP, Dynamics): `$count` counts, `$ref` links one entity to another
 *   (POST adds a member or owner, DELETE removes the link), `$value` is the raw content (GET
 *   downloads it, PUT uploads it), `delta` returns what changed since the last call, and a
 *   function or action segment (`microsoft.graph.reply`) names what it does (its namespace is
 *   dropped by splitPathWords);
 * - JSON:API: `/relationships/x` is the link to x (RFC-like "relationship link");
 * - a `content` segment is an item's bytes, the file (Graph's drive items, GitHub's `contents`);
 * - AWS query APIs: `Action=DescribeX` lists or reads X (`Describe*` is AWS's list and get);
 * - the signed-in user's own path (`/me`, `/user`) is their profile.
 *
 * Only what a path's idiom says for certain is added; an API's own nouns are left to the
 * vocabulary bridge (synonyms.ts).
 */

/**
 * Words for a segment of a path, by the segment lower-cased (OData system segments, delta). The
 * same for every method: which of "add" or "remove", "download" or "upload" the task means is
 * the intent's to weigh against the method (intent.ts).
 */
const SEGMENT_WORDS: Record<string, string[]> = {
  $count: ["count", "number", "total"],
  $ref: ["link", "add", "remove", "assign"],
  $value: ["content", "raw", "download", "upload"],
  delta: ["changes", "track", "sync", "incremental"],
  relationships: ["link", "relationship"],
  // The bytes of an item, OData or not (`/drives/{id}/items/{id}/content`, GitHub's
  // `/repos/{owner}/{repo}/contents/{path}`): what a person calls the file. (Not "download", as
  // `$value` has: then a drive's content outranked a message's `$value` for "download a message".)
  content: ["file"],
  contents: ["file"],
};

/**
 * The signed-in user's own path (`/me`, GitHub's `/user`, `/users/me`, `/self`): what a person
 * calls their profile. Its own words say nothing of it ("me" is no term; "user" is in thousands
 * of operations), so "my profile" found every operation with a profile photo or profile setting
 * first.
 */
const SELF_ROOT = /^\/(me|self|myself|user|users\/me|whoami|current_?user)\/?$/i;
const SELF_ROOT_WORDS = ["profile"];

/** The words of AWS query actions' verbs that mean another everyday verb too. */
const ACTION_VERBS: Record<string, string[]> = {
  describe: ["list", "get"],
};

/** The idioms' words for an operation's path (none when it has no idiom). */
export function readIdiomWords(path: string): string[] {
  const words: string[] = [];
  for (const raw of path.split("/")) {
    if (raw === "" || raw.startsWith("{")) continue;
    // `microsoft.graph.delta()` and `delta(token='{token}')` are the delta segment too.
    const segment = raw
      .toLowerCase()
      .replace(/\(.*$/, "")
      .replace(/^([a-z0-9_]+\.)+/, "");
    const add = SEGMENT_WORDS[segment];
    if (add !== undefined) words.push(...add);
  }
  if (SELF_ROOT.test(path)) words.push(...SELF_ROOT_WORDS);
  const action = /[#?&]Action=([A-Z][a-z]+)/.exec(path);
  const verb = action?.[1]?.toLowerCase();
  if (verb !== undefined) words.push(...(ACTION_VERBS[verb] ?? []));
  return words;
}
