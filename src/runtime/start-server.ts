/**
 * Starts a generated server (and `serve` of one API): the API made ready from its settings
 * (config/prepare-api.ts: its selection, credentials and the mistakes config/check-start.ts
 * knows), its audit log opened (or the start refused), its runtime created, then stdio or
 * Streamable HTTP, the start-up lines on stderr once it is up, and a clean stop on
 * SIGINT/SIGTERM (HTTP) or when the client goes away (stdio). Nothing is written to stdout: in
 * stdio mode it carries MCP messages only.
 *
 * `serve` of several APIs or with `--watch` (serve/start-bridge.ts) starts through the parts
 * exported here (openAuditLogs, serveTransport), so both behave the same.
 */
import { createDiagnostic, failWith, formatDiagnostic } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import { type AuditLog, createAuditLog } from "./audit/audit-log.js";
import { AUTH_CONFIG_INVALID } from "./config/auth-settings.js";
import type { Settings } from "./config/option-table.js";
import { prepareApi } from "./config/prepare-api.js";
import type { Environment } from "./config/read-settings.js";
import {
  toHttpServerOptions,
  toListCacheFacts,
  toStdioOptions,
  toTelemetryOptions,
  toTransport,
} from "./config/to-options.js";
import { formatAutoModeLine, formatServedTools } from "./discovery/mode-line.js";
import type { BridgeOptions } from "./engine/bridge-options.js";
import { describeCallOrigins } from "./request/origins.js";
import { resolveListCacheHint } from "./server/cache-hints.js";
import type { ServedRuntime } from "./server/served-runtime.js";
import { startTelemetry } from "./telemetry/telemetry.js";
import type { RunningHttpServer } from "./transport/streamable-http.js";
import { type HttpServerOptions, resolveHttpServerOptions } from "./transport/transport-options.js";

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
  /**
   * Work an HTTP server finishes once it has stopped on SIGINT or SIGTERM, before the process
   * exits: `serve`'s first start writes the model cache after it answers, and a deployment
   * stopped before that write ended would start cold again every time.
   */
  beforeExit?: () => Promise<void>;
}

export interface RunningServer<Runtime extends ServedRuntime = ServedRuntime> {
  runtime: Runtime;
  /** The MCP endpoint (Streamable HTTP only). */
  url?: string;
  /** Stops serving, then closes the runtime and the audit log. */
  close(): Promise<void>;
}

/** A server of one API, under its tools' own names. */
export async function startServer(
  model: BridgeModel,
  settings: Settings,
  options: StartOptions,
): Promise<RunningServer> {
  const say = sayOn(options.name);
  const audits = openAuditLogs();
  let api: Awaited<ReturnType<typeof prepareApi>>;
  try {
    api = await prepareApi(
      { model, settings, env: options.env },
      { help: options.help, openAudit: audits.open, ...(options.hooks ? { hooks: options.hooks } : {}) },
    );
  } catch (error) {
    await audits.close();
    throw error;
  }
  for (const note of api.notes) say(note);
  // The MCP SDK and the runtime are loaded only once the settings are known to be good.
  const [{ assembleBridgeRuntime }, { serveRuntime }] = await Promise.all([
    import("./engine/bridge-runtime.js"),
    import("./server/served-runtime.js"),
  ]);
  let runtime: ServedRuntime;
  try {
    runtime = serveRuntime(assembleBridgeRuntime(api.model, api.options));
  } catch (error) {
    await audits.close();
    return failWith(AUTH_CONFIG_INVALID, (error as Error).message);
  }
  const modeLine = formatAutoModeLine(runtime.mode);
  if (modeLine !== undefined) say(modeLine);
  const origins = describeCallOrigins(runtime.model, api.options);
  return serveTransport(runtime, settings, {
    say,
    describe: (place) => `${formatServedTools(runtime.mode)} ${place}; ${origins}`,
    closeRuntime: () => runtime.close().then(audits.close),
    lists: { reloads: false, perCallerCredentials: hasPassThrough(api.options) },
    passThroughHeaders: Object.keys(api.options.passThroughHeaders ?? {}),
    env: options.env,
    ...(options.beforeExit ? { beforeExit: options.beforeExit } : {}),
  });
}

/** Whether calls may carry their caller's own credentials (pass-through headers). */
export function hasPassThrough(options: BridgeOptions): boolean {
  return Object.keys(options.passThroughHeaders ?? {}).length > 0;
}

