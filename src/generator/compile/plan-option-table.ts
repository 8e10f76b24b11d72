/**
 * The spec and plan options, one entry each: how a spec is read, planned and adapted to a
 * client. Everything about these options is made from this table: the CLI's flags and their
 * help (cli/options.ts), the keys an API's entry of a `serve --config` file takes
 * (cli/serve-apis.ts), docs/serve.md's table (renderPlanOptionTable) and buildModel's options
 * (toBuildOptions). The defaults are the components' own (budgets.ts, read-limits.ts,
 * profile.ts): the table cites them, and the components apply them.
 *
 * This module loads nothing heavy (the CLI reads it to build its help): the planner's modules
 * are imported as types only.
 */

import { renderMarkdownTable, type SectionMarkers, toMarkdownCell } from "../shared/markdown.js";
import { DEFAULT_MAX_FILE_BYTES } from "../spec/read-limits.js";
import { DEFAULT_ARGUMENT_DESCRIPTION_BUDGET, DEFAULT_DESCRIPTION_BUDGET } from "./budgets.js";
import type { BuildOptions } from "./build-model.js";
import { CLIENT_PROFILES, DEFAULT_CLIENT_PROFILE } from "./profile.js";

/** What an option's value is: how a flag's text and a config file's value are read. */
export type PlanValueKind =
  /** true or false; the flag is `--FLAG`, or `--no-FLAG` when the default is true. */
  | { kind: "switch" }
  /** A whole number of at least `min`. */
  | { kind: "count"; min: number }
  /** A non-empty string. */
  | { kind: "text" }
  /** A file; in a config file, relative to the file's folder. */
  | { kind: "path" }
  /** Folders, the flag repeatable; in a config file one path or a list, relative to its folder. */
  | { kind: "paths" }
  /** One of `choices`. */
  | { kind: "choice"; choices: readonly string[] };

export interface PlanOptionSpec {
  /** The flag's name without `--` (a switch that defaults to true is given as `--no-FLAG`). */
  flag: string;
  /** The value's name in help (`--ref-root <dir>`); none for a switch. */
  placeholder?: string;
  value: PlanValueKind;
  /** The component's default, cited (undefined: none, or the component derives one). */
  default?: boolean | number | string;
  /** The help text (of the flag as shown: `--no-validate` says what turning it off does). */
  help: string;
  /** What docs/serve.md adds to the help (pointers to its sections). */
  details?: string;
  /**
   * `load`: how the spec is read; `plan`: how it is planned (both taken by every command that
   * plans a spec, `lint` included); `model`: the model cache, overrides and client profile.
   */
  group: "load" | "plan" | "model";
  /** Set in a `serve --config` file too (by this key or the flag's name). */
  config: boolean;
  /** The name in buildModel's options, when not the table's key. */
  buildKey?: keyof BuildOptions;
}

const MIB = 1024 * 1024;

/** The table, in the order help lists the options. */
export const PLAN_OPTIONS = {
  allowNetworkRefs: {
    flag: "allow-network-refs",
    value: { kind: "switch" },
    default: false,
    help: "resolve $ref to http(s) URLs (refused by default; redirects only on the same host)",
    group: "load",
    config: true,
  },
  refRoot: {
    flag: "ref-root",
    placeholder: "dir",
    value: { kind: "paths" },
    help: "another folder whose files $refs may read, besides the spec's own folder tree (repeatable)",
    group: "load",
    config: true,
    buildKey: "refRoots",
  },
  maxSpecBytes: {
    flag: "max-spec-bytes",
    placeholder: "n",
    value: { kind: "count", min: 1 },
    default: DEFAULT_MAX_FILE_BYTES,
    help: `bytes read from the spec and from each file or URL its $refs name (default ${DEFAULT_MAX_FILE_BYTES / MIB} MiB; all together twice that)`,
    group: "load",
    config: true,
  },
  validate: {
    flag: "validate",
    value: { kind: "switch" },
    default: true,
    help: "skip structural validation of the spec",
    group: "load",
    config: true,
  },
  strict: {
    flag: "strict",
    value: { kind: "switch" },
    default: false,
    help: "refuse a spec with slips instead of repairing them (numbers or booleans written as strings) or leaving them out (a $ref no operation reaches that cannot be resolved)",
    details: "see Spec checks",
    group: "load",
    config: true,
  },
  outputSchemas: {
    flag: "output-schemas",
    value: { kind: "switch" },
    default: false,
    help: "advertise an outline output schema per tool (off by default; JSON results carry structuredContent either way)",
    details: "see Output schemas",
    group: "plan",
    config: true,
  },
  descriptionBudget: {
    flag: "description-budget",
    placeholder: "chars",
    value: { kind: "count", min: 40 },
    default: DEFAULT_DESCRIPTION_BUDGET,
    help: `characters a tool description may take (default ${DEFAULT_DESCRIPTION_BUDGET})`,
    group: "plan",
    config: true,
  },
  argumentDescriptionBudget: {
    flag: "argument-description-budget",
    placeholder: "chars",
    value: { kind: "count", min: 0 },
    default: DEFAULT_ARGUMENT_DESCRIPTION_BUDGET,
    help: `characters an argument or property description may take (default ${DEFAULT_ARGUMENT_DESCRIPTION_BUDGET}; 0 leaves them out)`,
    group: "plan",
    config: true,
  },
  resultSchemas: {
    flag: "result-schemas",
    value: { kind: "switch" },
    default: false,
    help: "plan each operation's result shape, which code mode's signatures show (serve --mode code plans them itself)",
    group: "model",
    config: false,
  },
  cache: {
    flag: "cache",
    value: { kind: "switch" },
    default: true,
    help: "plan the spec again instead of reusing the model cached at an earlier start",
    details: "see Start-up cache",
    group: "model",
    config: true,
  },
  overrides: {
    flag: "overrides",
    placeholder: "file",
    value: { kind: "path" },
    help: "JSON or YAML overrides: an OpenAPI Overlay 1.0 document, or a map of operationId (or 'METHOD /path') to { name, description, title, hidden, annotations }",
    details: "see Overrides and client profiles",
    group: "model",
    config: true,
  },
  profile: {
    flag: "profile",
    placeholder: "client",
    value: { kind: "choice", choices: CLIENT_PROFILES },
    default: DEFAULT_CLIENT_PROFILE,
    help: "adapt names and schemas to one MCP client",
    details: "see Overrides and client profiles",
    group: "model",
    config: true,
  },
  serverName: {
    flag: "server-name",
    placeholder: "name",
    value: { kind: "text" },
    help: "the server's name in the client's configuration, counted in claude and cursor name limits (default: from the spec's title)",
    group: "model",
    config: true,
  },
} as const satisfies Record<string, PlanOptionSpec>;

