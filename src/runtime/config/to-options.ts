/**
 * Settings → the options of the runtime's parts: BridgeOptions (createBridgeRuntime), the tool
 * selection, HttpServerOptions (startHttpServer) and the stdio transport's. One mapping, so
 * `serve` and a generated server configure the same runtime the same way. What the settings
 * leave unset stays unset here: each component applies its own defaults, once
 * (engine/bridge-options.ts: resolveBridgeOptions; transport/http-options.ts).
 */
import type { BridgeModel, ServerNode } from "../../model/types.js";
import { DEFAULT_DESTRUCTIVE, type ToolSelection } from "../access/select.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { AuthConfig } from "../auth/auth-config.js";
import { toServerVariableEnvName } from "../auth/credentials.js";
import type { SandboxLimits } from "../code/sandbox/limits.js";
import type { BridgeOptions } from "../engine/bridge-options.js";
import type { ListCacheFacts } from "../server/cache-hints.js";
import type { TelemetryOptions } from "../telemetry/telemetry-options.js";
import type { OAuthResourceOptions } from "../transport/oauth/resource-options.js";
import type { StdioTransportOptions } from "../transport/stdio.js";
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_TRANSPORT,
  type HttpServerOptions,
} from "../transport/transport-options.js";
import type { Settings } from "./option-table.js";
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
  const selection: ToolSelection = { destructive: settings.destructive ?? DEFAULT_DESTRUCTIVE };
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
  const addNames = (servers: readonly ServerNode[]) => {
    for (const server of servers) for (const name of Object.keys(server.variables)) names.add(name);
  };
  addNames(model.servers);
  // Most tools have no servers of their own: no list is made for them.
  for (const tool of model.tools) if (tool.http.servers !== undefined) addNames(tool.http.servers);
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
    env,
  };
  // Left out when not set: the runtime's own defaults apply (the connect timeout's depends on the timeout).
  if (settings.retries !== undefined) options.retry = { retries: settings.retries };
  if (settings.maxConcurrency !== undefined) options.maxConcurrency = settings.maxConcurrency;
  if (settings.operationWait !== undefined) options.operations = { maxWaitMs: settings.operationWait };
  if (settings.circuitBreaker !== undefined || settings.circuitCooldown !== undefined) {
    options.circuitBreaker = {
      ...(settings.circuitBreaker !== undefined ? { failureThreshold: settings.circuitBreaker } : {}),
      ...(settings.circuitCooldown !== undefined ? { cooldownMs: settings.circuitCooldown } : {}),
    };
  }
  if (settings.mode !== undefined) options.mode = settings.mode;
  if (settings.baseUrl !== undefined) options.baseUrl = settings.baseUrl;
  if (settings.trustOrigin !== undefined) options.trustedOrigins = settings.trustOrigin;
  if (settings.allowCredentialArguments !== undefined)
    options.allowCredentialArguments = settings.allowCredentialArguments;
  if (settings.timeout !== undefined) options.timeoutMs = settings.timeout;
  if (settings.connectTimeout !== undefined) options.connectTimeoutMs = settings.connectTimeout;
  if (settings.maxResponseBytes !== undefined) options.maxResponseBytes = settings.maxResponseBytes;
  if (settings.maxResultChars !== undefined) options.maxResultChars = settings.maxResultChars;
  if (settings.tokenStore !== undefined) options.tokenStore = settings.tokenStore;
  if (settings.tokenStoreKey !== undefined) options.tokenStoreKey = settings.tokenStoreKey;
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
    ...(settings.codeMaxCallBytes !== undefined ? { maxCallBytes: settings.codeMaxCallBytes } : {}),
    ...(settings.codeMaxAnswerBytes !== undefined ? { maxAnswerBytes: settings.codeMaxAnswerBytes } : {}),
    ...(settings.codeMaxLogChars !== undefined ? { maxLogChars: settings.codeMaxLogChars } : {}),
    ...(settings.codeMaxStack !== undefined ? { maxStackBytes: settings.codeMaxStack } : {}),
  };
}

/** Which transport the settings ask for. */
export function toTransport(settings: Settings): "stdio" | "http" {
  return settings.transport ?? DEFAULT_TRANSPORT;
}

