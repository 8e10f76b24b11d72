/**
 * The APIs one `serve` serves: the specs on its command line (`serve A B --namespace erp,crm`)
 * or the entries of its config file (`serve --config bridge.yaml`), each with its model, its
 * namespace (given, else from its spec's title), its settings (its own over the bridge's) and
 * its environment (settings/api-settings.ts). With several APIs every option that carries
 * credentials or says where calls go must be given per API, never for all of them.
 */

import { isAbsolute, resolve } from "node:path";
import {
  PLAN_OPTION_KEYS,
  PLAN_OPTIONS,
  type PlanOptionKey,
  type PlanValueKind,
} from "../generator/compile/plan-option-table.js";
import { DEFAULT_MAX_FILE_BYTES } from "../generator/spec/read-limits.js";
import { isAnnounced } from "../model/diagnostic-codes.js";
import { BridgeError, createDiagnostic, failWith, formatDiagnostic } from "../model/diagnostics.js";
import { isJsonMediaType } from "../model/media-types.js";
import type { BridgeModel } from "../model/types.js";
import type { Settings } from "../runtime/config/option-table.js";
import { type Environment, readSettings } from "../runtime/config/read-settings.js";
import { checkNamespace, deriveNamespace } from "../serve/apis/namespace.js";
import {
  findMisplacedApiVariables,
  findSharedApiOptions,
  type MisplacedApiVariables,
  readOwnVariables,
  toApiEnvironment,
  toApiEnvPrefix,
} from "../serve/config/api-settings.js";
import type { BridgeConfig } from "../serve/config/bridge-config.js";
import type { ServedApiInputs as ApiInputs } from "../serve/start-bridge.js";
import type { SpecFlags } from "./options.js";

/** One API to load: where its spec is, and what is set for it alone. */
export interface ApiSource {
  spec: string;
  namespace?: string;
  /** The API's own options (its config entry). */
  settings: Settings;
  /** How its spec is read and planned. */
  flags: SpecFlags;
  /** For messages: `apis.erp`, or the spec as given. */
  where: string;
  /** Hot reload: how often a URL is polled (a file is watched); absent: not watched. */
  watch?: { intervalMs: number };
}

/** `--watch-interval`'s default: a spec URL is asked whether it changed every 30 s. */
export const DEFAULT_WATCH_INTERVAL_MS = 30_000;

/** How one API is watched (`watch`, `watch-interval` of a config entry or its top), over `base`. */
function readWatchKeys(
  extra: Record<string, unknown>,
  base: ApiSource["watch"],
  context: { file: string; where: string },
): { watch: ApiSource["watch"]; rest: Record<string, unknown> } {
  const { watch, watchInterval, "watch-interval": dashed, ...rest } = extra;
  const interval = watchInterval ?? dashed;
  const fail = (key: string, problem: string): never =>
    failWith("OMB_BRIDGE_CONFIG", `${context.where}${key}: ${problem}`, { file: context.file });
  if (watch !== undefined && typeof watch !== "boolean") fail("watch", "must be true or false");
  if (
    interval !== undefined &&
    (typeof interval !== "number" || !Number.isSafeInteger(interval) || interval < 1)
  ) {
    fail("watch-interval", "must be a whole number of milliseconds, at least 1");
  }
  const on = watch === undefined ? base !== undefined : watch === true;
  return {
    watch: on
      ? { intervalMs: (interval as number | undefined) ?? base?.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS }
      : undefined,
    rest,
  };
}

/** An API loaded: its source and its model. */
export interface LoadedApi extends ApiSource {
  model: BridgeModel;
}

/**
 * The spec options a config file may set (per API, or at the top for every API), by the plan
 * option table's key or its flag's name (`description-budget`).
 */
const CONFIG_KEYS = new Map<string, PlanOptionKey>(
  PLAN_OPTION_KEYS.filter((key) => PLAN_OPTIONS[key].config).flatMap((key) => [
    [key, key],
    [PLAN_OPTIONS[key].flag, key],
  ]),
);

/** "a, b or c". */
function listChoices(choices: readonly string[]): string {
  return choices.length < 2 ? choices.join("") : `${choices.slice(0, -1).join(", ")} or ${choices.at(-1)}`;
}

/**
 * The spec options of a config entry (or the file's top), over `base`: each key checked as the
 * table's value kind says, paths read relative to the file.
 */
