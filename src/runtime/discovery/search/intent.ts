/**
 * What a task asks beyond its words' letters, and what an operation does beyond its text:
 *
 * - the action: "create", "list", "get", "update", "delete", "count" and their synonyms in the
 *   task; the HTTP method and the path's shape (a collection `/pets`, an item `/pets/{id}`)
 *   for the operation;
 * - "my" / "me": the current user's operations (`/me/...`, `/user/...`, `/users/me`, `/self`);
 * - the resource: the last fixed segment of the path (`messages` in `/me/mailFolders/{id}/messages`),
 *   so a task that names a collection finds the collection before its sub-resources.
 */
import type { ToolNode } from "../../../model/types.js";
import { stem } from "./stem.js";
import { TIME_WORDS } from "./synonyms.js";
import { isNoise, SELF_WORDS, splitPathWords, splitWords, toTerms } from "./tokenize.js";

/**
 * `apply`: a word of the API used as the verb that starts a short phrase ("fork a repository",
 * "bookmark the page", "reboot a droplet"): the operation that creates or applies one, a POST or
 * PUT (startsWithVerb). `change`: a state the thing is put in ("turn on a feature flag", "archive
 * a flag", "close an issue"): an update of it, or an action on it (a POST to the item).
 */
export type Action = "create" | "list" | "read" | "update" | "delete" | "count" | "apply" | "change";

const ACTION_WORDS: Record<string, Action> = {};
const addActions = (action: Action, words: string) => {
  for (const word of words.split(" ")) ACTION_WORDS[word] = action;
};
addActions(
  "create",
  "create creates creating add adds adding new make register insert submit upload post publish",
);
addActions("list", "list lists listing all every browse enumerate");
addActions(
  "read",
  "get gets fetch fetches retrieve retrieves show shows view read see look lookup display check find finds obtain details detail info information",
);
addActions(
  "update",
  "update updates updating modify change changes edit set rename patch replace mark marks toggle",
);
addActions(
  "delete",
  "delete deletes deleting remove removes removing destroy erase purge unsubscribe revoke",
);
addActions("count", "count counts");

/**
 * Verbs that make the API do something, a POST as creating is; read as actions in a short
 * phrase only ("trigger a workflow"): a long task says "send me" and "run into" as often.
 */
const SHORT_ACTION_WORDS: Record<string, Action> = {};
for (const word of "schedule trigger run launch execute invoke dispatch send reply forward".split(" "))
  SHORT_ACTION_WORDS[word] = "create";

/**
 * Verbs of a state change, read in a short phrase only: the API updates the thing
 * (LaunchDarkly's PATCH of a flag for "turn on a flag") or has an action for it (GitLab's
 * `POST /projects/{id}/archive`), never creates one or reads it.
 */
const STATE_WORDS = new Set(
  "enable disable activate deactivate reactivate archive unarchive close reopen pause unpause resume suspend unsuspend lock unlock".split(
    " ",
  ),
);

/** Verbs that say a state change with the particle after them ("turn on", "shut down"). */
const PHRASAL_STATES: Record<string, ReadonlySet<string>> = {
  turn: new Set(["on", "off"]),
  switch: new Set(["on", "off"]),
  power: new Set(["on", "off"]),
  shut: new Set(["down", "off"]),
};

/** The phrase starts with a phrasal verb of a state change: the number of its words, or 0. */
function countPhrasalState(words: readonly string[]): number {
  return PHRASAL_STATES[words[0] ?? ""]?.has(words[1] ?? "") === true ? 2 : 0;
}

function isStateWord(words: readonly string[], i: number): boolean {
  return STATE_WORDS.has(words[i]!) && !isNounByPlace(words, i);
}

/**
 * Words that are nouns as often as verbs, read as a POST when they start a short phrase, the
 * imperative ("open an issue", "comment on a post", "tag a resource", "refund a charge",
 * "invite a user", "reply to a message").
 */
const IMPERATIVE_WORDS = new Set("open comment post tag label book order refund invite reply".split(" "));

/**
 * Words that start a phrase as a verb ahead of its object ("fork a repository", "bookmark the
 * page"): splitWords drops "a", so the query's own text is read.
 */
