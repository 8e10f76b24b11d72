/** `serve SPEC`: the live bridge over stdio or Streamable HTTP. */
import { readFile } from "node:fs/promises";
import { Command, Option } from "commander";
import { failWith, formatDiagnostic } from "../model/diagnostics.js";
import type { BridgeModel } from "../model/types.js";
import type { AuthConfig } from "../runtime/auth/auth-config.js";
import { toClientEnvNames } from "../runtime/auth/credentials.js";
import {
  addSpecOptions,
  collectHeaders,
  collectList,
  collectPairs,
  parsePositiveInteger,
  readModelOrSpec,
  requireBaseUrl,
  type SpecFlags,
} from "./options.js";
import { addSelectionOptions, applySelection, type SelectionFlags } from "./selection.js";

interface ServeFlags extends SpecFlags, SelectionFlags {
  baseUrl?: string;
  serverVar?: Record<string, string>;
  auth?: Record<string, string>;
  header?: Record<string, string>;
  transport: "stdio" | "http";
  host: string;
  port: number;
  path: string;
  stateless?: boolean;
  allowOrigin?: string[];
  timeout: number;
  verbose?: boolean;
  connectTimeout?: number;
  retries: number;
  maxConcurrency: number;
  maxResponseBytes?: number;
  maxResultChars?: number;
  circuitBreaker: number;
  circuitCooldown: number;
  authConfig?: string;
  oauthClient?: Record<string, string>;
  passThroughHeader?: Record<string, string>;
  httpToken?: string;
  maxBodyBytes?: number;
  auditLog?: string;
}

