/**
 * Starts a bridge from its settings: each API made ready (prepare-api.ts: its selection,
 * credentials and the mistakes check-start.ts knows), the audit logs opened (or the start
 * refused), the runtime created (one API's, or a router of several APIs' under their
 * namespaces, apis/), then stdio or Streamable HTTP, the start-up lines on stderr once it is
 * up, and a clean stop on SIGINT/SIGTERM (HTTP) or when the client goes away (stdio). `serve`
 * and every generated server start through here, so they behave the same; only the name at
 * the start of their stderr lines differs. Nothing is written to stdout: in stdio mode it
 * carries MCP messages only.
 */
import { createDiagnostic, failWith, formatDiagnostic } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import type { ApiRouter, ApiRouterOptions } from "../serve/apis/api-router.js";
import type { LiveRuntime } from "../serve/reload/live-runtime.js";
import type { Reloads, ReloadTarget } from "../serve/reload/reloader.js";
import type { AuditLog } from "./audit/audit-log.js";
import type { AuthConfig } from "./auth/auth-config.js";
import { AUTH_CONFIG_INVALID } from "./config/auth-settings.js";
import { OPTION_TABLE, type Settings } from "./config/option-table.js";
import { type ApiInputs, type PrepareContext, type PreparedApi, prepareApi } from "./config/prepare-api.js";
import type { Environment } from "./config/read-settings.js";
import { toHttpServerOptions, toSandboxLimits } from "./config/to-options.js";
import { formatAutoModeLine, formatServedTools } from "./discovery/mode-line.js";
import type { BridgeOptions } from "./engine/bridge-options.js";
import type { BridgeRuntime } from "./engine/bridge-runtime.js";
import { describeCallOrigins } from "./request/origins.js";
import type { HttpServerOptions, RunningHttpServer } from "./transport/streamable-http.js";
import type { ApiConnection } from "./upstream/connection.js";

/** The code of a port another process listens on already. */
export const PORT_IN_USE = "OMB_PORT_IN_USE";

/** The code of any other address the HTTP server cannot listen on (no permission, no such host). */
export const LISTEN_FAILED = "OMB_LISTEN_FAILED";

export interface StartOptions {
  /** The start of every stderr line: `openapi-mcp-bridge` for serve, the API's title for a generated server. */
  name: string;
  env: Environment;
  /** Where the options are described, for hints: "`openapi-mcp-bridge serve --help`". */
  help: string;
  hooks?: BridgeOptions["hooks"];
}

export interface RunningBridge {
  runtime: LiveRuntime;
  /** Hot reload of the watched specs (`serve --watch`). */
  reloads?: Reloads;
  /** The MCP endpoint (Streamable HTTP only). */
  url?: string;
  /** Stops serving, then closes the runtime and the audit log. */
  close(): Promise<void>;
}

/** A bridge of one API, served under its tools' own names. */
export async function startServer(
  model: BridgeModel,
  settings: Settings,
  options: StartOptions,
): Promise<RunningBridge> {
  return startBridge([{ model, settings, env: options.env }], settings, options);
}

/**
 * A bridge of the APIs given: one without a namespace is served under its tools' own names;
 * with namespaces (each API's own, distinct), every tool is `<namespace>__<tool>`. `settings`
 * are the bridge's (transport, sessions, mode, the audit log of discovery's own tools); each
 * API's settings hold its own.
 */
