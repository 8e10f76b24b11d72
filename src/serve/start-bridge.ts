/**
 * Starts `serve` of several APIs, or of one with `--watch`: each API made ready as a generated
 * server's is (runtime/config/prepare-api.ts), one connection per API for the bridge's life,
 * their runtimes behind a router under their namespaces (apis/), served through a live runtime
 * whose tool set a reload replaces (reload/), over the transport the settings ask for
 * (runtime/start-server.ts: serveTransport). One API without `--watch` starts as a generated
 * server does (startServer).
 */
import { failWith } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import type { AuditLog } from "../runtime/audit/audit-log.js";
import type { AuthConfig } from "../runtime/auth/auth-config.js";
import { AUTH_CONFIG_INVALID } from "../runtime/config/auth-settings.js";
import type { Settings } from "../runtime/config/option-table.js";
import {
  type ApiInputs,
  type PrepareContext,
  type PreparedApi,
  prepareApi,
} from "../runtime/config/prepare-api.js";
import { toSandboxLimits } from "../runtime/config/to-options.js";
import { formatAutoModeLine, formatServedTools } from "../runtime/discovery/mode-line.js";
import type { ToolRuntime } from "../runtime/engine/bridge-runtime.js";
import { describeCallOrigins } from "../runtime/request/origins.js";
import type { ServedRuntime } from "../runtime/server/served-runtime.js";
import {
  hasPassThrough,
  openAuditLogs,
  type RunningServer,
  type StartOptions,
  sayOn,
  serveTransport,
  startServer,
} from "../runtime/start-server.js";
import type { ApiConnection } from "../runtime/upstream/connection.js";
import type { ApiRouter, ApiRouterOptions } from "./apis/api-router.js";
import { toApiEnvPrefix } from "./config/api-settings.js";
import type { LiveRuntime } from "./reload/live-runtime.js";
import type { Reloads, ReloadTarget } from "./reload/reloader.js";

/** One API of `serve`: what a generated server has, its namespace, and how its spec is watched. */
export interface ServedApiInputs extends ApiInputs {
  /** The API's namespace in a bridge of several APIs (tools named `<namespace>__<tool>`). */
  namespace?: string;
  /** Hot reload (`serve --watch`): the spec watched, and how it is read and planned again. */
  watch?: SpecWatchSource;
}

export interface SpecWatchSource {
  /** The spec file or http(s) URL. */
  source: string;
  /** How often a URL is polled, in milliseconds. */
  intervalMs: number;
  /** Bytes of the spec the watcher reads at the most (the loader's `--max-spec-bytes`). */
  maxBytes: number;
  /** The spec read and planned again (by `serve`, which can plan). */
  load(): Promise<BridgeModel>;
}

export interface RunningBridge extends RunningServer<ServedRuntime> {
  /** The live runtime of a bridge that reloads or serves several APIs. */
  live?: LiveRuntime;
  /** Hot reload of the watched specs (`serve --watch`). */
  reloads?: Reloads;
}

/**
 * A bridge of the APIs given: one without a namespace is served under its tools' own names;
 * with namespaces (each API's own, distinct), every tool is `<namespace>__<tool>`. `settings`
 * are the bridge's (transport, sessions, mode, the audit log of discovery's own tools); each
 * API's settings hold its own.
 */