export function createServeCommand(): Command {
  const command = new Command("serve")
    .description("serve an OpenAPI spec (or a saved model) as MCP tools, calling the real API")
    .argument("<spec>", "spec file, http(s) URL, - for stdin, or a model file saved by `model`")
    .option("--base-url <url>", "replace the spec's server URL (path included)")
    .option("--server-var <name=value>", "value of a server URL variable (repeatable)", collectPairs)
    .option("--auth <scheme=value>", "credential for a security scheme (repeatable)", collectPairs)
    .option(
      "--header <'Name: value'>",
      "static header sent on every upstream request (repeatable)",
      collectHeaders,
    )
    .addOption(new Option("--transport <kind>", "MCP transport").choices(["stdio", "http"]).default("stdio"))
    .option("--host <host>", "HTTP: address to bind", "127.0.0.1")
    .option("--port <n>", "HTTP: port (0 picks a free one)", parsePositiveInteger, 3000)
    .option("--path <path>", "HTTP: MCP endpoint path", "/mcp")
    .option("--stateless", "HTTP: no sessions, so replicas need no affinity")
    .option(
      "--allow-origin <origins>",
      "HTTP: extra allowed Origin values, comma-separated (repeatable)",
      collectList,
    )
    .option("--timeout <ms>", "per-call upstream timeout in milliseconds", parsePositiveInteger, 30_000)
    .option(
      "--connect-timeout <ms>",
      "upstream connect timeout in milliseconds (default 10000)",
      parsePositiveInteger,
    )
    .option("--retries <n>", "retries of a failed upstream call where safe", parsePositiveInteger, 2)
    .option("--max-concurrency <n>", "upstream calls in flight at once", parsePositiveInteger, 64)
    .option(
      "--max-response-bytes <n>",
      "bytes of an upstream answer read (default 10 MiB)",
      parsePositiveInteger,
    )
    .option(
      "--max-result-chars <n>",
      "characters of text in one tool result; larger answers are cut with a note on how to get the rest (default 25000, 0: no limit)",
      parsePositiveInteger,
    )
    .option(
      "--circuit-breaker <n>",
      "consecutive upstream failures that make calls fail fast (0 disables)",
      parsePositiveInteger,
      5,
    )
    .option(
      "--circuit-cooldown <ms>",
      "how long calls fail fast before a trial call",
      parsePositiveInteger,
      30_000,
    )
    .option("--verbose", "print every spec diagnostic to stderr");
  addSelectionOptions(command, ["allow", "refuse", "confirm"]);
  command
    .option(
      "--auth-config <file>",
      "JSON or YAML file with credentials, OAuth2 clients and pass-through headers",
    )
    .option(
      "--oauth-client <scheme=client_id>",
      "OAuth2 client credentials for a scheme; the secret comes from OPENAPI_MCP_CLIENT_SECRET_<SCHEME> (repeatable)",
      collectPairs,
    )
    .option(
      "--pass-through-header <incoming=scheme>",
      "HTTP: use this header of each MCP request as that request's credential for the scheme (repeatable)",
      collectPairs,
    );
  command
    .option(
      "--http-token <token>",
      "HTTP: require Authorization: Bearer <token> from MCP clients (or set OPENAPI_MCP_HTTP_TOKEN)",
    )
    .option(
      "--max-body-bytes <n>",
      "HTTP: largest MCP request body accepted (default 4 MiB)",
      parsePositiveInteger,
    )
    .option(
      "--audit-log <file>",
      "append one JSON line per tool call (secrets redacted) to FILE, or - for stderr",
    );
  addSpecOptions(command);
  return command.action(async (spec: string, flags: ServeFlags) => {
    if (flags.baseUrl !== undefined) requireBaseUrl(flags.baseUrl);
    const fullModel = await readModelOrSpec(spec, flags);
    reportDiagnostics(fullModel, flags.verbose === true);
    const model = await applySelection(fullModel, flags, "serve");
    // The MCP SDK is loaded only once there is a model to serve, and HTTP only when asked for.
    const [{ createBridgeRuntime }, { createBridgeServer }] = await Promise.all([
      import("../runtime/bridge-runtime.js"),
      import("../runtime/mcp-server.js"),
    ]);
    const authConfig = await readAuthOptions(flags, model);
    const { createAuditLog } = await import("../runtime/audit/audit-log.js");
    const audit = flags.auditLog !== undefined ? createAuditLog(flags.auditLog) : undefined;
    let runtime: ReturnType<typeof createBridgeRuntime>;
    try {
      runtime = createBridgeRuntime(model, {
        access: { destructive: flags.destructive ?? "allow" },
        baseUrl: flags.baseUrl,
        serverVariables: flags.serverVar,
        auth: { ...authConfig.auth, ...flags.auth },
        oauth: authConfig.oauth,
        passThroughHeaders: { ...authConfig.passThroughHeaders, ...flags.passThroughHeader },
        headers: flags.header,
        timeoutMs: flags.timeout,
        ...(flags.connectTimeout !== undefined ? { connectTimeoutMs: flags.connectTimeout } : {}),
        ...(flags.maxResponseBytes !== undefined ? { maxResponseBytes: flags.maxResponseBytes } : {}),
        ...(flags.maxResultChars !== undefined ? { maxResultChars: flags.maxResultChars } : {}),
        retry: { retries: flags.retries },
        maxConcurrency: Math.max(1, flags.maxConcurrency),
        circuitBreaker: { failureThreshold: flags.circuitBreaker, cooldownMs: flags.circuitCooldown },
        env: process.env,
        ...(audit ? { audit } : {}),
      });
    } catch (error) {
      failWith("OMB_AUTH_CONFIG", (error as Error).message);
    }
    const httpToken = flags.httpToken ?? process.env["OPENAPI_MCP_HTTP_TOKEN"];
    if (flags.transport === "http") {
      const { startHttpServer } = await import("../runtime/transport/streamable-http.js");
      const running = await startHttpServer(runtime, {
        host: flags.host,
        port: flags.port,
        path: flags.path,
        stateless: flags.stateless === true,
        allowedOrigins: flags.allowOrigin ?? [],
        ...(httpToken ? { bearerToken: httpToken } : {}),
        ...(flags.maxBodyBytes !== undefined ? { maxBodyBytes: flags.maxBodyBytes } : {}),
      });
      process.stderr.write(`openapi-mcp-bridge: ${model.tools.length} tools on ${running.url}\n`);
      const stop = () => {
        void running
          .close()
          .then(() => runtime.close())
          .then(() => audit?.close())
          .then(() => process.exit(0));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      return;
    }
    const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
    const server = createBridgeServer(runtime);
    const transport = new StdioServerTransport();
    transport.onclose = () => {
      void runtime.close().then(() => audit?.close());
    };
    await server.connect(transport);
    process.stderr.write(`openapi-mcp-bridge: ${model.tools.length} tools over stdio\n`);
  });
}

/** `--auth-config FILE` (JSON or YAML) and `--oauth-client` flags → runtime options. */
async function readAuthOptions(flags: ServeFlags, model: BridgeModel): Promise<AuthConfig> {
  const { parseAuthConfig, AuthConfigError } = await import("../runtime/auth/auth-config.js");
  let config: AuthConfig = { auth: {}, oauth: {}, passThroughHeaders: {} };
  if (flags.authConfig !== undefined) {
    const file = flags.authConfig;
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      failWith("OMB_AUTH_CONFIG", `cannot read the auth config: ${(error as Error).message}`, { file });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      try {
        const { parse } = await import("yaml");
        value = parse(text, { maxAliasCount: 100 });
      } catch (error) {
        failWith("OMB_AUTH_CONFIG", `the auth config is neither JSON nor YAML: ${(error as Error).message}`, {
          file,
        });
      }
    }
    try {
      config = parseAuthConfig(value, process.env);
    } catch (error) {
      if (error instanceof AuthConfigError) failWith("OMB_AUTH_CONFIG", error.message, { file });
      throw error;
    }
  }
  for (const [scheme, clientId] of Object.entries(flags.oauthClient ?? {})) {
    const variable = toClientEnvNames(scheme).secret;
    const clientSecret = process.env[variable];
    if (!clientSecret) {
      failWith("OMB_AUTH_CONFIG", `--oauth-client ${scheme}: set the client secret in ${variable}`);
    }
    config.oauth[scheme] = { ...config.oauth[scheme], clientId, clientSecret };
  }
  for (const scheme of [...Object.keys(config.oauth), ...Object.keys(config.auth)]) {
    if (!Object.hasOwn(model.securitySchemes, scheme)) {
      process.stderr.write(`openapi-mcp-bridge: note: the spec has no security scheme "${scheme}"\n`);
    }
  }
  return config;
}

function reportDiagnostics(model: BridgeModel, verbose: boolean): void {
  const warnings = model.diagnostics.filter((d) => d.severity !== "info");
  if (verbose) {
    for (const d of model.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  } else if (warnings.length > 0) {
    process.stderr.write(
      `openapi-mcp-bridge: ${warnings.length} spec warning(s); run \`openapi-mcp-bridge tools SPEC --verbose\` to see them\n`,
    );
  }
}
