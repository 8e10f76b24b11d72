/**
 * What a result field is for, by its name: identifying the resource, or linking elsewhere.
 * Where only some of a result's fields are shown (the planner's outline of a large object,
 * code mode's one-line result type), the first come first and the second last.
 */

/**
 * Fields that name or identify a resource (`id`, Asana's `gid`, Spotify's and Vimeo's `uri`, `name`).
 * Where only some of a result's fields are shown (the planner's outline of a large object,
 * code mode's one-line result type), these come first: an agent reads an answer for them, and
 * specs that list fields alphabetically (Google's) put dozens before `id`.
 */
const IDENTITY_FIELDS = new Set([
  "id",
  "gid",
  "uuid",
  "uri",
  "key",
  "slug",
  "name",
  // Microsoft Graph's and Google's name of nearly everything; Slack's user's.
  "displayname",
  "display_name",
  // Linode's name of everything (an instance's, a volume's, a database's).
  "label",
  "title",
  "summary",
  // A meeting's (Zoom) and a message's or event's (Microsoft Graph) title.
  "topic",
  "subject",
]);

/** A resource's state: read with its identity, after its name (`status` before `summary` hid the event's title). */
const STATE_FIELDS = new Set(["status", "state"]);

/** An identifier by its name's end: `user_id`, `userId`, Xero's `InvoiceID` (not `paid`, `valid`). */
const ID_SUFFIX = /(_id|[a-z0-9](Id|ID))$/;

/** Whether a result field names or identifies the resource (or another it refers to). */
export function isIdentityField(name: string): boolean {
  return rankIdentityField(name) < 2;
}

/**
 * 0: names or identifies the resource (`id`, `summary`); 1: its state (`status`) or another's
 * identifier (`colorId`); 2: neither.
 */
export function rankIdentityField(name: string): number {
  const lower = name.toLowerCase();
  if (IDENTITY_FIELDS.has(lower)) return 0;
  return STATE_FIELDS.has(lower) || ID_SUFFIX.test(name) ? 1 : 2;
}

/** Links to other endpoints (`*_url`, `*Url`, `*_link`, `href`): many in some APIs, rarely what a model wants. */
const LINK_FIELD = /((^|_)(url|link|href)|[a-z0-9](Url|URL|Link|Href))s?$/;

/** A field that links to another endpoint; `url` alone is often the object's own identity. */
export function isLinkField(name: string): boolean {
  return LINK_FIELD.test(name) && name !== "url";
}

/** A success answer's channel for problems (Square's `errors` beside `customer`): not the data. */
const NOTICE_FIELDS = new Set(["error", "errors", "warning", "warnings"]);

/** Whether a result field carries the answer's problems rather than its data. */
export function isNoticeField(name: string): boolean {
  return NOTICE_FIELDS.has(name.toLowerCase());
}

/** Names of the list a page of results holds (`items`, Stripe's `data`, OData's `value`). */
const COLLECTION_FIELDS = new Set([
  "items",
  "data",
  "results",
  "value",
  "values",
  "records",
  "entries",
  "elements",
]);

/** Whether a field is named as a page's list of results. */
export function isCollectionField(name: string): boolean {
  return COLLECTION_FIELDS.has(name.toLowerCase());
}
