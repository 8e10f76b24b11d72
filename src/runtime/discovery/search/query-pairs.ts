/**
 * The word pairs of a task that the phrase factor looks for in an operation's fields (rank.ts):
 * each two terms in a row, stop words left out ("list of users" gives "list user"), in the
 * task's order.
 *
 * "me" is the API's user in a pair ("authenticate me": "authent user"), as the self intent
 * reads `/user` and `/me` paths as the person's (intent.ts): an API names the person who calls
 * it the user (`authenticateUser`, `notifyUser`), never "me". Without it the task
 * "... authenticate me ..." had no pair for ToolAlpaca's `authenticateUser`, which fell behind
 * operations paired only by the task's incidental words (an email address's domain,
 * "Facebook account, using my email": "account email"). "my" is not read so: "my email",
 * "my friend" describe what is the user's, not the user (read as "user" too, Graph v1.0's
 * everyday phrases lost MRR). A term next to itself ("user user") is no pair.
 */
import { toTerms } from "./tokenize.js";

/** The term the person's "me" stands for in a pair. */
const SELF_TERM = "user";

/** The pairs of a task's words (splitWords of its text). */
export function readQueryPairs(words: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  let previous: string | undefined;
  for (const word of words) {
    const [term] = word === "me" ? [SELF_TERM] : toTerms([word]);
    if (term === undefined) continue;
    if (previous !== undefined && previous !== term) pairs.add(`${previous} ${term}`);
    previous = term;
  }
  return pairs;
}