export async function startBridge(
  apis: readonly ServedApiInputs[],
  settings: Settings,
  options: StartOptions,
): Promise<RunningBridge> {
  const namespaced = apis.length > 1 || apis.some((api) => api.namespace !== undefined);
  checkNamespaces(apis, namespaced);
  const single = apis[0];
  if (!namespaced && single !== undefined && single.watch === undefined) {
    return startServer(single.model, single.settings, { ...options, env: single.env });
  }
  const say = sayOn(options.name);
  const audits = openAuditLogs();
  const context: PrepareContext = {
    help: options.help,
    openAudit: audits.open,
    ...(options.hooks ? { hooks: options.hooks } : {}),
  };
  const prepared: ServedApi[] = [];
  try {
    for (const api of apis) prepared.push(await prepareServedApi(api, context));
  } catch (error) {
    await audits.close();
    throw error;
  }
  for (const api of prepared) for (const note of api.notes) say(note);
  // The MCP SDK and the runtime are loaded only once the settings are known to be good.
  const [{ createApiConnection }, { resolveBridgeOptions }, { createLiveRuntime }] = await Promise.all([
    import("../runtime/upstream/connection.js"),
    import("../runtime/engine/bridge-options.js"),
    import("./reload/live-runtime.js"),
  ]);
  // One connection (pool, breaker, limit) per API for the bridge's life: reloads keep it.
  const connections = prepared.map((api) =>
    createApiConnection(resolveBridgeOptions(api.options).connection),
  );
  const bridgeAudit = settings.auditLog !== undefined ? audits.open(settings.auditLog) : undefined;
  const closeConnections = () => Promise.all(connections.map((c) => c.close())).then(() => {});
  let served: ToolRuntime;
  try {
    served = await createServedRuntime(prepared, namespaced, connections, {
      ...(settings.mode !== undefined ? { mode: settings.mode } : {}),
      code: toSandboxLimits(settings),
      ...(settings.maxResultChars !== undefined ? { maxResultChars: settings.maxResultChars } : {}),
      ...(bridgeAudit ? { audit: bridgeAudit } : {}),
    });
  } catch (error) {
    await closeConnections();
    await audits.close();
    return failWith(AUTH_CONFIG_INVALID, (error as Error).message);
  }
  // Calls refused as "tool changed" are audited in the bridge's log (one API's own log, for one API).
  const audit = bridgeAudit ?? (prepared.length === 1 ? prepared[0]!.options.audit : undefined);
  const live = createLiveRuntime(served, audit ? { audit } : {});
  const modeLine = formatAutoModeLine(live.mode);
  if (modeLine !== undefined) say(modeLine);
  const origins = describeOrigins(served, prepared);
  if (namespaced) for (const line of origins) say(line);
  const reloads = await watchApis({
    apis,
    prepared,
    namespaced,
    live,
    connections,
    say,
    context,
    ...(bridgeAudit ? { bridgeAudit } : {}),
  });
  const running = await serveTransport(live, settings, {
    say,
    describe: (place) =>
      `${formatServedTools(live.mode)} ${place}${namespaced ? ` (${describeApis(prepared)})` : `; ${origins[0]}`}`,
    closeRuntime: () =>
      Promise.resolve(reloads?.close())
        .then(() => live.close())
        .then(closeConnections)
        .then(audits.close),
    env: options.env,
    lists: {
      reloads: reloads !== undefined,
      perCallerCredentials: prepared.some((api) => hasPassThrough(api.options)),
    },
    passThroughHeaders: [
      ...new Set(prepared.flatMap((api) => Object.keys(api.options.passThroughHeaders ?? {}))),
    ],
    ...(options.beforeExit ? { beforeExit: options.beforeExit } : {}),
  });
  return { ...running, live, ...(reloads ? { reloads } : {}) };
}

/**
 * Hot reload of the APIs whose spec is watched: a reload reads and plans the spec again, makes
 * the API ready as at start (the auth settings read then), and builds the runtime that serves
 * it with the same connection, and, in a bridge of several APIs, the others as they are.
 */
async function watchApis(input: {
  apis: readonly ServedApiInputs[];
  prepared: readonly ServedApi[];
  namespaced: boolean;
  live: LiveRuntime;
  connections: readonly ApiConnection[];
  say(line: string): void;
  context: PrepareContext;
  bridgeAudit?: AuditLog;
}): Promise<Reloads | undefined> {
  const watched = input.apis.flatMap((api, index) =>
    api.watch !== undefined ? [{ api, index, watch: api.watch }] : [],
  );
  if (watched.length === 0) return undefined;
  const [{ startReloads }, { assembleBridgeRuntime }, { assembleApiRuntime }] = await Promise.all([
    import("./reload/reloader.js"),
    import("../runtime/engine/bridge-runtime.js"),
    import("./apis/api-router.js"),
  ]);
  // Where each API's calls go; a reload that moves them (a new server URL) says so, as the start did.
  const origins = input.prepared.map((api) => describeCallOrigins(api.model, api.options));
  const targets: ReloadTarget[] = watched.map(({ api, index, watch }) => ({
    ...(api.namespace !== undefined ? { api: api.namespace } : {}),
    source: watch.source,
    intervalMs: watch.intervalMs,
    maxBytes: watch.maxBytes,
    audits: [input.prepared[index]!.options.audit, input.bridgeAudit].filter(
      (a): a is AuditLog => a !== undefined,
    ),
    rebuild: async () => {
      const model = await watch.load();
      const ready = await prepareServedApi(
        { ...api, model },
        { ...input.context, auth: input.prepared[index]!.auth },
      );
      for (const note of ready.notes) input.say(note);
      const goesTo = describeCallOrigins(ready.model, ready.options);
      if (goesTo !== origins[index]) {
        origins[index] = goesTo;
        input.say(
          `${api.namespace !== undefined ? `api ${api.namespace}: ` : ""}${goesTo} (changed by the reload)`,
        );
      }
      const connection = input.connections[index]!;
      const before = input.live.current;
      if (before.kind === "api") {
        // The old runtime holds nothing the new one shares but the connection, which it does not own.
        return {
          runtime: assembleBridgeRuntime(ready.model, ready.options, connection),
          retire: () => before.close(),
        };
      }
      const router = before as ApiRouter;
      const replaced = router.apis.find((served) => served.namespace === api.namespace)!;
      return {
        runtime: router.withApi(
          assembleApiRuntime(
            { namespace: api.namespace!, model: ready.model, options: ready.options },
            connection,
          ),
        ),
        retire: async () => {
          await router.closeOwn();
          await replaced.runtime.close();
        },
      };
    },
  }));
  return startReloads(input.live, targets, { say: input.say });
}

