/**
 * The settings and environment of each API in a bridge of several APIs. An API reads its own
 * variables as `OPENAPI_MCP_<NAMESPACE>__<VARIABLE>` (`OPENAPI_MCP_ERP__AUTH_API_KEY`,
 * `OPENAPI_MCP_ERP__BASE_URL`), which it sees as `OPENAPI_MCP_<VARIABLE>`. Options that carry
 * credentials or say where calls go (the table's `api-only` ones) are never given to every API
 * at once: with several APIs, a flag, variable or config value of one for the whole bridge is
 * refused, so a credential meant for one API cannot reach another.
 */
import { toClientEnvNames, toEnvSuffix } from "../../runtime/auth/credentials.js";
import {
  getOptionSpec,
  OPTION_KEYS,
  type OptionKey,
  type Settings,
} from "../../runtime/config/option-table.js";
import type { Environment } from "../../runtime/config/read-settings.js";
import { optionScope } from "./option-scope.js";

const ENV_PREFIX = "OPENAPI_MCP_";

/** `OPENAPI_MCP_ERP__`: the start of the API `erp`'s own variables. */
export function toApiEnvPrefix(namespace: string): string {
  return `${ENV_PREFIX}${toEnvSuffix(namespace)}__`;
}

/** The options each API must set for itself (credentials, where calls go). */
export const API_ONLY_KEYS: readonly OptionKey[] = OPTION_KEYS.filter(
  (key) => optionScope(key) === "api-only",
);

/**
 * The variables of some options: exact names (with the option each gives), and the starts of
 * `<NAME>` ones (`OPENAPI_MCP_AUTH_`), with `extra` starts of variables the table does not list.
 */
function readOptionVariables(keys: readonly OptionKey[], extra: string[]) {
  const exact = new Map<string, OptionKey>();
  const prefixes = [...extra];
  for (const key of keys) {
    const variable = getOptionSpec(key).env;
    if (variable === undefined) continue;
    const open = variable.indexOf("<");
    if (open === -1) exact.set(variable, key);
    else prefixes.push(variable.slice(0, open));
  }
  return { exact, prefixes };
}

const CLIENT_VARIABLES = toClientEnvNames("");
const API_ONLY_VARIABLES = readOptionVariables(API_ONLY_KEYS, [CLIENT_VARIABLES.secret]);
const OPTION_VARIABLES = readOptionVariables(OPTION_KEYS, [CLIENT_VARIABLES.id, CLIENT_VARIABLES.secret]);

/** True for a variable among `variables` (readOptionVariables). */
function hasVariable(variables: ReturnType<typeof readOptionVariables>, name: string): boolean {
  return variables.exact.has(name) || variables.prefixes.some((prefix) => name.startsWith(prefix));
}

/** True for a variable that gives an api-only option (`OPENAPI_MCP_AUTH_X`, `OPENAPI_MCP_BASE_URL`). */
export function isApiOnlyVariable(name: string): boolean {
  return hasVariable(API_ONLY_VARIABLES, name);
}

export interface MisplacedApiVariables {
  /** `OPENAPI_MCP_ERP__TRANSPORT`: an API's variable for an option of the whole bridge. */
  bridgeOptions: { variable: string; plain: string }[];
  /** `OPENAPI_MCP_ERPP__TIMEOUT`: a namespace no served API has (a typo, or another bridge's). */
  unknownNamespaces: string[];
}

/**
 * The `OPENAPI_MCP_<NAMESPACE>__*` variables that no API reads: those of options that belong to
 * the whole bridge (each API would ignore them), and those whose namespace is none of the served
 * APIs'. Said rather than ignored: a variable that silently does nothing is a setting the
 * operator believes is in force.
 */
export function findMisplacedApiVariables(
  env: Environment,
  namespaces: readonly string[],
): MisplacedApiVariables {
  const found: MisplacedApiVariables = { bridgeOptions: [], unknownNamespaces: [] };
  if (namespaces.length === 0) return found;
  const prefixes = namespaces.map(toApiEnvPrefix);
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.startsWith(ENV_PREFIX)) continue;
    const prefix = prefixes.find((p) => name.startsWith(p));
    if (prefix !== undefined) {
      const plain = `${ENV_PREFIX}${name.slice(prefix.length)}`;
      const key = OPTION_VARIABLES.exact.get(plain);
      if (key !== undefined && optionScope(key) === "bridge")
        found.bridgeOptions.push({ variable: name, plain });
      continue;
    }
    // A variable of an option (OPENAPI_MCP_AUTH_MY__KEY for the scheme "my--key") is no API's.
    if (hasVariable(OPTION_VARIABLES, name)) continue;
    if (name.indexOf("__", ENV_PREFIX.length) > ENV_PREFIX.length) found.unknownNamespaces.push(name);
  }
  return found;
}

/**
 * The environment one API reads: its own `OPENAPI_MCP_<NAMESPACE>__*` variables under their
 * plain names, over the bridge's; without any API's own variables under their long names, and,
 * when several APIs are served, without the bridge-wide variables of api-only options.
 */
export function toApiEnvironment(
  env: Environment,
  namespace: string | undefined,
  options: { namespaces: readonly string[] },
): Environment {
  const prefixes = options.namespaces.map(toApiEnvPrefix);
  const several = options.namespaces.length > 1;
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    if (prefixes.some((prefix) => name.startsWith(prefix))) continue;
    if (several && isApiOnlyVariable(name)) continue;
    result[name] = value;
  }
  if (namespace !== undefined) Object.assign(result, readOwnVariables(env, namespace));
  return result;
}

/** The API's own variables (`OPENAPI_MCP_ERP__TIMEOUT`) under their plain names (`OPENAPI_MCP_TIMEOUT`). */
export function readOwnVariables(env: Environment, namespace: string): Record<string, string | undefined> {
  const prefix = toApiEnvPrefix(namespace);
  const own: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(prefix)) own[`${ENV_PREFIX}${name.slice(prefix.length)}`] = value;
  }
  return own;
}

/**
 * Where an api-only option is given for the whole bridge: `--auth` (a flag), a variable set in
 * the environment (not an API's own), a key at the top of the config file. Empty when each API
 * sets its own.
 */
export function findSharedApiOptions(input: {
  flags: Settings;
  env: Environment;
  config?: Settings;
  namespaces: readonly string[];
}): string[] {
  const prefixes = input.namespaces.map(toApiEnvPrefix);
  const found: string[] = [];
  for (const key of API_ONLY_KEYS) {
    if (input.flags[key] !== undefined) found.push(`--${getOptionSpec(key).flag}`);
  }
  for (const [name, value] of Object.entries(input.env)) {
    if (value === undefined || value === "") continue;
    if (prefixes.some((prefix) => name.startsWith(prefix))) continue;
    if (isApiOnlyVariable(name)) found.push(name);
  }
  for (const key of API_ONLY_KEYS) {
    if (input.config?.[key] !== undefined) found.push(`the config file's ${getOptionSpec(key).flag}`);
  }
  return found;
}

/** The bridge's settings without the api-only options (what every API inherits). */
export function withoutApiOnly(settings: Settings): Settings {
  const result: Record<string, unknown> = { ...settings };
  for (const key of API_ONLY_KEYS) delete result[key];
  return result as Settings;
}