const VERB_THEN_OBJECT =
  /^\s*(\p{L}+)\s+(?:a|an|the|this|that|these|those|some|every|each|my|our|your|their|its|another)\s+(\p{L}+)/u;

/** Words that read (a search), whatever follows them: never the verb of a POST. */
const READING_VERBS = new Set(["search", "query", "lookup", "browse", "download"]);

/**
 * A short phrase that starts with a word of the API as its verb ("fork a repository", "star a
 * repository", "bookmark a page", "reboot a droplet": a noun of its paths or a value of a body's
 * action field, body-actions.ts), where no word of ACTION_WORDS or its likes says what to do (nor
 * IMPERATIVE_WORDS, which need no determiner after them): the person
 * asks the API to do it, a POST or PUT that creates or applies one. Not a plural ("events this
 * week" names things, not an act), not before a time word, not a word the vocabulary bridges
 * (`download`: content, `move`: transition).
 */
export function startsWithVerb(
  query: string,
  knows: (term: string) => boolean,
  bridged: (term: string) => boolean,
): boolean {
  const match = VERB_THEN_OBJECT.exec(query);
  if (match === null) return false;
  const word = match[1]!.toLowerCase();
  const next = match[2]!.toLowerCase();
  if (
    ACTION_WORDS[word] !== undefined ||
    SHORT_ACTION_WORDS[word] !== undefined ||
    IMPERATIVE_WORDS.has(word) ||
    STATE_WORDS.has(word) ||
    READING_VERBS.has(word) ||
    REQUEST_VERBS.has(word) ||
    isNoise(word) ||
    TIME_WORDS.has(next) ||
    /[^s]s$/.test(word)
  )
    return false;
  const term = stem(word);
  return knows(term) && !bridged(term);
}

/** Words before "me" that make it the object of a request ("tell me"), not the current user. */
const REQUEST_VERBS = new Set(
  "tell give show help let send provide fetch get find bring remind email notify text call ask for to with".split(
    " ",
  ),
);

export interface QueryIntent {
  /** The actions the task names; empty when it names none (then reading is likeliest). */
  actions: Set<Action>;
  /** The task is about the current user ("my messages", "about me"). */
  self: boolean;
  /** Stems of the words right after "my" ("messages" in "my messages"): what the user has. */
  owned: Set<string>;
  /** The task names something by its name ("Titanic", "'Naruto'"): it may need a search first. */
  named: boolean;
  /**
   * Stems of the first thing the task names outside a prepositional phrase: what it asks for
   * ("users" in "all users in the organization").
   */
  targets: Set<string>;
  /**
   * Stems of the things named after "in", "of", "from"...: where what it asks for lives
   * ("organization" in "all users in the organization"), a container, not the answer.
   */
  containers: Set<string>;
  /** A short phrase (at most SHORT_QUERY_WORDS words that are not noise), not a long task. */
  short: boolean;
  /** A short phrase that names a time span ("this week", "since Monday"): a range is asked for. */
  timed: boolean;
  /**
   * A short phrase that says which of the things it asks for ("issues assigned to me"): a
   * search or a filter is likelier the answer than one of them.
   */
  filtered: boolean;
  /**
   * Stems of the participles that say which ("assign" in "issues assigned to me"), in a filtered
   * phrase: an operation named for doing that (`assignIssue`) is not the one that finds them.
   */
  qualifiers: Set<string>;
  /**
   * A short phrase's first word as written ("attach" in "attach a volume to a server"), where
   * the task says what to do; "" otherwise. Not stemmed: "attachments of an email" names no
   * action.
   */
  lead: string;
}

/** The most words that are not noise a short phrase has ("all users in the organization": 2). */
export const SHORT_QUERY_WORDS = 6;

/**
 * Words after which an action word is a noun ("a card on a list", "the new group", "my
 * lists"): the thing named, not what to do with it. splitWords drops "a", so its prepositions
 * and the other determiners stand in for it.
 */
const NOUN_MARKERS = new Set("the an this that these those each another its their your our my".split(" "));

/** Words after "by" that name the thing's identifier: reading one by it is no search. */
const ID_WORDS = new Set(["id", "ids", "identifier", "uuid", "key", "gid"]);

/** Words that start a phrase naming where the task's object is, not the object. */
const PREPOSITIONS = new Set("in of from for within inside on at under across into per by".split(" "));

