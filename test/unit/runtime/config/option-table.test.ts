/**
 * The option table itself: names that commander and parseArgs read the same way, the
 * variables generated servers have always read, defaults their own parsers accept, and the
 * help that lists every option.
 */
import { describe, expect, it } from "vitest";
import { describeOption, renderHelp } from "../../../../src/runtime/config/help-text.js";
import { getOptionSpec, OPTION_KEYS, OPTION_TABLE } from "../../../../src/runtime/config/option-table.js";

/** Every variable a generated server read before the table existed: none may go away. */
const GENERATED_SERVER_VARIABLES = [
  "OPENAPI_MCP_TRANSPORT",
  "OPENAPI_MCP_HOST",
  "OPENAPI_MCP_PORT",
  "OPENAPI_MCP_PATH",
  "OPENAPI_MCP_STATELESS",
  "OPENAPI_MCP_ALLOW_ORIGIN",
  "OPENAPI_MCP_BASE_URL",
  "OPENAPI_MCP_SERVER_VAR_<NAME>",
  "OPENAPI_MCP_AUTH_<SCHEME>",
  "OPENAPI_MCP_HEADERS",
  "OPENAPI_MCP_TIMEOUT",
  "OPENAPI_MCP_CONNECT_TIMEOUT",
  "OPENAPI_MCP_RETRIES",
  "OPENAPI_MCP_MAX_CONCURRENCY",
  "OPENAPI_MCP_MAX_RESPONSE_BYTES",
  "OPENAPI_MCP_MAX_RESULT_CHARS",
  "OPENAPI_MCP_CIRCUIT_BREAKER",
  "OPENAPI_MCP_CIRCUIT_COOLDOWN",
  "OPENAPI_MCP_INCLUDE_TOOLS",
  "OPENAPI_MCP_EXCLUDE_TOOLS",
  "OPENAPI_MCP_INCLUDE_TAGS",
  "OPENAPI_MCP_EXCLUDE_TAGS",
  "OPENAPI_MCP_METHODS",
  "OPENAPI_MCP_PATHS",
  "OPENAPI_MCP_READ_ONLY",
  "OPENAPI_MCP_DESTRUCTIVE",
  "OPENAPI_MCP_AUTH_CONFIG",
  "OPENAPI_MCP_HTTP_TOKEN",
  "OPENAPI_MCP_MAX_BODY_BYTES",
  "OPENAPI_MCP_AUDIT_LOG",
];

const specs = OPTION_KEYS.map((key) => [key, getOptionSpec(key)] as const);

describe("the option table", () => {
  it.each(specs)("%s: its key is its flag in camelCase (commander's attribute name)", (key, spec) => {
    expect(spec.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())).toBe(key);
    expect(spec.flag).toMatch(/^[a-z][a-z-]*[a-z]$/);
  });

  it.each(specs)("%s: a switch has no placeholder, any other option has one", (_key, spec) => {
    expect(spec.placeholder === undefined).toBe(spec.parser.isSwitch === true);
  });

  it.each(specs.filter(([, spec]) => spec.default !== undefined))(
    "%s: its default is a value its parser gives",
    (_key, spec) => {
      expect(spec.parser.fromEnv(String(spec.default))).toEqual(spec.default);
    },
  );

  it("has every variable generated servers read, each once", () => {
    const variables = specs.flatMap(([, spec]) => (spec.env === undefined ? [] : [spec.env]));
    expect(new Set(variables).size).toBe(variables.length);
    for (const name of GENERATED_SERVER_VARIABLES) expect(variables).toContain(name);
    for (const name of variables) expect(name).toMatch(/^OPENAPI_MCP_[A-Z_]+(<[A-Z]+>)?$/);
  });

  it("holds the defaults the runtime applies", () => {
    expect({
      timeout: OPTION_TABLE.timeout.default,
      connectTimeout: OPTION_TABLE.connectTimeout.default,
      retries: OPTION_TABLE.retries.default,
      maxConcurrency: OPTION_TABLE.maxConcurrency.default,
      maxResponseBytes: OPTION_TABLE.maxResponseBytes.default,
      maxResultChars: OPTION_TABLE.maxResultChars.default,
      circuitBreaker: OPTION_TABLE.circuitBreaker.default,
      circuitCooldown: OPTION_TABLE.circuitCooldown.default,
      port: OPTION_TABLE.port.default,
      host: OPTION_TABLE.host.default,
      path: OPTION_TABLE.path.default,
      maxBodyBytes: OPTION_TABLE.maxBodyBytes.default,
      transport: OPTION_TABLE.transport.default,
      destructive: OPTION_TABLE.destructive.default,
    }).toEqual({
      timeout: 30_000,
      connectTimeout: 10_000,
      retries: 2,
      maxConcurrency: 64,
      maxResponseBytes: 10 * 1024 * 1024,
      maxResultChars: 25_000,
      circuitBreaker: 5,
      circuitCooldown: 5_000,
      port: 3000,
      host: "127.0.0.1",
      path: "/mcp",
      maxBodyBytes: 4 * 1024 * 1024,
      transport: "stdio",
      destructive: "allow",
    });
  });
});

describe("help from the table", () => {
  it("describes an option with what it applies to, its default and its variable", () => {
    expect(describeOption("port")).toBe(
      "HTTP: the port to listen on (0 picks a free one); default 3000 [OPENAPI_MCP_PORT]",
    );
    expect(describeOption("stateless")).toContain("[OPENAPI_MCP_STATELESS=1]");
    expect(describeOption("methods", { env: false })).toBe(
      "serve only these HTTP methods, e.g. get,post (comma-separated, repeatable)",
    );
  });

  it("lists every flag and every variable in a generated server's --help, in lines of 100", () => {
    const help = renderHelp("node dist/index.js", "Starts the server.");
    for (const [, spec] of specs) {
      expect(help).toContain(`--${spec.flag}`);
      if (spec.env !== undefined) expect(help.replace(/\s+/g, " ")).toContain(spec.env);
    }
    expect(help).toContain("--help");
    for (const line of help.split("\n")) expect(line.length).toBeLessThanOrEqual(100);
    expect(help).not.toContain("`");
  });
});
