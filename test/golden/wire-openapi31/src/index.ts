#!/usr/bin/env node
/**
 * Starts this MCP server over stdio (the default: what Claude Desktop, Claude Code, Cursor and
 * VS Code start) or Streamable HTTP. Every option is a flag or an environment variable; flags
 * win. `--help` lists them. In stdio mode nothing but MCP messages is written to stdout.
 */
import { parseArgs } from "node:util";
import { hooks, model } from "./api.js";
import { type BridgeOptions, createBridgeRuntime, createBridgeServer } from "./runtime/server.js";

const HELP = `Usage: node dist/index.js [options]

Options (environment variable in brackets):
  --transport stdio|http    MCP transport, default stdio [OPENAPI_MCP_TRANSPORT]
  --host HOST               HTTP: address to bind, default 127.0.0.1 [OPENAPI_MCP_HOST]
  --port N                  HTTP: port, default 3000 [OPENAPI_MCP_PORT]
  --path PATH               HTTP: MCP endpoint, default /mcp [OPENAPI_MCP_PATH]
  --stateless               HTTP: no sessions [OPENAPI_MCP_STATELESS=1]
  --allow-origin ORIGINS    HTTP: extra allowed Origins, comma-separated [OPENAPI_MCP_ALLOW_ORIGIN]
  --base-url URL            replace the API's server URL, path included [OPENAPI_MCP_BASE_URL]
  --server-var NAME=VALUE   a server URL variable (repeatable) [OPENAPI_MCP_SERVER_VAR_<NAME>]
  --auth SCHEME=VALUE       a credential for a security scheme (repeatable) [OPENAPI_MCP_AUTH_<SCHEME>]
  --header "Name: value"    a header sent on every upstream request (repeatable)
                            [OPENAPI_MCP_HEADERS, a JSON object of names to values]
  --timeout MS              per-call upstream timeout, default 30000 [OPENAPI_MCP_TIMEOUT]
  --help                    show this help
`;

class UsageError extends Error {}

function pairs(values: string[], separator: string, what: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const value of values) {
    const index = value.indexOf(separator);
    if (index <= 0) throw new UsageError(`expected ${what}, got "${value.slice(0, 40)}"`);
    result[value.slice(0, index).trim()] = value.slice(index + separator.length).trim();
  }
  return result;
}

function wholeNumber(value: string, name: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < 0) {
    throw new UsageError(`${name} must be a whole number, got "${value}"`);
  }
  return n;
}

function httpUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // reported below
  }
  throw new UsageError(`the base URL "${value}" is not an http(s) URL`);
}

function envHeaders(text: string | undefined): Record<string, string> {
  if (text === undefined || text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('OPENAPI_MCP_HEADERS must be a JSON object such as {"X-Tenant": "acme"}');
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError('OPENAPI_MCP_HEADERS must be a JSON object such as {"X-Tenant": "acme"}');
  }
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, String(v)]));
}

/** `OPENAPI_MCP_SERVER_VAR_<NAME>` for each variable of the API's server URLs. */
function envServerVariables(env: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {};
  const names = new Set<string>();
  for (const server of [...model.servers, ...model.tools.flatMap((t) => t.http.servers ?? [])]) {
    for (const name of Object.keys(server.variables)) names.add(name);
  }
  for (const name of names) {
    const value = env[`OPENAPI_MCP_SERVER_VAR_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`];
    if (value !== undefined && value !== "") result[name] = value;
  }
  return result;
}

async function main(): Promise<void> {
  const env = process.env;
  const { values } = parseArgs({
    options: {
      transport: { type: "string" },
      host: { type: "string" },
      port: { type: "string" },
      path: { type: "string" },
      stateless: { type: "boolean" },
      "allow-origin": { type: "string", multiple: true },
      "base-url": { type: "string" },
      "server-var": { type: "string", multiple: true },
      auth: { type: "string", multiple: true },
      header: { type: "string", multiple: true },
      timeout: { type: "string" },
      help: { type: "boolean" },
    },
    strict: true,
  });
  if (values.help) {
    process.stderr.write(HELP);
    return;
  }
  const transport = values.transport ?? env["OPENAPI_MCP_TRANSPORT"] ?? "stdio";
  if (transport !== "stdio" && transport !== "http") {
    throw new UsageError(`the transport must be stdio or http, got "${transport}"`);
  }
  const baseUrl = values["base-url"] ?? (env["OPENAPI_MCP_BASE_URL"] || undefined);
  const timeout = values.timeout ?? env["OPENAPI_MCP_TIMEOUT"];
  const options: BridgeOptions = {
    serverVariables: { ...envServerVariables(env), ...pairs(values["server-var"] ?? [], "=", "NAME=VALUE") },
    auth: pairs(values.auth ?? [], "=", "SCHEME=VALUE"),
    headers: {
      ...envHeaders(env["OPENAPI_MCP_HEADERS"]),
      ...pairs(values.header ?? [], ":", '"Name: value"'),
    },
    env,
    hooks,
  };
  if (baseUrl !== undefined) options.baseUrl = httpUrl(baseUrl);
  if (timeout !== undefined) options.timeoutMs = wholeNumber(timeout, "the timeout");
  const runtime = createBridgeRuntime(model, options);

  if (transport === "http") {
    const { startHttpServer } = await import("./runtime/http-transport.js");
    const origins = [...(values["allow-origin"] ?? []), env["OPENAPI_MCP_ALLOW_ORIGIN"] ?? ""]
      .flatMap((value) => value.split(","))
      .map((value) => value.trim())
      .filter((value) => value !== "");
    const running = await startHttpServer(runtime, {
      host: values.host ?? env["OPENAPI_MCP_HOST"] ?? "127.0.0.1",
      port: wholeNumber(values.port ?? env["OPENAPI_MCP_PORT"] ?? "3000", "the port"),
      path: values.path ?? env["OPENAPI_MCP_PATH"] ?? "/mcp",
      stateless: values.stateless === true || env["OPENAPI_MCP_STATELESS"] === "1",
      allowedOrigins: origins,
    });
    process.stderr.write(`${model.info.title}: ${model.tools.length} tools on ${running.url}\n`);
    const stop = () => {
      void running.close().then(() => runtime.close().then(() => process.exit(0)));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return;
  }

  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const server = createBridgeServer(runtime);
  const stdio = new StdioServerTransport();
  stdio.onclose = () => {
    void runtime.close();
  };
  await server.connect(stdio);
  process.stderr.write(`${model.info.title}: ${model.tools.length} tools over stdio\n`);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`error: ${message}\n`);
  if (!(error instanceof UsageError) && process.env["DEBUG"] && error instanceof Error) {
    process.stderr.write(`${error.stack}\n`);
  }
  process.exitCode =
    error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS") ? 2 : 1;
});
