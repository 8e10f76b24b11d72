/**
 * Parameters the model never gives: the bridge works out, once per runtime, which header, query
 * and cookie parameters of each served tool come from the operator's configuration, and serves
 * the tools without them (neither in the input schema nor among the bindings the request is
 * built from), so a model-supplied value is refused by the schema and can never reach the API.
 *
 * - `header`: a header parameter that a `--header` of the same name sends on every call
 *   (Discourse's `Api-Key` with `--header "Api-Key: ..."`).
 * - `scheme`: a parameter that is the very header, query parameter or cookie of an `apiKey`
 *   scheme the operation asks for and the operator configured (`--auth`, an OAuth2 client, a
 *   pass-through header): the credential is sent in its place.
 * - `withheld`: a parameter that looks like a credential (the model's `credential`, or an
 *   `apiKey` scheme's own name) with no configured value: not sent at all, unless the operator
 *   lets the model give it (`--allow-credential-arguments NAME`).
 */
import {
  type BridgeModel,
  type CredentialKind,
  type JsonSchema,
  type JsonValue,
  OPTIONAL_PROPERTIES_KEYWORD,
  type ParameterBindingNode,
  type SecurityRequirementNode,
  type SecuritySchemeNode,
  type ToolNode,
} from "../../model/types.js";

export interface ParameterSources {
  /** `--header` names, lower-cased. */
  headers: ReadonlySet<string>;
  /** Security schemes with a configured credential (static, OAuth2 client or pass-through). */
  schemes: ReadonlySet<string>;
  /** Parameter names the model may give though they look like credentials (lower-cased). */
  allowed: ReadonlySet<string>;
}

export type FillSource = "header" | "scheme" | "withheld";

export interface FilledParameter {
  tool: string;
  in: ParameterBindingNode["in"];
  name: string;
  by: FillSource;
  /** The configured scheme (`scheme`). */
  scheme?: string;
  kind?: CredentialKind;
}

export interface ServedParameters {
  /** The model with those parameters taken out of each tool (the same object when none were). */
  model: BridgeModel;
  filled: FilledParameter[];
}

/** The model as served: each tool without the parameters the configuration fills or withholds. */
export function fillServedParameters(model: BridgeModel, sources: ParameterSources): ServedParameters {
  const filled: FilledParameter[] = [];
  let changed = false;
  const mayFill = createFillFilter(model.securitySchemes, sources);
  const tools = model.tools.map((tool) => {
    const found = findFilledParameters(tool, model.securitySchemes, sources, mayFill);
    if (found.length === 0) return tool;
    changed = true;
    filled.push(...found.map((entry) => entry.filled));
    const served = withoutParameters(
      tool,
      found.map((entry) => entry.binding),
    );
    return withFilledSchemes(
      served,
      found.map((entry) => entry.filled.scheme),
    );
  });
  return { model: changed ? { ...model, tools } : model, filled };
}

/**
 * Whether chooseSource could pick anything for a binding: only a credential, a `--header` name
 * or an apiKey scheme's own name can be filled or withheld. Graph beta's 22,361 tools (no
 * scheme, no --header) are scanned at start without chooseSource's per-binding lists.
 */
function createFillFilter(
  schemes: Record<string, SecuritySchemeNode>,
  sources: ParameterSources,
): (binding: ParameterBindingNode) => boolean {
  const keyNames = new Set<string>();
  for (const scheme of Object.values(schemes)) {
    if (scheme.type !== "apiKey") continue;
    keyNames.add(
      scheme.in === "header"
        ? `header\u0000${scheme.name.toLowerCase()}`
        : `${scheme.in}\u0000${scheme.name}`,
    );
  }
  return (binding) => {
    if (binding.credential !== undefined) return true;
    if (binding.in === "header") {
      if (sources.headers.size === 0 && keyNames.size === 0) return false;
      const lower = binding.name.toLowerCase();
      return sources.headers.has(lower) || keyNames.has(`header\u0000${lower}`);
    }
    return keyNames.size > 0 && keyNames.has(`${binding.in}\u0000${binding.name}`);
  };
}

function findFilledParameters(
  tool: ToolNode,
  schemes: Record<string, SecuritySchemeNode>,
  sources: ParameterSources,
  mayFill: (binding: ParameterBindingNode) => boolean,
): { binding: ParameterBindingNode; filled: FilledParameter }[] {
  const found: { binding: ParameterBindingNode; filled: FilledParameter }[] = [];
  for (const binding of tool.http.parameters) {
    if (binding.in === "path" || binding.constant !== undefined || !mayFill(binding)) continue;
    const source = chooseSource(tool, binding, schemes, sources);
    if (source === undefined) continue;
    const entry: FilledParameter = { tool: tool.name, in: binding.in, name: binding.name, ...source };
    if (binding.credential !== undefined) entry.kind = binding.credential;
    found.push({ binding, filled: entry });
  }
  return found;
}

