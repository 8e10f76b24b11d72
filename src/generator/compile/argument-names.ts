/**
 * Argument names: each parameter and body property wants its own name; on a clash the
 * precedence is path > query > header > cookie > body, the first keeps the plain name and the
 * others get `__query`, `__header`, `__cookie`, `__body`. A name that plain JavaScript objects
 * treat specially (see SPECIAL_NAMES) always gets its location suffix.
 */
import { OBJECT_MEMBER_NAMES } from "../../model/records.js";
import type { JsonSchema, ParameterLocation } from "../../model/types.js";

type Location = ParameterLocation | "body";

const PRECEDENCE: Location[] = ["path", "query", "header", "cookie", "body"];

/**
 * Names an argument cannot have: `__proto__` (assigning it sets a prototype instead of a
 * property, so the argument was lost), `prototype`, and every member of `Object.prototype`,
 * which a plain arguments object seems to hold already (a validator reading `args.constructor`
 * finds a function, so the tool refused every call). Such a parameter or body property is
 * the argument `<name>__<location>`; its binding keeps the wire name.
 */
const SPECIAL_NAMES = new Set([
  "__proto__",
  "prototype",
  ...OBJECT_MEMBER_NAMES,
  "__defineGetter__",
  "__defineSetter__",
  "__lookupGetter__",
  "__lookupSetter__",
]);

export interface Candidate {
  location: Location;
  name: string;
  schema: JsonSchema;
  required: boolean;
  /**
   * For a body property of a body the spec marks `required: false`: "required-with-body" when
   * the body's schema requires it (required as soon as any body property is given), else
   * "optional". Undefined for parameters and whole-body arguments.
   */
  bodyField?: "required-with-body" | "optional";
  /** Writes the final argument name into the binding this candidate came from. */
  assign: (argument: string) => void;
  /** The final argument name, once assigned. */
  argument?: string;
}

export function assignArgumentNames(candidates: Candidate[]): void {
  const byName = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const list = byName.get(candidate.name) ?? [];
    list.push(candidate);
    byName.set(candidate.name, list);
  }
  const taken = new Set<string>();
  const setArgument = (candidate: Candidate, argument: string) => {
    candidate.argument = argument;
    candidate.assign(argument);
    taken.add(argument);
  };
  // The winner of each clash (by location precedence) keeps the plain name, unless it is special.
  for (const [name, list] of byName) {
    if (!SPECIAL_NAMES.has(name)) setArgument(orderCandidates(list)[0]!, name);
  }
  for (const candidate of orderCandidates(candidates)) {
    if (candidate.argument !== undefined) continue;
    let argument = `${candidate.name}__${candidate.location}`;
    for (let i = 2; taken.has(argument); i++) argument = `${candidate.name}__${candidate.location}${i}`;
    setArgument(candidate, argument);
  }
  for (const list of byName.values()) if (list.length > 1) explainClash(list);
}

const LOCATION_LABELS: Record<Location, string> = {
  path: "path parameter",
  query: "query parameter",
  header: "header",
  cookie: "cookie",
  body: "body property",
};

/**
 * Arguments for one wire name in several places (`ids` in the query, `ids__body` in the body):
 * each says where it goes and which argument is the other, so the model need not guess.
 */
function explainClash(list: Candidate[]): void {
  for (const candidate of list) {
    const others = list
      .filter((other) => other !== candidate)
      .map((other) => `the ${LOCATION_LABELS[other.location]} is \`${other.argument}\``);
    const note = `Sent as the ${LOCATION_LABELS[candidate.location]} "${candidate.name}"; ${others.join(", ")}.`;
    const text = typeof candidate.schema.description === "string" ? candidate.schema.description.trim() : "";
    const own = text === "" ? "" : /[.!?:]$/.test(text) ? `${text} ` : `${text}. `;
    candidate.schema.description = `${own}${note}`;
  }
}

export function orderCandidates(candidates: Candidate[]): Candidate[] {
  return [...candidates].sort((a, b) => PRECEDENCE.indexOf(a.location) - PRECEDENCE.indexOf(b.location));
}
