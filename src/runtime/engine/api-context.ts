/**
 * What every call to one API shares: its served tools (selection applied), options with their
 * defaults applied, credentials, where each list of servers sends calls, the connection, and
 * the validators made so far. The call pipeline (call-pipeline.ts) is module functions over it.
 */
import type { BridgeModel, ServerNode, ToolNode } from "../../model/types.js";
import { findServedTool } from "../access/caller.js";
import { selectModel } from "../access/select.js";
import type { ArgumentValidator } from "../arguments/validate.js";
import { type CredentialProvider, createCredentialProvider } from "../auth/credential-provider.js";
import { hasControlCharacters } from "../auth/credentials.js";
import { headerValueForms, isCredentialHeader } from "../auth/secret-forms.js";
import { resolveBaseUrl } from "../request/build-request.js";
import { fillServedParameters } from "../request/filled-parameters.js";
import { createOriginPolicy } from "../request/origins.js";
import { type ApiConnection, createApiConnection } from "../upstream/connection.js";
import { type BridgeOptions, type ResolvedBridgeOptions, resolveBridgeOptions } from "./bridge-options.js";
import { createOutputChecks, type OutputCheck } from "./output-check.js";
import { markUnusableTools } from "./unusable-tools.js";

/** Where a list of servers sends calls, and whether they carry credentials. */
export type CallTarget = { url: string; credentialed: boolean } | { error: string };

export interface ApiContext {
  /** The model served: the selected tools only. */
  model: BridgeModel;
  /** The model as given, before the selection. */
  fullModel: BridgeModel;
  options: BridgeOptions;
  resolved: ResolvedBridgeOptions;
  /** The served tool of that name (access/caller.ts's one map per served model, made on first use). */
  toolOf(name: string): ToolNode | undefined;
  confirmDestructive: boolean;
  /** `--header` values by lower-case name. */
  staticHeaders: Record<string, string>;
  credentials: CredentialProvider;
  connection: ApiConnection;
  /** Whether the context made the connection (and so closes it). */
  ownsConnection: boolean;
  /** Every configured or fetched secret so far, in every form (for redaction). */
  secrets(): string[];
  targetOf(servers: ServerNode[]): CallTarget;
  validators: Map<string, ArgumentValidator>;
  /** The tool's check of a successful answer against its output schema (undefined without one). */
  outputCheckFor(tool: ToolNode): OutputCheck | undefined;
}

/**
 * The context of one API. `connection` (the pool, circuit breaker and concurrency limit) is
 * made for it unless given: hot reload gives each version of an API's tools the same one.
 */
export function createApiContext(
  fullModel: BridgeModel,
  options: BridgeOptions,
  connection?: ApiConnection,
): ApiContext {
  const resolved = resolveBridgeOptions(options);
  // Filtered tools are gone before anything is served: neither listed nor callable.
  const selected = selectModel(fullModel, options.access);
  const staticHeaders = normaliseHeaders(options.headers ?? {});
  const origins = createOriginPolicy(selected, options);
  const ownsConnection = connection === undefined;
  const api = connection ?? createApiConnection(resolved.connection);
  const credentials = createCredentialProvider(selected, {
    env: resolved.env,
    getDispatcher: api.getDispatcher,
    http: api.http,
    baseUrl: () => {
      const base = resolveBaseUrl(selected.servers, options.baseUrl, options.serverVariables);
      return "url" in base ? base.url : undefined;
    },
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.oauth ? { oauth: options.oauth } : {}),
    ...(options.passThroughHeaders ? { passThroughHeaders: options.passThroughHeaders } : {}),
    ...(options.tokenStore !== undefined ? { tokenStore: options.tokenStore } : {}),
    ...(options.tokenStoreKey !== undefined ? { tokenStoreKey: options.tokenStoreKey } : {}),
  });
  // Parameters the configuration fills, and credentials the model may not give, are no arguments.
  const model = markUnusableTools(
    fillServedParameters(selected, {
      headers: new Set(Object.keys(staticHeaders)),
      schemes: credentials.configuredSchemes(),
      allowed: new Set((options.allowCredentialArguments ?? []).map((name) => name.toLowerCase())),
    }).model,
  );
  // A static header that carries a credential (`--header "Authorization: Bearer ..."`) is one.
  const headerSecrets = Object.entries(staticHeaders).flatMap(([name, value]) =>
    isCredentialHeader(name) ? headerValueForms(value) : [],
  );
  /**
   * Where a list of servers sends calls, and whether they carry credentials (another origin than
   * the API's, from an operation's own `servers`, gets no credentials and no --header values):
   * fixed for the life of the runtime, so worked out once per list rather than on every call.
   */
  const targets = new Map<ServerNode[], CallTarget>();
  const targetOf = (servers: ServerNode[]) => {
    let target = targets.get(servers);
    if (target === undefined) {
      const base = resolveBaseUrl(servers, options.baseUrl, options.serverVariables);
      target =
        "error" in base ? base : { url: base.url, credentialed: origins.allows(new URL(base.url).origin) };
      targets.set(servers, target);
    }
    return target;
  };
  return {
    model,
    fullModel,
    options,
    resolved,
    toolOf: (name) => findServedTool(model, name),
    confirmDestructive: options.access?.destructive === "confirm",
    staticHeaders,
    credentials,
    connection: api,
    ownsConnection,
    secrets: () => [...headerSecrets, ...credentials.secrets()],
    targetOf,
    validators: new Map(),
    outputCheckFor: createOutputChecks(),
  };
}

function normaliseHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) ||
      hasControlCharacters(value) ||
      /[\u0100-\uffff]/.test(value)
    ) {
      throw new Error(
        `header "${name}" has an invalid name, or a character an HTTP header cannot carry in its value`,
      );
    }
    result[name.toLowerCase()] = value;
  }
  return result;
}
