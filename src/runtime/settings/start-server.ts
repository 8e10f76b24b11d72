/**
 * Starts a bridge from its settings: the tool selection checked (criteria that match nothing
 * noted, a selection that leaves nothing refused), credentials read, the mistakes check-start.ts
 * knows refused (or warned about), the audit log opened (or the start refused), the runtime created, then stdio or Streamable
 * HTTP, one line on stderr once it is up, and a clean stop on SIGINT/SIGTERM (HTTP) or when
 * the client goes away (stdio). `serve` and every generated server start through here, so they
 * behave the same; only the name at the start of their stderr lines differs. Nothing is
 * written to stdout: in stdio mode it carries MCP messages only.
 */
import { createDiagnostic, failWith, formatDiagnostic } from "../../model/diagnostics.js";
import type { BridgeModel } from "../../model/types.js";
import { selectToolsChecked } from "../access/select.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { BridgeOptions } from "../bridge-options.js";
import type { BridgeRuntime } from "../bridge-runtime.js";
import { formatAutoModeLine, formatServedTools } from "../discovery/mode-line.js";
import { describeCallOrigins } from "../request/origins.js";
import type { HttpServerOptions, RunningHttpServer } from "../transport/streamable-http.js";
import { AUTH_CONFIG_INVALID, readAuthSettings } from "./auth-settings.js";
import { checkStart } from "./check-start.js";
import { OPTION_TABLE, type Settings } from "./option-table.js";
import type { Environment } from "./read-settings.js";
import { readServerVariables, toBridgeOptions, toHttpServerOptions, toToolSelection } from "./to-options.js";

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
  runtime: BridgeRuntime;
  /** The MCP endpoint (Streamable HTTP only). */
  url?: string;
  /** Stops serving, then closes the runtime and the audit log. */
  close(): Promise<void>;
}

export async function startServer(
  model: BridgeModel,
  settings: Settings,
  options: StartOptions,
): Promise<RunningBridge> {
  const note = (text: string) => process.stderr.write(`${options.name}: note: ${text}\n`);
  const selected = selectToolsChecked(model.tools, toToolSelection(settings), `see ${options.help}`);
  for (const criterion of selected.unmatched) note(`${criterion} matches no operation of the spec`);
  if (selected.tools.length === 0 && model.tools.length > 0) {
    failWith(
      "OMB_SELECTION_EMPTY",
      `the tool selection leaves none of the spec's ${model.tools.length} tools to serve`,
      {
        hint: `loosen the selection (${describeSelection(settings)}); \`openapi-mcp-bridge tools SPEC\` lists the tools with their tags`,
      },
    );
  }
  const auth = await readAuthSettings(settings, options.env);
  const warnings = checkStart({
    model,
    tools: selected.tools,
    settings,
    auth,
    env: options.env,
    serverVariables: { ...readServerVariables(model, options.env), ...settings.serverVar },
  });
  for (const warning of warnings) process.stderr.write(`${options.name}: ${formatDiagnostic(warning)}\n`);
  // The MCP SDK and the runtime are loaded only once the settings are known to be good.
  const [{ createBridgeRuntime }, { createAuditLog }] = await Promise.all([
    import("../bridge-runtime.js"),
    import("../audit/audit-log.js"),
  ]);
  let audit: AuditLog | undefined;
  if (settings.auditLog !== undefined) {
    try {
      audit = createAuditLog(settings.auditLog);
    } catch (error) {
      // A compliance record that switched itself off would be worse than no start.
      failWith("OMB_AUDIT_LOG_UNWRITABLE", `--audit-log ${settings.auditLog}: ${(error as Error).message}`, {
        hint: "give a file in a directory you can write to (created with mode 0600), or - for stderr",
      });
    }
  }
  let runtime: BridgeRuntime;
  const bridgeOptions = toBridgeOptions(settings, {
    model,
    env: options.env,
    auth,
    ...(options.hooks ? { hooks: options.hooks } : {}),
    ...(audit ? { audit } : {}),
  });
  try {
    runtime = createBridgeRuntime(model, bridgeOptions);
  } catch (error) {
    await audit?.close();
    return failWith(AUTH_CONFIG_INVALID, (error as Error).message);
  }
  const modeLine = formatAutoModeLine(runtime.mode);
  if (modeLine !== undefined) process.stderr.write(`${options.name}: ${modeLine}\n`);
  const closeRuntime = () => runtime.close().then(() => audit?.close());
  if (settings.transport === "http") {
    const running = await listen(runtime, toHttpServerOptions(settings), closeRuntime);
    process.stderr.write(
      `${options.name}: ${formatServedTools(runtime.mode)} on ${running.url}; ${describeCallOrigins(runtime.model, bridgeOptions)}\n`,
    );
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
    return { runtime, url: running.url, close };
  }
  const [{ LimitedStdioTransport }, { createBridgeServer }] = await Promise.all([
    import("../transport/stdio.js"),
    import("../mcp-server.js"),
  ]);
  const server = createBridgeServer(runtime);
  // Nothing fails silently: a message that cannot be handled or answered is said on stderr.
  server.onerror = (error) => process.stderr.write(`${options.name}: ${error.message}\n`);
  const maxMessageBytes = settings.maxMessageBytes ?? OPTION_TABLE.maxMessageBytes.default;
  const transport = new LimitedStdioTransport({
    maxMessageBytes,
    onRefused: ({ bytes, id }) => {
      const diagnostic = createDiagnostic(
        "OMB_MESSAGE_TOO_LARGE",
        `refused a message of ${bytes} bytes over stdio${id === undefined ? "" : ` (request ${JSON.stringify(id)})`}: the limit is ${maxMessageBytes} bytes; still serving`,
        { hint: "send smaller messages, or raise --max-message-bytes (OPENAPI_MCP_MAX_MESSAGE_BYTES)" },
      );
      process.stderr.write(`${options.name}: ${formatDiagnostic(diagnostic)}\n`);
    },
  });
  transport.onclose = () => {
    void closeRuntime();
  };
  await server.connect(transport);
  process.stderr.write(
    `${options.name}: ${formatServedTools(runtime.mode)} over stdio; ${describeCallOrigins(runtime.model, bridgeOptions)}\n`,
  );
  return { runtime, close: () => server.close() };
}

/** The selection flags that were given, for the hint of a selection that leaves nothing. */
function describeSelection(settings: Settings): string {
  const given = (
    ["includeTools", "excludeTools", "includeTags", "excludeTags", "methods", "paths", "readOnly"] as const
  )
    .filter((key) => settings[key] !== undefined)
    .map((key) => `--${OPTION_TABLE[key].flag}`);
  if (settings.destructive === "refuse") given.push("--destructive refuse");
  return given.length > 0 ? given.join(", ") : "the selection options";
}

/** startHttpServer, with the reasons a listen fails told as diagnostics (the runtime closed first). */
async function listen(
  runtime: BridgeRuntime,
  options: HttpServerOptions,
  closeRuntime: () => Promise<void>,
): Promise<RunningHttpServer> {
  const { startHttpServer } = await import("../transport/streamable-http.js");
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