export async function startBridge(
  apis: readonly ApiInputs[],
  settings: Settings,
  options: StartOptions,
): Promise<RunningBridge> {
  const say = (line: string) => process.stderr.write(`${options.name}: ${line}\n`);
  const namespaced = apis.length > 1 || apis.some((api) => api.namespace !== undefined);
  checkNamespaces(apis, namespaced);
  const { createAuditLog } = await import("./audit/audit-log.js");
  // One log per file, however many APIs write to it: their lines never interleave mid-line.
  const audits = new Map<string, AuditLog>();
  const openAudit = (target: string): AuditLog => {
    let audit = audits.get(target);
    if (audit === undefined) {
      try {
        audit = createAuditLog(target);
      } catch (error) {
        // A compliance record that switched itself off would be worse than no start.
        failWith("OMB_AUDIT_LOG_UNWRITABLE", `--audit-log ${target}: ${(error as Error).message}`, {
          hint: "give a file in a directory you can write to (created with mode 0600), or - for stderr",
        });
      }
      audits.set(target, audit);
    }
    return audit;
  };
  const closeAudits = () => Promise.all([...audits.values()].map((audit) => audit.close())).then(() => {});
  const prepared: (PreparedApi & { auth: AuthConfig })[] = [];
  try {
    for (const api of apis) {
      prepared.push(
        await prepareApi(api, {
          help: options.help,
          openAudit,
          ...(options.hooks ? { hooks: options.hooks } : {}),
        }),
      );
    }
  } catch (error) {
    await closeAudits();
    throw error;
  }
  for (const api of prepared) for (const note of api.notes) say(note);
  // The MCP SDK and the runtime are loaded only once the settings are known to be good.
  const [{ createApiConnection }, { createLiveRuntime }] = await Promise.all([
    import("./upstream/connection.js"),
    import("../serve/reload/live-runtime.js"),
  ]);
  // One connection (pool, breaker, limit) per API for the bridge's life: reloads keep it.
  const connections = prepared.map((api) => createApiConnection(api.options));
  const bridgeAudit = settings.auditLog !== undefined ? openAudit(settings.auditLog) : undefined;
  const closeConnections = () => Promise.all(connections.map((c) => c.close())).then(() => {});
  let served: BridgeRuntime | ApiRouter;
  try {
    served = await createServedRuntime(prepared, namespaced, connections, {
      ...(settings.mode !== undefined ? { mode: settings.mode } : {}),
      code: toSandboxLimits(settings),
      ...(settings.maxResultChars !== undefined ? { maxResultChars: settings.maxResultChars } : {}),
      ...(bridgeAudit ? { audit: bridgeAudit } : {}),
    });
  } catch (error) {
    await closeConnections();
    await closeAudits();
    return failWith(AUTH_CONFIG_INVALID, (error as Error).message);
  }
  // Calls refused as "tool changed" are audited in the bridge's log (one API's own log, for one API).
  const audit = bridgeAudit ?? (prepared.length === 1 ? prepared[0]!.options.audit : undefined);
  const runtime = createLiveRuntime(served, audit ? { audit } : {});
  const modeLine = formatAutoModeLine(runtime.mode);
  if (modeLine !== undefined) say(modeLine);
  const origins = describeOrigins(served, prepared);
  if (namespaced) for (const line of origins) say(line);
  const where = (place: string) =>
    `${formatServedTools(runtime.mode)} ${place}${namespaced ? ` (${describeApis(prepared)})` : `; ${origins[0]}`}`;
  const reloads = await watchApis({
    apis,
    prepared,
    namespaced,
    live: runtime,
    connections,
    say,
    context: { help: options.help, openAudit, ...(options.hooks ? { hooks: options.hooks } : {}) },
    ...(bridgeAudit ? { bridgeAudit } : {}),
  });
  const closeRuntime = () =>
    Promise.resolve(reloads?.close())
      .then(() => runtime.close())
      .then(closeConnections)
      .then(closeAudits);
  if ((settings.transport ?? OPTION_TABLE.transport.default) === "http") {
    const running = await listen(runtime, toHttpServerOptions(settings), closeRuntime);
    say(where(`on ${running.url}`));
    const stop = () => {
      void close().then(() => process.exit(0));
    };
    const close = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      return running.close().then(closeRuntime);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return { runtime, url: running.url, close, ...(reloads ? { reloads } : {}) };
  }
  const [{ LimitedStdioTransport }, { createBridgeServer }] = await Promise.all([
    import("./transport/stdio.js"),
    import("./server/mcp-server.js"),
  ]);
  const server = createBridgeServer(runtime);
  // Nothing fails silently: a message that cannot be handled or answered is said on stderr.
  server.onerror = (error) => say(error.message);
  const maxMessageBytes = settings.maxMessageBytes ?? OPTION_TABLE.maxMessageBytes.default;
  const transport = new LimitedStdioTransport({
    maxMessageBytes,
    onRefused: ({ bytes, id }) => {
      const diagnostic = createDiagnostic(
        "OMB_MESSAGE_TOO_LARGE",
        `refused a message of ${bytes} bytes over stdio${id === undefined ? "" : ` (request ${JSON.stringify(id)})`}: the limit is ${maxMessageBytes} bytes; still serving`,
        { hint: "send smaller messages, or raise --max-message-bytes (OPENAPI_MCP_MAX_MESSAGE_BYTES)" },
      );
      say(formatDiagnostic(diagnostic));
    },
  });
  transport.onclose = () => {
    void closeRuntime();
  };
  await server.connect(transport);
  say(where("over stdio"));
  return { runtime, close: () => server.close(), ...(reloads ? { reloads } : {}) };
}

/**
 * Hot reload of the APIs whose spec is watched: a reload reads and plans the spec again, makes
 * the API ready as at start (the auth settings read then), and builds the runtime that serves
 * it with the same connection, and, in a bridge of several APIs, the others as they are.
 */