/** Writes `<name>: <line>` on stderr (never stdout: in stdio mode it carries MCP messages). */
export function sayOn(name: string): (line: string) => void {
  return (line) => process.stderr.write(`${name}: ${line}\n`);
}

export interface AuditLogs {
  /** The log of `--audit-log TARGET`, opened once per file; a log that cannot be opened refuses the start. */
  open(target: string): AuditLog;
  close(): Promise<void>;
}

/** One log per file, however many APIs write to it: their lines never interleave mid-line. */
export function openAuditLogs(): AuditLogs {
  const audits = new Map<string, AuditLog>();
  return {
    open(target) {
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
    },
    close: () => Promise.all([...audits.values()].map((audit) => audit.close())).then(() => {}),
  };
}

export interface TransportHooks {
  say(line: string): void;
  /** The start-up line, given where the server listens (`on http://...`, `over stdio`). */
  describe(place: string): string;
  /** Closes the runtime and what it holds, once the transport stopped. */
  closeRuntime(): Promise<void>;
  /** What the list answers' cache hint depends on besides the settings (server/cache-hints.ts). */
  lists: { reloads: boolean; perCallerCredentials: boolean };
  /** The headers that carry callers' own credentials (pass-through), over HTTP. */
  passThroughHeaders: readonly string[];
  /** Where OpenTelemetry's standard variables (OTEL_EXPORTER_OTLP_ENDPOINT ...) are read. */
  env?: Environment;
  /** StartOptions.beforeExit. */
  beforeExit?: () => Promise<void>;
}

/** Serves `runtime` over the transport the settings ask for, until SIGINT/SIGTERM or the client goes away. */
export async function serveTransport<Runtime extends ServedRuntime>(
  runtime: Runtime,
  settings: Settings,
  hooks: TransportHooks,
): Promise<RunningServer<Runtime>> {
  const { say } = hooks;
  const listCache = resolveListCacheHint(toListCacheFacts(settings, hooks.lists));
  // Off unless asked for; then its packages are loaded, and its stop flushes what is pending.
  let telemetry: Awaited<ReturnType<typeof startTelemetry>>;
  try {
    telemetry = await startTelemetry(toTelemetryOptions(settings, hooks.env ?? {}));
  } catch (error) {
    await hooks.closeRuntime();
    throw error;
  }
  if (telemetry !== undefined) say(telemetry.describe);
  const closeRuntime =
    telemetry === undefined ? hooks.closeRuntime : () => hooks.closeRuntime().then(telemetry.close);
  if (toTransport(settings) === "http") {
    const running = await listen(
      runtime,
      { ...toHttpServerOptions(settings), listCache, passThroughHeaders: hooks.passThroughHeaders },
      closeRuntime,
    );
    const stop = () => {
      void close()
        .then(() => hooks.beforeExit?.())
        .then(() => process.exit(0));
    };
    const close = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      return running.close().then(closeRuntime);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    // Said once the signals are handled: a supervisor that stops the server as soon as it reads
    // this line must not find the signal's default action (an exit with nothing closed).
    say(hooks.describe(`on ${running.url}`));
    return { runtime, url: running.url, close };
  }
  const [{ LimitedStdioTransport }, { createBridgeServer }, { serveStdio }] = await Promise.all([
    import("./transport/stdio.js"),
    import("./server/mcp-server.js"),
    import("@modelcontextprotocol/server/stdio"),
  ]);
  const { maxMessageBytes } = toStdioOptions(settings);
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
    onClosed: () => {
      void closeRuntime();
    },
  });
  // The connection's opening message picks its era: `initialize` (2025-11-25 and older) or a
  // request carrying the 2026-07-28 `_meta` envelope (`server/discover` first, usually). One
  // server from the factory then serves the connection.
  const served = serveStdio(
    () => {
      const server = createBridgeServer(runtime, {}, listCache !== undefined ? { listCache } : {});
      // Nothing fails silently: a message that cannot be handled or answered is said on stderr.
      server.onerror = (error) => say(error.message);
      return server;
    },
    { transport, onerror: (error) => say(error.message) },
  );
  say(hooks.describe("over stdio"));
  return { runtime, close: () => served.close().then(() => telemetry?.close()) };
}

/** startHttpServer, with the reasons a listen fails told as diagnostics (the runtime closed first). */
async function listen(
  runtime: ServedRuntime,
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
    const { host, port } = resolveHttpServerOptions(options);
    const address = `${host}:${port}`;
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
