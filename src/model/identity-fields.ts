/**
 * Fields that name or identify a resource (`id`, Asana's `gid`, `name`, `title`, `status`).
 * Where only some of a result's fields are shown (the planner's outline of a large object,
 * code mode's one-line result type), these come first: an agent reads an answer for them, and
 * specs that list fields alphabetically (Google's) put dozens before `id`.
 */
const IDENTITY_FIELDS = new Set(["id", "gid", "uuid", "key", "slug", "name", "title", "summary", "status"]);

/** An identifier by its name's end: `user_id`, `userId`, Xero's `InvoiceID` (not `paid`, `valid`). */
const ID_SUFFIX = /(_id|[a-z0-9](Id|ID))$/;

/** Whether a result field names or identifies the resource (or another it refers to). */
export function isIdentityField(name: string): boolean {
  return IDENTITY_FIELDS.has(name.toLowerCase()) || ID_SUFFIX.test(name);
}