/** One API of the bridge made ready, with its namespace. */
type ServedApi = PreparedApi & { auth: AuthConfig; namespace?: string };

/** An API made ready as a generated server's is; with a namespace, its notes and errors say which API. */
async function prepareServedApi(api: ServedApiInputs, context: PrepareContext): Promise<ServedApi> {
  const { namespace } = api;
  if (namespace === undefined) return prepareApi(api, context);
  const own = { label: `api ${namespace}: `, envPrefix: toApiEnvPrefix(namespace) };
  return { ...(await prepareApi(api, { ...context, ...own })), namespace };
}

/**
 * With several APIs, each has a namespace of its own, and so variables of its own: namespaces
 * are told apart as their `OPENAPI_MCP_<NS>__` prefix is (`a-b` and `a_b` would share one, and
 * a credential meant for one would go to the other's origin).
 */
function checkNamespaces(apis: readonly ServedApiInputs[], namespaced: boolean): void {
  if (!namespaced) return;
  const seen = new Map<string, string>();
  for (const api of apis) {
    if (api.namespace === undefined) {
      failWith(
        "OMB_NAMESPACE",
        `the API ${api.model.info.title} has no namespace, and the bridge serves ${apis.length} APIs`,
      );
    }
    const prefix = toApiEnvPrefix(api.namespace);
    const other = seen.get(prefix);
    if (other !== undefined) {
      failWith(
        "OMB_NAMESPACE",
        other.toLowerCase() === api.namespace.toLowerCase()
          ? `two APIs have the namespace "${api.namespace}"`
          : `the namespaces "${other}" and "${api.namespace}" share the variables ${prefix}*`,
        { hint: "give each API a namespace that differs in its letters or digits" },
      );
    }
    seen.set(prefix, api.namespace);
  }
}

/** The runtime of one API under its own names, or a router of the APIs under their namespaces. */
async function createServedRuntime(
  apis: readonly ServedApi[],
  namespaced: boolean,
  connections: readonly ApiConnection[],
  options: ApiRouterOptions,
): Promise<ToolRuntime> {
  if (!namespaced) {
    const { assembleBridgeRuntime } = await import("../runtime/engine/bridge-runtime.js");
    const api = apis[0]!;
    return assembleBridgeRuntime(api.model, api.options, connections[0]);
  }
  const { createApiRouter, assembleApiRuntime } = await import("./apis/api-router.js");
  return createApiRouter(
    apis.map((api, index) =>
      assembleApiRuntime(
        { namespace: api.namespace!, model: api.model, options: api.options },
        connections[index],
      ),
    ),
    options,
  );
}

/**
 * Where each API's calls go, from the tools it serves: `calls go to ...`, or with several
 * APIs, `api erp (ERP 1.0): 12 tools; calls go to ...`.
 */
function describeOrigins(runtime: ToolRuntime, apis: readonly ServedApi[]): string[] {
  if (runtime.kind === "api") return [describeCallOrigins(runtime.model, apis[0]!.options)];
  return (runtime as ApiRouter).apis.map((served, index) => {
    const { model } = apis[index]!;
    const title = `${model.info.title}${model.info.version ? ` ${model.info.version}` : ""}`;
    const tools = served.runtime.model.tools.length;
    return `api ${served.namespace} (${title}): ${tools} tool${tools === 1 ? "" : "s"}; ${describeCallOrigins(served.runtime.model, apis[index]!.options)}`;
  });
}

/** `2 APIs: erp, crm`. */
function describeApis(apis: readonly ServedApi[]): string {
  return `${apis.length} API${apis.length === 1 ? "" : "s"}: ${apis.map((api) => api.namespace).join(", ")}`;
}