export function readPlanKeys(
  extra: Record<string, unknown>,
  base: SpecFlags,
  context: { file: string; dir: string; where: string },
): SpecFlags {
  const flags: Record<string, unknown> = { ...base };
  for (const [name, value] of Object.entries(extra)) {
    const key = CONFIG_KEYS.get(name);
    const where = `${context.where}${name}`;
    const fail = (problem: string, hint?: string): never =>
      failWith("OMB_BRIDGE_CONFIG", `${where}: ${problem}`, {
        file: context.file,
        ...(hint ? { hint } : {}),
      });
    if (key === undefined) {
      return fail(
        "is no serve option",
        "an API takes spec, namespace, the serve options (base-url, auth, timeout...) and how its spec is read (overrides, profile, output-schemas...)",
      );
    }
    const kind: PlanValueKind = PLAN_OPTIONS[key].value;
    if (kind.kind === "switch") {
      if (typeof value !== "boolean") fail("must be true or false");
      flags[key] = value;
    } else if (kind.kind === "count") {
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < kind.min)
        fail(kind.min > 0 ? `must be a whole number of at least ${kind.min}` : "must be a whole number");
      flags[key] = value;
    } else if (kind.kind === "text") {
      if (typeof value !== "string" || value === "") fail("must be a string");
      flags[key] = value;
    } else if (kind.kind === "choice") {
      if (typeof value !== "string" || !kind.choices.includes(value))
        fail(`must be ${listChoices(kind.choices)}`);
      flags[key] = value;
    } else {
      const list = kind.kind === "paths" && Array.isArray(value) ? value : [value];
      if (!list.every((item) => typeof item === "string" && item !== "")) fail("must be a path");
      const paths = (list as string[]).map((path) => (isAbsolute(path) ? path : resolve(context.dir, path)));
      flags[key] = kind.kind === "paths" ? paths : paths[0];
    }
  }
  return flags as SpecFlags;
}

/** The APIs of a config file, their spec options (and watching) over the command line's. */
export function listConfigApis(
  config: BridgeConfig,
  cliFlags: SpecFlags,
  cliWatch: ApiSource["watch"],
): ApiSource[] {
  const context = { file: config.file, dir: config.dir };
  const top = readWatchKeys(config.extra, cliWatch, { ...context, where: "" });
  const shared = readPlanKeys(top.rest, cliFlags, { ...context, where: "" });
  return config.apis.map((entry) => {
    const where = `${entry.where}.`;
    const own = readWatchKeys(entry.extra, top.watch, { ...context, where });
    return {
      spec: entry.spec,
      ...(entry.namespace !== undefined ? { namespace: entry.namespace } : {}),
      settings: entry.settings,
      flags: readPlanKeys(own.rest, shared, { ...context, where }),
      where: entry.where,
      ...(own.watch !== undefined ? { watch: own.watch } : {}),
    };
  });
}

/**
 * Each API's namespace: the one given, else one from its spec's title; checked, and distinct
 * (compared without case). Undefined for a bridge of one API given none: it keeps its names.
 */
export function chooseNamespaces(apis: readonly LoadedApi[]): (string | undefined)[] {
  if (apis.length === 1 && apis[0]!.namespace === undefined) return [undefined];
  const chosen = apis.map((api) => api.namespace ?? deriveNamespace(api.model.info.title));
  const problems = chosen.flatMap((namespace, index) => {
    const problem = checkNamespace(namespace);
    return problem === undefined
      ? []
      : [createDiagnostic("OMB_NAMESPACE", `${apis[index]!.where}: ${problem}`)];
  });
  const seen = new Map<string, number>();
  chosen.forEach((namespace, index) => {
    const other = seen.get(namespace.toLowerCase());
    if (other === undefined) {
      seen.set(namespace.toLowerCase(), index);
      return;
    }
    const derived = apis[index]!.namespace === undefined || apis[other]!.namespace === undefined;
    problems.push(
      createDiagnostic(
        "OMB_NAMESPACE",
        `${apis[other]!.where} and ${apis[index]!.where} would both be served under the namespace "${namespace}"${derived ? " (from their titles)" : ""}`,
        {
          hint: "give each its own with --namespace NAME (in the order of the specs) or `namespace:` in the config file",
        },
      ),
    );
  });
  if (problems.length > 0) throw new BridgeError(problems);
  return chosen;
}

/**
 * What startBridge takes for each API: its namespace, its settings (the bridge's, then its own
 * `OPENAPI_MCP_<NAMESPACE>__*` variables, then its config entry) and its environment. With
 * several APIs, an option that carries credentials or says where calls go, given for all of
 * them, is refused.
 */
