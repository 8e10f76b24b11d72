/**
 * The bridge's config file (`serve --config bridge.yaml`, JSON or YAML): the APIs to serve,
 * each with its spec and its own options, and options for the whole bridge.
 *
 * ```yaml
 * transport: http            # any serve option, by flag name (or its camelCase key)
 * port: 3000
 * apis:                      # a map of namespace → API (or a list with `namespace:` in each)
 *   erp:
 *     spec: ./erp.yaml       # file (relative to this file), or http(s) URL
 *     base-url: https://erp.example.com/v1
 *     auth: { api_key: { env: ERP_KEY } }   # any string may be { env: NAME }
 *     timeout: 5000
 *   crm:
 *     spec: https://crm.example.com/openapi.json
 *     header: { X-Tenant: acme }
 * ```
 *
 * Values mean what the same flag's text means: each goes through the option table's parser.
 * Keys that are no option of the table (how `serve` reads a spec: `overrides`, `profile`...)
 * are handed back as they are, for `serve` to check.
 */
import { dirname, isAbsolute, resolve } from "node:path";
import { failWith } from "../../model/diagnostics.js";
import { isRecord } from "../../model/records.js";
import { readConfigFile } from "../../runtime/config/data-file.js";
import {
  getOptionSpec,
  OPTION_KEYS,
  type OptionKey,
  type Settings,
} from "../../runtime/config/option-table.js";
import type { Environment } from "../../runtime/config/read-settings.js";
import { OptionValueError } from "../../runtime/config/value-parsers.js";
import { optionScope } from "./option-scope.js";

const CODE = "OMB_BRIDGE_CONFIG";

export interface ApiConfigEntry {
  /** From the map's key or the entry's `namespace`; absent: from the spec's title. */
  namespace?: string;
  /** A path (resolved against the config file's folder), an http(s) URL. */
  spec: string;
  settings: Settings;
  /** The entry's keys that are no option of the table, as written. */
  extra: Record<string, unknown>;
  /** Where the entry is, for messages: `apis.erp`. */
  where: string;
}

export interface BridgeConfig {
  file: string;
  /** The folder relative paths in the file are read from. */
  dir: string;
  /** Options for the whole bridge (those of an API apply to every API that sets none). */
  settings: Settings;
  extra: Record<string, unknown>;
  apis: ApiConfigEntry[];
}

/** Options whose value is a path, read relative to the config file. */
const PATH_OPTIONS: readonly OptionKey[] = ["authConfig", "auditLog"];

const BY_NAME = new Map<string, OptionKey>(
  OPTION_KEYS.flatMap((key) => [
    [key, key],
    [getOptionSpec(key).flag, key],
  ]),
);

export async function readBridgeConfig(file: string, env: Environment): Promise<BridgeConfig> {
  const value = await readConfigFile(file, CODE, "bridge config file");
  const dir = dirname(resolve(file));
  const fail = (where: string, problem: string, hint?: string): never =>
    failWith(CODE, `${where}: ${problem}`, { file, ...(hint !== undefined ? { hint } : {}) });
  if (!isRecord(value)) return fail("the file", "must be an object with `apis`");
  const { apis: rawApis, ...top } = value;
  const bridge = readConfigOptions(top, { where: "", env, file, dir });
  const entries: [string | undefined, unknown, string][] = Array.isArray(rawApis)
    ? rawApis.map((entry, index) => [undefined, entry, `apis[${index}]`])
    : isRecord(rawApis)
      ? Object.entries(rawApis).map(([name, entry]) => [name, entry, `apis.${name}`])
      : fail(
          "apis",
          "must be a map of namespace to API, or a list of APIs",
          "apis: { erp: { spec: ./erp.yaml } }",
        );
  if (entries.length === 0) fail("apis", "names no API");
  const apis = entries.map(([key, raw, where]): ApiConfigEntry => {
    if (!isRecord(raw)) return fail(where, "must be an object with at least `spec`");
    const { spec, namespace, ...rest } = raw;
    if (typeof spec !== "string" || spec === "") return fail(`${where}.spec`, "must be a spec file or URL");
    if (namespace !== undefined && typeof namespace !== "string")
      return fail(`${where}.namespace`, "must be a string");
    if (key !== undefined && namespace !== undefined && namespace !== key) {
      fail(
        `${where}.namespace`,
        `says "${namespace}" but the entry is under "${key}"`,
        "leave one of them out",
      );
    }
    const chosen = namespace ?? key;
    for (const name of Object.keys(rest)) {
      const optionKey = BY_NAME.get(name);
      if (optionKey !== undefined && optionScope(optionKey) === "bridge") {
        fail(
          `${where}.${name}`,
          "is an option of the whole bridge, not of one API",
          "put it at the top of the file",
        );
      }
    }
    const options = readConfigOptions(rest, { where: `${where}.`, env, file, dir });
    return {
      ...(chosen !== undefined ? { namespace: chosen } : {}),
      spec: /^https?:\/\//i.test(spec) ? spec : resolve(dir, spec),
      settings: options.settings,
      extra: options.extra,
      where,
    };
  });
  return { file, dir, settings: bridge.settings, extra: bridge.extra, apis };
}