function chooseSource(
  tool: ToolNode,
  binding: ParameterBindingNode,
  schemes: Record<string, SecuritySchemeNode>,
  sources: ParameterSources,
): { by: FillSource; scheme?: string } | undefined {
  const lower = binding.name.toLowerCase();
  if (binding.in === "header" && sources.headers.has(lower)) return { by: "header" };
  const named = schemesNaming(tool, binding, schemes);
  const configured = named.find((scheme) => sources.schemes.has(scheme));
  if (configured !== undefined) return { by: "scheme", scheme: configured };
  if (sources.allowed.has(lower)) return undefined;
  if (binding.credential !== undefined || named.length > 0) return { by: "withheld" };
  return undefined;
}

/** The apiKey schemes the operation asks for whose header, query parameter or cookie this is. */
function schemesNaming(
  tool: ToolNode,
  binding: ParameterBindingNode,
  schemes: Record<string, SecuritySchemeNode>,
): string[] {
  const isNamed = (name: string) => {
    const scheme = schemes[name];
    if (scheme?.type !== "apiKey" || scheme.in !== binding.in) return false;
    return scheme.in === "header"
      ? scheme.name.toLowerCase() === binding.name.toLowerCase()
      : scheme.name === binding.name;
  };
  const asked = [...new Set(tool.http.security.flatMap((alternative) => Object.keys(alternative)))];
  const named = asked.filter(isNamed);
  // An operation that forgot its security (24 of Trello's declare `key` and `token` with none)
  // still names the API's own key: the API's apiKey scheme of that name is what it means. One
  // that asks for other schemes may use the name for data, and keeps it.
  return asked.length > 0 ? named : Object.keys(schemes).filter(isNamed);
}

/**
 * A parameter taken out because a configured scheme fills it is still sent when the operation
 * is called, whichever of its security alternatives the credentials pick. Trello declares `key`
 * and `token` as required query parameters and its security as the alternatives
 * `[{api_key}, {api_token}]`: the first alternative alone left `token` unsent. Each alternative
 * is tried first with the filling schemes added (same order, duplicates dropped), the spec's own
 * after them.
 */
function withFilledSchemes(tool: ToolNode, schemes: (string | undefined)[]): ToolNode {
  const filling = [...new Set(schemes.filter((name): name is string => name !== undefined))];
  if (filling.length === 0) return tool;
  const joined: SecurityRequirementNode[] = [];
  const seen = new Set(tool.http.security.map((alternative) => keyOf(alternative)));
  // No security at all is one alternative that asks nothing: anonymous access stays after it.
  const alternatives = tool.http.security.length > 0 ? tool.http.security : [{}];
  for (const alternative of alternatives) {
    const merged: SecurityRequirementNode = { ...alternative };
    for (const name of filling) merged[name] ??= [];
    const key = keyOf(merged);
    if (seen.has(key)) continue;
    seen.add(key);
    joined.push(merged);
  }
  if (joined.length === 0) return tool;
  return { ...tool, http: { ...tool.http, security: [...joined, ...alternatives] } };
}

function keyOf(alternative: SecurityRequirementNode): string {
  return Object.keys(alternative).sort().join("\u0000");
}

/** The tool without these parameters: bindings, properties, and every list that names them. */
function withoutParameters(tool: ToolNode, removed: ParameterBindingNode[]): ToolNode {
  const gone = new Set(removed.map((binding) => binding.argument));
  const schema: JsonSchema = { ...tool.inputSchema };
  const properties = schema.properties;
  if (isObject(properties)) {
    schema.properties = Object.fromEntries(Object.entries(properties).filter(([name]) => !gone.has(name)));
  }
  for (const keyword of ["required", OPTIONAL_PROPERTIES_KEYWORD]) {
    const list = schema[keyword];
    if (!Array.isArray(list)) continue;
    const kept = list.filter((name) => typeof name !== "string" || !gone.has(name));
    if (kept.length > 0) schema[keyword] = kept;
    else delete schema[keyword];
  }
  const dependent = schema.dependentRequired;
  if (isObject(dependent)) {
    const kept: Record<string, JsonValue> = {};
    for (const [name, needs] of Object.entries(dependent)) {
      if (gone.has(name) || !Array.isArray(needs)) continue;
      const rest = needs.filter((need) => typeof need !== "string" || !gone.has(need));
      if (rest.length > 0) kept[name] = rest;
    }
    if (Object.keys(kept).length > 0) schema.dependentRequired = kept;
    else delete schema.dependentRequired;
  }
  return {
    ...tool,
    inputSchema: schema,
    http: { ...tool.http, parameters: tool.http.parameters.filter((binding) => !removed.includes(binding)) },
  };
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