/**
 * A quoted value, or a capitalised word that does not start a sentence. No opening quote may
 * stand inside the quoted value: each attempt then stops at the next quote, so a run of quotes
 * is read in linear time (a value that may hold them backtracks over the rest of the text at
 * every one).
 */
const NAMED = /["'\u201c][^"'\u201c\u201d]{2,}["'\u201d]|[^.!?\s]\s+(?!I\b)\p{Lu}\p{Ll}/u;

export function hasName(query: string): boolean {
  return NAMED.test(query);
}

/**
 * The first person ("groups I belong to", "can I create pods"): a word of one letter, which
 * splitWords drops, so it is read from the query's text.
 */
const FIRST_PERSON = /(^|[^\p{L}\p{N}'.])i('m|'ve)?(?=$|\.(?!\p{L})|[^\p{L}\p{N}'.])/iu;

export function hasFirstPerson(query: string): boolean {
  return FIRST_PERSON.test(query);
}

export function readQueryIntent(words: readonly string[], named = false, firstPerson = false): QueryIntent {
  const actions = new Set<Action>();
  const owned = new Set<string>();
  let self = false;
  // The next word that is not noise, for each position, found in one pass from the end (a
  // search from each "my" would read the rest of the words again at every one).
  const nextMeaningful: (string | undefined)[] = new Array(words.length);
  let next: string | undefined;
  for (let i = words.length - 1; i >= 0; i--) {
    nextMeaningful[i] = next;
    if (!isNoise(words[i]!)) next = words[i];
  }
  const targets = new Set<string>();
  const containers = new Set<string>();
  let filtered = false;
  const qualifiers = new Set<string>();
  // "add a registrant to a webinar", "send a message to a channel": after the thing a phrase
  // that starts by adding or sending names, "to" says where it goes. Elsewhere "to" starts a
  // verb as often ("ask someone to review", "track changes to users", "how to ...").
  const first = words[0] ?? "";
  const puts = ACTION_WORDS[first] === "create" || SHORT_ACTION_WORDS[first] === "create";
  // What the last word that names something was: "target" right after the thing asked for.
  let after: "start" | "preposition" | "target" | "other" = "start";
  // "turn on a flag": the particle is the verb's, not a preposition before a place.
  const phrasal = countPhrasalState(words);
  for (let i = phrasal; i < words.length; i++) {
    const word = words[i]!;
    // "number of X", "list of X": X is what is asked for, not a container.
    if ((word === "number" || word === "list") && words[i + 1] === "of") {
      i++;
      continue;
    }
    // "a customer by email", "files by name": the thing asked for found by one of its fields
    // (not by its id: that is the one read), as a filtered phrase is.
    if (word === "by" && after === "target" && !ID_WORDS.has(nextMeaningful[i] ?? "id")) filtered = true;
    // "search for tracks", "look for a user": a first word that "for" follows is the verb, and
    // what follows "for" the thing asked for, not a container.
    if (i === 0 && words[1] === "for") {
      i++;
      continue;
    }
    if (PREPOSITIONS.has(word) || (word === "to" && puts && targets.size > 0)) after = "preposition";
    else if (
      isNoise(word) ||
      (ACTION_WORDS[word] !== undefined && !isNounByPlace(words, i)) ||
      (i === 0 && isStateWord(words, i))
    )
      continue;
    else {
      const qualifies = after === "target" && isParticiple(word);
      if (qualifies) {
        filtered = true;
        qualifiers.add(stem(word));
      }
      if (after === "preposition" || qualifies) containers.add(stem(word));
      else if (targets.size === 0) {
        targets.add(stem(word));
        after = "target";
        continue;
      }
      after = "other";
    }
  }
  for (const target of targets) containers.delete(target);
  // A long task (several steps, many nouns) names places and values as often as collections:
  // the container rule is for a short phrase, where it measured well (bench/results/search.md).
  let meaningful = 0;
  for (const word of words) if (!isNoise(word)) meaningful++;
  const short = meaningful <= SHORT_QUERY_WORDS;
  if (!short) containers.clear();
  words.forEach((word, i) => {
    const action = isNounByPlace(words, i)
      ? undefined
      : (ACTION_WORDS[word] ??
        (short
          ? (SHORT_ACTION_WORDS[word] ?? (i === 0 && IMPERATIVE_WORDS.has(word) ? "create" : undefined))
          : undefined));
    if (action !== undefined) actions.add(action);
    if ((word === "many" && words[i - 1] === "how") || (short && word === "number" && words[i + 1] === "of"))
      actions.add("count");
    // "who am I" (its "I" is too short a word to be read): the current user.
    if (word === "who" && words[i + 1] === "am") self = true;
    if (SELF_WORDS.has(word) && (word !== "me" || i === 0 || !REQUEST_VERBS.has(words[i - 1]!))) {
      self = true;
      const owner = nextMeaningful[i];
      if (word === "my" && owner !== undefined) owned.add(stem(owner));
    }
  });
  // "I" in a short phrase is the current user ("files I shared"); a long task's "I" is the
  // person asking, who wants something of the world more often than of their account.
  if (firstPerson && short) self = true;
  if (short && (phrasal > 0 || (words.length > 0 && isStateWord(words, 0)))) actions.add("change");
  const timed = short && words.some((word) => TIME_WORDS.has(word));
  if (!short) qualifiers.clear();
  return {
    actions,
    self,
    owned,
    named,
    targets,
    containers,
    short,
    timed,
    filtered: filtered && short,
    qualifiers,
    // A plural ("attachments of an email") names things, not what to do with them.
    lead: short && !isNoise(first) && !/[^s]s$/.test(first) ? first : "",
  };
}