export function toApiInputs(input: {
  apis: readonly LoadedApi[];
  namespaces: readonly (string | undefined)[];
  /** The bridge's settings: flags over variables over the config file's top. */
  settings: Settings;
  /** The flags alone, to name them in the refusal. */
  flagSettings: Settings;
  config?: Settings;
  env: Environment;
  help: string;
  /** Reads and plans an API's spec again (hot reload). */
  load(api: LoadedApi): Promise<BridgeModel>;
}): ApiInputs[] {
  const namespaces = input.namespaces.filter((n): n is string => n !== undefined);
  if (input.apis.length > 1) {
    const shared = findSharedApiOptions({
      flags: input.flagSettings,
      env: input.env,
      ...(input.config ? { config: input.config } : {}),
      namespaces,
    });
    if (shared.length > 0) {
      throw new BridgeError(
        shared.map((where) =>
          createDiagnostic(
            "OMB_API_OPTION_SHARED",
            `${where} is given for all ${input.apis.length} APIs; it carries credentials or says where calls go, so each API takes its own`,
            {
              hint: `set it in the config file's entry of the API it belongs to, or as ${toApiEnvPrefix(namespaces[0] ?? "NAMESPACE")}${where.startsWith("OPENAPI_MCP_") ? where.slice("OPENAPI_MCP_".length) : "<VARIABLE>"}`,
            },
          ),
        ),
      );
    }
  }
  reportMisplacedApiVariables(findMisplacedApiVariables(input.env, namespaces), namespaces);
  return input.apis.map((api, index) => {
    const namespace = input.namespaces[index];
    const env = toApiEnvironment(input.env, namespace, { namespaces });
    const own =
      namespace === undefined
        ? {}
        : readSettings({}, readOwnVariables(input.env, namespace), { help: input.help });
    return {
      ...(namespace !== undefined ? { namespace } : {}),
      model: api.model,
      settings: { ...input.settings, ...own, ...api.settings },
      env,
      ...(api.watch !== undefined
        ? {
            watch: {
              source: api.spec,
              intervalMs: api.watch.intervalMs,
              maxBytes: api.flags.maxSpecBytes ?? DEFAULT_MAX_FILE_BYTES,
              load: () => input.load(api),
            },
          }
        : {}),
    };
  });
}

/**
 * An API's variable for an option of the whole bridge is refused (the config file refuses the
 * same key in an API's entry); a namespace that is not served is a warning, since the
 * environment may hold another bridge's variables.
 */
function reportMisplacedApiVariables(found: MisplacedApiVariables, namespaces: readonly string[]): void {
  if (found.bridgeOptions.length > 0) {
    throw new BridgeError(
      found.bridgeOptions.map(({ variable, plain }) =>
        createDiagnostic("OMB_API_VARIABLE", `${variable} sets an option of the whole bridge for one API`, {
          hint: `set ${plain} instead: it applies to every API`,
        }),
      ),
    );
  }
  for (const variable of found.unknownNamespaces) {
    const diagnostic = createDiagnostic(
      "OMB_API_VARIABLE",
      `${variable} is ignored: no API served here has its namespace`,
      {
        severity: "warning",
        hint: `the served APIs' variables start with ${namespaces.map(toApiEnvPrefix).join(", ")}`,
      },
    );
    process.stderr.write(`${formatDiagnostic(diagnostic)}\n`);
  }
}

/** The spec's warnings, counted on one line (or each one with --verbose), the API named. */
export function reportSpecDiagnostics(model: BridgeModel, verbose: boolean, label: string): void {
  // The announced ones are printed at start-up anyway (runtime/config/prepare-api.ts).
  const warnings = model.diagnostics.filter((d) => d.severity !== "info" && !isAnnounced(d));
  if (verbose) {
    for (const d of model.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  } else if (warnings.length > 0) {
    process.stderr.write(
      `openapi-mcp-bridge: ${label}${warnings.length} spec warning(s); run \`openapi-mcp-bridge tools SPEC --verbose\` to see them\n`,
    );
  }
}

/** Tools read to tell whether a model has result outlines (a huge model's records load lazily). */
const RESULT_OUTLINE_SAMPLE = 200;

/**
 * A model planned without result outlines (`model -o` without `--result-schemas`): among its
 * first tools, several answer JSON and none has an outline. Code mode's signatures then say
 * `Promise<unknown>` for every call, which a start-up line says, with the fix.
 */
export function lacksResultOutlines(model: BridgeModel): boolean {
  let json = 0;
  for (const tool of model.tools.slice(0, RESULT_OUTLINE_SAMPLE)) {
    const answersJson = tool.http.responses.some(
      (response) => /^2/.test(response.status) && response.mediaTypes.some(isJsonMediaType),
    );
    if (!answersJson) continue;
    if (tool.resultSchema !== undefined) return false;
    json++;
  }
  return json >= 5;
}