async function watchApis(input: {
  apis: readonly ApiInputs[];
  prepared: readonly (PreparedApi & { auth: AuthConfig })[];
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
  const [{ startReloads }, { createBridgeRuntime }, { createApiRuntime }] = await Promise.all([
    import("../serve/reload/reloader.js"),
    import("./engine/bridge-runtime.js"),
    import("../serve/apis/api-router.js"),
  ]);
  const targets: ReloadTarget[] = watched.map(({ api, index, watch }) => ({
    ...(api.namespace !== undefined ? { api: api.namespace } : {}),
    source: watch.source,
    intervalMs: watch.intervalMs,
    audits: [input.prepared[index]!.options.audit, input.bridgeAudit].filter(
      (a): a is AuditLog => a !== undefined,
    ),
    rebuild: async () => {
      const model = await watch.load();
      const ready = await prepareApi(
        { ...api, model },
        { ...input.context, auth: input.prepared[index]!.auth },
      );
      for (const note of ready.notes) input.say(note);
      const connection = input.connections[index]!;
      const before = input.live.current;
      if (!input.namespaced) {
        // The old runtime holds nothing the new one shares but the connection, which it does not own.
        return {
          runtime: createBridgeRuntime(ready.model, ready.options, connection),
          retire: () => before.close(),
        };
      }
      const router = before as ApiRouter;
      const replaced = router.apis.find((served) => served.namespace === api.namespace)!;
      return {
        runtime: router.withApi(
          createApiRuntime(
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

/** With several APIs, each has a namespace of its own (compared without case). */
function checkNamespaces(apis: readonly ApiInputs[], namespaced: boolean): void {
  if (!namespaced) return;
  const seen = new Set<string>();
  for (const api of apis) {
    if (api.namespace === undefined) {
      failWith(
        "OMB_NAMESPACE",
        `the API ${api.model.info.title} has no namespace, and the bridge serves ${apis.length} APIs`,
      );
    }
    const key = api.namespace.toLowerCase();
    if (seen.has(key)) failWith("OMB_NAMESPACE", `two APIs have the namespace "${api.namespace}"`);
    seen.add(key);
  }
}

/** The runtime of one API under its own names, or a router of the APIs under their namespaces. */
async function createServedRuntime(
  apis: readonly PreparedApi[],
  namespaced: boolean,
  connections: readonly ApiConnection[],
  options: ApiRouterOptions,
): Promise<BridgeRuntime | ApiRouter> {
  if (!namespaced) {
    const { createBridgeRuntime } = await import("./engine/bridge-runtime.js");
    const api = apis[0]!;
    return createBridgeRuntime(api.model, api.options, connections[0]);
  }
  const { createApiRouter, createApiRuntime } = await import("../serve/apis/api-router.js");
  return createApiRouter(
    apis.map((api, index) =>
      createApiRuntime(
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
function describeOrigins(runtime: BridgeRuntime | ApiRouter, apis: readonly PreparedApi[]): string[] {
  if (!("apis" in runtime)) return [describeCallOrigins(runtime.model, apis[0]!.options)];
  return runtime.apis.map((served, index) => {
    const { model } = apis[index]!;
    const title = `${model.info.title}${model.info.version ? ` ${model.info.version}` : ""}`;
    const tools = served.runtime.model.tools.length;
    return `api ${served.namespace} (${title}): ${tools} tool${tools === 1 ? "" : "s"}; ${describeCallOrigins(served.runtime.model, apis[index]!.options)}`;
  });
}

/** `2 APIs: erp, crm`. */
function describeApis(apis: readonly PreparedApi[]): string {
  return `${apis.length} API${apis.length === 1 ? "" : "s"}: ${apis.map((api) => api.namespace).join(", ")}`;
}

/** startHttpServer, with the reasons a listen fails told as diagnostics (the runtime closed first). */
async function listen(
  runtime: BridgeRuntime,
  options: HttpServerOptions,
  closeRuntime: () => Promise<void>,
): Promise<RunningHttpServer> {
  const { startHttpServer } = await import("./transport/streamable-http.js");
  try {
    return await startHttpServer(runtime, options);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "string") throw error;
    await closeRuntime();
    const address = `${options.host}:${options.port}`;
    if (code === "EADDRINUSE") {
      return failWith(PORT_IN_USE, `cannot listen on ${address}: the port is already in use`, {
        hint: "stop the other server, or choose another port with --port (or OPENAPI_MCP_PORT); --port 0 picks a free one",
      });
    }
    const hints: Record<string, string> = {
      EACCES: "ports below 1024 need privileges: choose a port from 1024 up with --port",
      EADDRNOTAVAIL: "--host must be an address of this machine, such as 127.0.0.1 or 0.0.0.0",
      ENOTFOUND: "--host must be an address or a name this machine resolves, such as 127.0.0.1",
      EAI_AGAIN: "--host must be an address or a name this machine resolves, such as 127.0.0.1",
    };
    const hint = hints[code];
    if (hint === undefined) throw error;
    return failWith(LISTEN_FAILED, `cannot listen on ${address}: ${(error as Error).message}`, { hint });
  }
}