/**
 * A past participle ("assigned", "shared", "starred"): right after the thing asked for, it says
 * which of them ("issues assigned to me", "files shared with me"), as a place does, not what.
 */
function isParticiple(word: string): boolean {
  return word.length > 4 && word.endsWith("ed") && !word.endsWith("eed");
}

/** The word stands where a noun does: after a preposition or a determiner. */
function isNounByPlace(words: readonly string[], i: number): boolean {
  const before = words[i - 1];
  return before !== undefined && (PREPOSITIONS.has(before) || NOUN_MARKERS.has(before));
}

export interface OperationShape {
  method: string;
  /** The path ends with a parameter: one item (`/pets/{id}`). */
  item: boolean;
  /** A path of the current user. */
  self: boolean;
  /** The stem of the path's last fixed word, or "". */
  resource: string;
  /**
   * Stems of the fixed words before the resource's segment (`board` in `/boards/{id}/cards`):
   * what the resource lives in.
   */
  parents: readonly string[];
  /** Fixed segments of the path, its prefix and version (`api`, `v2`) not counted. */
  depth: number;
  /**
   * Fixed segments before the path's last parameter (1 for `/volumes/{id}/actions/attach`), 0
   * without one: the depth of the item a segment after it acts on.
   */
  itemDepth: number;
  /**
   * The path's last fixed segment as written, lower case, without a namespace or call
   * parentheses (`attach`, Graph's `microsoft.graph.cancel` → `cancel`; `getSchedule` stays whole).
   */
  lastWord: string;
  /** A count operation (`/$count`, `/count`). */
  count: boolean;
  /** Finds things by words or name: `search` / `find` / `lookup` in its name or path, or a `q` argument. */
  finds: boolean;
  /**
   * Reads within a time span: a query parameter such as `startDateTime`, `end_date`, `since` or
   * `until` (Graph's calendarView, GitHub's `since`).
   */
  spans: boolean;
  /**
   * An administrator's operation: the path starts with `admin` (Slack's `/admin.usergroups.
   * listChannels`, Graph's `/admin/sharepoint`, GitHub Enterprise's `/admin/hooks`).
   */
  admin: boolean;
  /**
   * Terms of the API or part of one the operation belongs to: its first tag, a trailing version
   * left out (`Demo Project_v12` → `demo project`: versions of one API are one), [] untagged.
   * Read by the named-API factor and the multi-request re-ranking (rank.ts, requests.ts).
   */
  group: readonly string[];
}

/**
 * An argument's words that bound a time span alone ("after" and "before" alone are page cursors
 * as often), and those that do beside a date or time word.
 */
const SPAN_ALONE = new Set(["since", "until"]);
const SPAN_BOUNDS = new Set(["start", "end", "from", "to", "min", "max"]);
const SPAN_UNITS = new Set(["date", "time", "datetime", "day", "timestamp"]);

