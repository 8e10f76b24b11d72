/**
 * The vocabulary bridge between a person's words and an API's, kept small and general, none
 * tied to one API (each was measured on every evaluation set, bench/results/search.md):
 *
 * - GROUPS: words that tasks and specs use for the same thing, either way round;
 * - BRIDGES: an everyday word and the words APIs use for it, one way only: a task's "mail" may
 *   mean an API's `message`, but a task's "message" (a chat's, an SMS) is not mail. The API
 *   side of common idioms is here too: AWS's `Describe*` is a list, OData's `delta` is change
 *   tracking (idioms.ts adds the everyday words to such paths; this finds the API's word from
 *   the task's).
 *
 * A synonym or bridge counts for less than the word itself (rank.ts). What an API says in its
 * own text (tags, summaries, descriptions) is read by the ranker's fields directly.
 */
import { stem } from "./stem.js";

const GROUPS = [
  "image picture photo pic",
  "movie film",
  "email mail",
  "song track",
  "car vehicle",
  "cost price",
];

/**
 * Words that name a span of time in a short phrase: such a phrase asks for a range (intent.ts),
 * and the API's text says "time range" or "date range" where a person says "this week".
 */
export const TIME_WORDS: ReadonlySet<string> = new Set(
  "today tonight tomorrow yesterday week weekend month between since until upcoming monday tuesday wednesday thursday friday saturday sunday".split(
    " ",
  ),
);

/** [everyday words, the API words they may mean]. */
const BRIDGES: [string, string][] = [
  ["mail email inbox", "message"],
  // Twilio, Vonage, Plivo and MessageBird all call a text message a message.
  ["sms", "message"],
  ["meeting appointment", "event"],
  ["remove erase", "delete"],
  ["add new make", "create"],
  ["list", "describe"],
  ["changes changed", "delta"],
  ["download", "content"],
  ["people person", "user"],
  // "add someone to a project", "invite a teammate": a person an API keeps as a member or user.
  ["someone somebody teammate colleague", "member user"],
  ["rename", "update"],
  // Mailchimp's and Mailgun's list members are what a person calls subscribers.
  ["belong belongs subscriber subscribers", "member"],
  ["next", "upcoming"],
  ["scheduled recurring", "cron"],
  ["notify notified", "subscription webhook"],
  ["move", "transition"],
  [[...TIME_WORDS].join(" "), "range"],
];

/**
 * [verbs, the API words they may mean], only as the verb that starts a short phrase: sharing a
 * thing with a person is a collaboration (Box, Dropbox) or a permission (Google Drive, Graph)
 * on it, but "a shared link" is the API's own word.
 */
const LEAD_BRIDGES: [string, string][] = [["share", "collaboration collaborator permission"]];

const SYNONYMS = new Map<string, string[]>();
const LEAD_BRIDGED = new Map<string, string[]>();
const BRIDGED = new Map<string, string[]>();
const add = (map: Map<string, string[]>, term: string, others: string[]) => {
  const known = map.get(term) ?? [];
  map.set(term, [...known, ...others.filter((other) => other !== term && !known.includes(other))]);
};
for (const group of GROUPS) {
  const stems = group.split(" ").map(stem);
  for (const term of stems) add(SYNONYMS, term, stems);
}
for (const [everyday, api] of BRIDGES) {
  const targets = api.split(" ").map(stem);
  for (const word of everyday.split(" ")) add(BRIDGED, stem(word), targets);
}

for (const [verbs, api] of LEAD_BRIDGES) {
  const targets = api.split(" ").map(stem);
  for (const word of verbs.split(" ")) add(LEAD_BRIDGED, stem(word), targets);
}

/**
 * The other stems a stem may stand for, or none. The bridges only for a short phrase: a long
 * task names enough of the API's own words, and there they cost recall (-0.003 to -0.005 on
 * StableToolBench G1, bench/results/search.md); a verb's (LEAD_BRIDGES) only for the stem of
 * the word the phrase starts with (`lead`).
 */
export function findSynonyms(term: string, short = true, lead = false): readonly string[] {
  const own = SYNONYMS.get(term) ?? [];
  const bridged = short
    ? [...(BRIDGED.get(term) ?? []), ...(lead ? (LEAD_BRIDGED.get(term) ?? []) : [])]
    : [];
  return bridged.length === 0 ? own : [...own, ...bridged.filter((other) => !own.includes(other))];
}