export type PlanOptionKey = keyof typeof PLAN_OPTIONS;

/** Every key, in the table's order. */
export const PLAN_OPTION_KEYS = Object.keys(PLAN_OPTIONS) as PlanOptionKey[];

/** The keys of the groups named, in the table's order. */
export function listPlanOptionKeys(...groups: PlanOptionSpec["group"][]): PlanOptionKey[] {
  return PLAN_OPTION_KEYS.filter((key) => groups.includes(PLAN_OPTIONS[key].group));
}

/** One option's entry. */
export function getPlanOption(key: PlanOptionKey): PlanOptionSpec {
  return PLAN_OPTIONS[key];
}

type ValueOf<V> = V extends { kind: "switch" }
  ? boolean
  : V extends { kind: "count" }
    ? number
    : V extends { kind: "paths" }
      ? string[]
      : V extends { kind: "choice"; choices: readonly (infer C)[] }
        ? C
        : string;

/** The options' values as read (from flags or a config file), by the table's keys. */
export type PlanOptionValues = {
  -readonly [K in PlanOptionKey]?: ValueOf<(typeof PLAN_OPTIONS)[K]["value"]>;
};

type BuildKeyOf<K extends PlanOptionKey> = (typeof PLAN_OPTIONS)[K] extends {
  buildKey: infer B extends string;
}
  ? B
  : K;

/** The same values under buildModel's names. */
type BuildValues = {
  -readonly [K in PlanOptionKey as BuildKeyOf<K>]?: ValueOf<(typeof PLAN_OPTIONS)[K]["value"]>;
};
/**
 * Fails to compile when a name is none of buildModel's options, or an option's value does not
 * fit buildModel's option of that name.
 */
type FitsBuildOptions<T extends Partial<BuildOptions> & Record<Exclude<keyof T, keyof BuildOptions>, never>> =
  T;
export type PlanBuildOptions = FitsBuildOptions<BuildValues>;

/** A flag as the command line shows it: `--no-validate`, `--ref-root <dir>`. */
export function formatPlanFlag(spec: PlanOptionSpec, placeholder = (name: string) => `<${name}>`): string {
  const name = spec.value.kind === "switch" && spec.default === true ? `no-${spec.flag}` : spec.flag;
  if (spec.value.kind === "choice") return `--${name} ${placeholder(spec.placeholder ?? "value")}`;
  return spec.placeholder === undefined ? `--${name}` : `--${name} ${placeholder(spec.placeholder)}`;
}

/**
 * buildModel's options for the values read (the one mapping): switches get their defaults,
 * any other value is passed on only when given (buildModel's components apply their defaults,
 * and the model cache keys on what was given); an empty list of ref roots is none.
 */
export function toBuildOptions(values: PlanOptionValues): PlanBuildOptions {
  const options: Record<string, unknown> = {};
  for (const key of PLAN_OPTION_KEYS) {
    const spec: PlanOptionSpec = PLAN_OPTIONS[key];
    const value = values[key];
    const name = spec.buildKey ?? key;
    if (spec.value.kind === "switch") options[name] = value ?? spec.default;
    else if (value !== undefined && !(Array.isArray(value) && value.length === 0)) options[name] = value;
  }
  return options as PlanBuildOptions;
}

/** docs/serve.md's markers around the table of spec options. */
export const PLAN_OPTION_MARKERS: SectionMarkers = {
  begin: "<!-- plan-options:begin -->",
  end: "<!-- plan-options:end -->",
};

/**
 * docs/serve.md's table of the spec options: flag (placeholders in capitals), the key of an API's
 * entry in a `serve --config` file (the camelCase key is taken too), and meaning.
 */
export function renderPlanOptionTable(): string {
  const rows = PLAN_OPTION_KEYS.map((key) => {
    const spec: PlanOptionSpec = PLAN_OPTIONS[key];
    const flag = formatPlanFlag(spec, (name) =>
      spec.value.kind === "choice" ? spec.value.choices.join("|") : name.toUpperCase(),
    );
    const meaning = spec.details === undefined ? spec.help : `${spec.help}; ${spec.details}`;
    return [
      toMarkdownCell(`\`${flag}\``),
      spec.config ? toMarkdownCell(`\`${spec.flag}\``) : "",
      toMarkdownCell(meaning.replaceAll("$ref", "`$ref`")),
    ];
  });
  return renderMarkdownTable(["option", "`--config` key", "meaning"], rows);
}
