/**
 * Settings → the options of the runtime's parts: BridgeOptions (createBridgeRuntime), the tool
 * selection, and HttpServerOptions (startHttpServer). One mapping, so `serve` and a generated
 * server configure the same runtime the same way.
 */
import type { BridgeModel } from "../../model/types.js";
import type { ToolSelection } from "../access/select.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { AuthConfig } from "../auth/auth-config.js";
import { toServerVariableEnvName } from "../auth/credentials.js";
import type { SandboxLimits } from "../code/sandbox/engine.js";
import type { BridgeOptions } from "../engine/bridge-options.js";
import type { HttpServerOptions } from "../transport/streamable-http.js";
import { OPTION_TABLE, type Settings } from "./option-table.js";
import type { Environment } from "./read-settings.js";

export interface RuntimeInputs {
  model: BridgeModel;
  env: Environment;
  /** The auth config file and OAuth2 clients (readAuthSettings). */
  auth: AuthConfig;
  hooks?: BridgeOptions["hooks"];
  audit?: AuditLog;
}

/** The tool selection the settings ask for (every tool when they ask for none). */
export function toToolSelection(settings: Settings): ToolSelection {
  const selection: ToolSelection = { destructive: settings.destructive ?? OPTION_TABLE.destructive.default };
  if (settings.includeTools) selection.includeTools = settings.includeTools;
  if (settings.excludeTools) selection.excludeTools = settings.excludeTools;
  if (settings.includeTags) selection.includeTags = settings.includeTags;
  if (settings.excludeTags) selection.excludeTags = settings.excludeTags;
  if (settings.methods) selection.methods = settings.methods;
  if (settings.paths) selection.paths = settings.paths;
  if (settings.readOnly === true) selection.readOnly = true;
  return selection;
}

/**
 * `OPENAPI_MCP_SERVER_VAR_<NAME>` for each variable of the API's server URLs: one variable per
 * name, so they are read here, where the names are known.
 */
export function readServerVariables(model: BridgeModel, env: Environment): Record<string, string> {
  const result: Record<string, string> = {};
  const names = new Set<string>();
  for (const server of [...model.servers, ...model.tools.flatMap((t) => t.http.servers ?? [])]) {
    for (const name of Object.keys(server.variables)) names.add(name);
  }
  for (const name of names) {
    const value = env[toServerVariableEnvName(name)];
    if (value !== undefined && value !== "") result[name] = value;
  }
  return result;
}

export function toBridgeOptions(settings: Settings, inputs: RuntimeInputs): BridgeOptions {
  const { auth, env } = inputs;
  const options: BridgeOptions = {
    access: toToolSelection(settings),
    serverVariables: { ...readServerVariables(inputs.model, env), ...settings.serverVar },
    auth: { ...auth.auth, ...settings.auth },
    oauth: auth.oauth,
    passThroughHeaders: { ...auth.passThroughHeaders, ...settings.passThroughHeader },
    headers: settings.header ?? {},
    retry: { retries: settings.retries ?? OPTION_TABLE.retries.default },
    maxConcurrency: Math.max(1, settings.maxConcurrency ?? OPTION_TABLE.maxConcurrency.default),
    circuitBreaker: {
      failureThreshold: settings.circuitBreaker ?? OPTION_TABLE.circuitBreaker.default,
      cooldownMs: settings.circuitCooldown ?? OPTION_TABLE.circuitCooldown.default,
    },
    env,
  };
  // Left out when not set: the runtime's own defaults apply (the connect timeout's depends on the timeout).
  if (settings.mode !== undefined) options.mode = settings.mode;
  if (settings.baseUrl !== undefined) options.baseUrl = settings.baseUrl;
  if (settings.trustOrigin !== undefined) options.trustedOrigins = settings.trustOrigin;
  if (settings.timeout !== undefined) options.timeoutMs = settings.timeout;
  if (settings.connectTimeout !== undefined) options.connectTimeoutMs = settings.connectTimeout;
  if (settings.maxResponseBytes !== undefined) options.maxResponseBytes = settings.maxResponseBytes;
  if (settings.maxResultChars !== undefined) options.maxResultChars = settings.maxResultChars;
  const code = toSandboxLimits(settings);
  if (Object.keys(code).length > 0) options.code = code;
  if (inputs.hooks !== undefined) options.hooks = inputs.hooks;
  if (inputs.audit !== undefined) options.audit = inputs.audit;
  return options;
}

/** Code mode's sandbox limits the settings give (the others keep their defaults). */
export function toSandboxLimits(settings: Settings): Partial<SandboxLimits> {
  return {
    ...(settings.codeTimeout !== undefined ? { timeoutMs: settings.codeTimeout } : {}),
    ...(settings.codeMemory !== undefined ? { memoryBytes: settings.codeMemory } : {}),
    ...(settings.codeMaxCalls !== undefined ? { maxCalls: settings.codeMaxCalls } : {}),
    ...(settings.codeMaxLogChars !== undefined ? { maxLogChars: settings.codeMaxLogChars } : {}),
    ...(settings.codeMaxStack !== undefined ? { maxStackBytes: settings.codeMaxStack } : {}),
  };
}

export function toHttpServerOptions(settings: Settings): HttpServerOptions {
  const options: HttpServerOptions = {
    host: settings.host ?? OPTION_TABLE.host.default,
    port: settings.port ?? OPTION_TABLE.port.default,
    path: settings.path ?? OPTION_TABLE.path.default,
    stateless: settings.stateless === true,
    allowedOrigins: settings.allowOrigin ?? [],
  };
  if (settings.httpToken) options.bearerToken = settings.httpToken;
  if (settings.maxBodyBytes !== undefined) options.maxBodyBytes = settings.maxBodyBytes;
  if (settings.maxSessions !== undefined) options.maxSessions = settings.maxSessions;
  if (settings.sessionIdleTimeout !== undefined) options.sessionIdleMs = settings.sessionIdleTimeout;
  return options;
}