/**
 * Memos of the per-name and per-path readings: a huge API repeats the same parameter names
 * (`$select`, `startDateTime`) and path prefixes on thousands of operations. Emptied when full.
 */
const MAX_MEMO = 20_000;
const spanMemo = new Map<string, boolean>();
const parentsMemo = new Map<string, readonly string[]>();

function remember<T>(memo: Map<string, T>, key: string, make: (key: string) => T): T {
  const known = memo.get(key);
  if (known !== undefined) return known;
  if (memo.size >= MAX_MEMO) memo.clear();
  const value = make(key);
  memo.set(key, value);
  return value;
}

function isSpanArgument(name: string): boolean {
  return remember(spanMemo, name, readSpanArgument);
}

function readParents(prefix: string): readonly string[] {
  return splitPathWords(prefix).map(stem);
}

function readSpanArgument(name: string): boolean {
  const words = splitWords(name);
  if (words.length === 1) return SPAN_ALONE.has(words[0]!);
  return (
    words.some((word) => SPAN_BOUNDS.has(word) || SPAN_ALONE.has(word)) &&
    words.some((word) => SPAN_UNITS.has(word))
  );
}

const SELF_SEGMENTS = new Set([
  "me",
  "self",
  "myself",
  "my",
  "current",
  "currentuser",
  "current_user",
  "mine",
  "whoami",
]);

/** Segments that act on the resource before them (OData's system segments, delta). */
const IDIOM_SEGMENT = /^(\$count|\$ref|\$value|([a-z0-9_]+\.)*delta(\(.*\))?)$/i;

/** Segments that name no resource: an API's prefix and version (`/api/v2/...`). */
const PREFIX_SEGMENT = /^(api|apis|rest|v\d+(\.\d+)*)$/i;

const NO_PARENTS: readonly string[] = [];

/** Fixed segments (prefix and version not counted) before the path's last parameter. */
function countItemDepth(segments: readonly string[]): number {
  const before = segments.slice(
    0,
    Math.max(
      segments.findLastIndex((s) => s.startsWith("{")),
      0,
    ),
  );
  return before.filter((s) => !s.startsWith("{") && !PREFIX_SEGMENT.test(s)).length;
}