/** The table's options among `record`'s keys, parsed; the other keys as they are. */
function readConfigOptions(
  record: Record<string, unknown>,
  context: { where: string; env: Environment; file: string; dir: string },
): { settings: Settings; extra: Record<string, unknown> } {
  const settings: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(record)) {
    const key = BY_NAME.get(name);
    if (key === undefined) {
      extra[name] = raw;
      continue;
    }
    const spec = getOptionSpec(key);
    try {
      let value = spec.parser.isSwitch
        ? spec.parser.fromEnv(typeof raw === "boolean" ? (raw ? "1" : "0") : readText(raw, "", context.env))
        : spec.parser.fromFlags(toFlagTexts(raw, spec.parser.kind, context.env));
      if (PATH_OPTIONS.includes(key) && typeof value === "string" && value !== "-" && !isAbsolute(value)) {
        value = resolve(context.dir, value);
      }
      settings[key] = value;
    } catch (error) {
      if (!(error instanceof OptionValueError)) throw error;
      failWith(CODE, `${context.where}${name}: ${error.message}`, {
        file: context.file,
        hint: `${name} takes ${spec.parser.expected}${error.note !== undefined ? ` (${error.note})` : ""}`,
      });
    }
  }
  return { settings: settings as Settings, extra };
}

/** A config value as the texts of the flag's occurrences: `{ a: 1 }` → `["a=1"]` for pairs. */
function toFlagTexts(raw: unknown, kind: string, env: Environment): string[] {
  if (kind === "pairs" || kind === "headers") {
    if (Array.isArray(raw)) return raw.map((item, i) => readText(item, `[${i}]`, env));
    if (!isRecord(raw)) throw new OptionValueError("expected a map of names to values");
    const separator = kind === "pairs" ? "=" : ": ";
    return Object.entries(raw).map(
      ([name, value]) => `${name}${separator}${readText(value, `.${name}`, env)}`,
    );
  }
  if (kind === "list" && Array.isArray(raw)) return raw.map((item, i) => readText(item, `[${i}]`, env));
  return [readText(raw, "", env)];
}

/**
 * A string or number as text, or `{ env: NAME }` read from the environment (which must set it);
 * `inner` names the place within the option's value (`.api_key`, `[2]`) for messages.
 */
function readText(value: unknown, inner: string, env: Environment): string {
  const at = inner === "" ? "" : `${inner.replace(/^\./, "")}: `;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (isRecord(value) && typeof value["env"] === "string" && Object.keys(value).length === 1) {
    const found = env[value["env"]];
    if (found === undefined || found === "") {
      throw new OptionValueError(`${at}the environment variable ${value["env"]} is not set`);
    }
    return found;
  }
  throw new OptionValueError(`${at}expected a string, a number or { env: NAME }`);
}