export function toStdioOptions(settings: Settings): Pick<StdioTransportOptions, "maxMessageBytes"> {
  return { maxMessageBytes: settings.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES };
}

/**
 * The facts of the list answers' cache hint (server/cache-hints.ts): what the settings say
 * (--list-ttl; --http-token controls access per caller on HTTP) with what the start knows
 * (hot reload, pass-through credentials).
 */
export function toListCacheFacts(
  settings: Settings,
  known: { reloads: boolean; perCallerCredentials: boolean },
): ListCacheFacts {
  return {
    reloads: known.reloads,
    accessControlled:
      known.perCallerCredentials ||
      (toTransport(settings) === "http" &&
        (settings.httpToken !== undefined || settings.authIssuer !== undefined)),
    ...(settings.listTtl !== undefined ? { ttlMs: settings.listTtl } : {}),
  };
}

export function toHttpServerOptions(settings: Settings): HttpServerOptions {
  const options: HttpServerOptions = {
    stateless: settings.stateless === true,
    allowedOrigins: settings.allowOrigin ?? [],
  };
  if (settings.host !== undefined) options.host = settings.host;
  if (settings.port !== undefined) options.port = settings.port;
  if (settings.path !== undefined) options.path = settings.path;
  if (settings.httpToken) options.bearerToken = settings.httpToken;
  if (settings.authIssuer !== undefined && settings.authIssuer.length > 0)
    options.oauth = toOAuthResourceOptions(settings);
  if (settings.confirmKey !== undefined) options.confirmKey = settings.confirmKey;
  if (settings.tokenStore !== undefined) options.markStore = settings.tokenStore;
  if (settings.maxBodyBytes !== undefined) options.maxBodyBytes = settings.maxBodyBytes;
  if (settings.maxSessions !== undefined) options.maxSessions = settings.maxSessions;
  if (settings.sessionIdleTimeout !== undefined) options.sessionIdleMs = settings.sessionIdleTimeout;
  return options;
}

/** The OAuth front door's options (transport/oauth/): what the settings give, no default applied. */
export function toOAuthResourceOptions(settings: Settings): OAuthResourceOptions {
  const options: OAuthResourceOptions = { issuers: settings.authIssuer ?? [] };
  if (settings.authResource !== undefined) options.resource = settings.authResource;
  if (settings.authScopes !== undefined) options.baseScopes = settings.authScopes;
  if (settings.authScopeMap !== undefined) options.scopeMap = settings.authScopeMap;
  if (settings.authSpecScopes === true) options.specScopes = true;
  if (settings.authAlgorithms !== undefined) options.algorithms = settings.authAlgorithms;
  if (settings.authClockSkew !== undefined) options.clockSkewMs = settings.authClockSkew;
  if (settings.authIntrospectionClient !== undefined && settings.authIntrospectionSecret !== undefined) {
    options.introspection = {
      clientId: settings.authIntrospectionClient,
      clientSecret: settings.authIntrospectionSecret,
    };
  }
  return options;
}

/**
 * Telemetry's options (telemetry/): the settings, else OpenTelemetry's standard variables
 * (OTEL_EXPORTER_OTLP_ENDPOINT turns OTLP export on, as it does for any OpenTelemetry SDK;
 * OTEL_*_EXPORTER=none turns a signal off). No default applied.
 */
export function toTelemetryOptions(settings: Settings, env: Environment): TelemetryOptions {
  const options: TelemetryOptions = {};
  const endpoint = settings.otlpEndpoint ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (endpoint !== undefined) options.otlpEndpoint = endpoint;
  const protocol = settings.otlpProtocol ?? nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  if (protocol === "http/json" || protocol === "http/protobuf") options.otlpProtocol = protocol;
  if (nonEmpty(env.OTEL_TRACES_EXPORTER) === "none") options.traces = false;
  if (nonEmpty(env.OTEL_METRICS_EXPORTER) === "none") options.otlpMetrics = false;
  const interval = Number(nonEmpty(env.OTEL_METRIC_EXPORT_INTERVAL));
  if (Number.isFinite(interval) && interval > 0) options.metricExportIntervalMs = interval;
  if (settings.metricsPort !== undefined) options.metricsPort = settings.metricsPort;
  if (settings.metricsHost !== undefined) options.metricsHost = settings.metricsHost;
  return options;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