export function readOperationShape(tool: ToolNode): OperationShape {
  const segments = tool.http.path.split("/").filter((segment) => segment !== "");
  const fixed = segments.filter((segment) => !segment.startsWith("{"));
  const first = segments[0]?.toLowerCase() ?? "";
  const second = segments[1]?.toLowerCase() ?? "";
  const self =
    fixed.some((segment) => SELF_SEGMENTS.has(segment.toLowerCase())) ||
    // GitHub-style: /user/repos is the current user's, /users/{username}/repos anyone's.
    (first === "user" && !second.startsWith("{")) ||
    ((first === "users" || first === "accounts") && (second === "me" || second === "self"));
  const last = fixed.at(-1)?.toLowerCase() ?? "";
  // `/users/$count`, `/groups/{id}/members/$ref`, `/users/delta()`: the idiom acts on the
  // collection before it, which is what the task names.
  const named = fixed.filter((segment) => !IDIOM_SEGMENT.test(segment));
  const words = splitPathWords(named.at(-1) ?? "");
  const parents =
    named.length > 1 ? remember(parentsMemo, named.slice(0, -1).join("/"), readParents) : NO_PARENTS;
  return {
    method: tool.http.method,
    item: segments.at(-1)?.startsWith("{") === true,
    self,
    resource: words.length > 0 ? stem(words.at(-1)!) : "",
    parents,
    depth: fixed.filter((segment) => !PREFIX_SEGMENT.test(segment)).length,
    itemDepth: countItemDepth(segments),
    lastWord: (named.at(-1) ?? "").replace(/\(.*$/, "").split(".").at(-1)!.toLowerCase(),
    count: last === "$count" || last === "count",
    finds:
      /(^|[^a-z])(search|find|lookup|query)/i.test(
        `${tool.name} ${tool.http.path}`.replace(/([a-z])([A-Z])/g, "$1 $2"),
      ) || readArgumentNames(tool).some((name) => /^(q|query|keyword|keywords|search|term)$/i.test(name)),
    admin: /^admin(?:$|[^a-z])/i.test(fixed.find((segment) => !PREFIX_SEGMENT.test(segment)) ?? ""),
    group: readGroup(tool.tags[0] ?? ""),
    // A query parameter of a read: a body's start and end (an event being created) are data.
    spans:
      tool.http.method === "get" &&
      tool.http.parameters.some(
        (p) => p.in === "query" && p.constant === undefined && isSpanArgument(p.name),
      ),
  };
}

const groupMemo = new Map<string, readonly string[]>();

function readGroup(tag: string): readonly string[] {
  return remember(groupMemo, tag, readGroupTerms);
}

function readGroupTerms(tag: string): readonly string[] {
  const terms = toTerms(splitWords(tag));
  while (terms.length > 1 && /^v\d+$/.test(terms.at(-1)!)) terms.pop();
  return terms;
}

/** How well the operation's method and shape fit the actions of the task: 1 fits, 0 neutral, -1 contradicts. */
export function matchAction(intent: QueryIntent, shape: OperationShape): number {
  const { actions } = intent;
  const method = shape.method;
  // No action word: reading is what most tasks ask, and one item needs its id, which a task
  // naming no item lacks.
  if (actions.size === 0) return method === "get" ? (shape.item ? 0.3 : 0.5) : 0;
  // A search reads whatever its method ("find a customer by email": Square's POST
  // /v2/customers/search), as its filtered phrase asks.
  if (intent.filtered && shape.finds && (actions.has("read") || actions.has("list"))) return 1;
  let fit = -1;
  for (const action of actions) {
    switch (action) {
      case "create":
        if (method === "post") return 1;
        // "add a member to a board": a PUT of the thing into the place's set of them adds it as
        // a POST would (Trello's `PUT /boards/{id}/members`, GitHub's collaborators).
        if (method === "put" && putsInto(intent, shape)) return 1;
        if (method === "put") fit = Math.max(fit, 0);
        break;
      case "list":
        if (method === "get" && !shape.item) return 1;
        if (method === "get") fit = Math.max(fit, 0);
        break;
      case "read":
        if (method === "get") return 1;
        if (method === "post") fit = Math.max(fit, 0);
        break;
      case "update":
        if (method === "patch" || method === "put") return 1;
        if (method === "post") fit = Math.max(fit, 0);
        break;
      case "delete":
        if (method === "delete") return 1;
        if (method === "post") fit = Math.max(fit, 0);
        break;
      case "count":
        if (shape.count) return 1;
        if (method === "get") fit = Math.max(fit, 0);
        break;
      case "change":
        if (method === "patch" || method === "put") return 1;
        // A POST named for the verb (`/projects/{id}/archive`, `/actions/pause-all-emails`) acts
        // on the thing; another creates one (a path's last parameter may be a project's key,
        // not the thing's: LaunchDarkly's `POST /flags/{projectKey}`).
        if (method === "post" && intent.lead !== "" && shape.lastWord.includes(intent.lead)) return 1;
        if (method === "post") fit = Math.max(fit, 0);
        break;
      case "apply":
        if (method === "post" || method === "put") return 1;
        // Not against a DELETE: "cancel a subscription" is Stripe's DELETE.
        if (method === "patch" || method === "delete") fit = Math.max(fit, 0);
        break;
    }
  }
  return fit;
}

/** The operation's resource is what the task names first, below a place the task names. */
function putsInto(intent: QueryIntent, shape: OperationShape): boolean {
  return intent.targets.has(shape.resource) && shape.parents.some((parent) => intent.containers.has(parent));
}

/**
 * The tool's argument names as its HTTP binding gives them (the input schema's properties: a
 * parameter not sent as a constant, a body property, the body or its extra properties), read
 * without the schema, which a lazy saved model reads only for the tool a call or describe needs.
 */
export function readArgumentNames(tool: ToolNode): string[] {
  const names = tool.http.parameters.filter((p) => p.constant === undefined).map((p) => p.argument);
  const body = tool.http.body;
  if (body?.properties !== undefined) names.push(...body.properties.map((p) => p.argument));
  if (body?.argument !== undefined) names.push(body.argument);
  if (body?.extraArgument !== undefined) names.push(body.extraArgument);
  return names;
}
