/**
 * How each MCP client writes a stdio server in its configuration file, and how it refers to a
 * secret without holding it: one definition for the configurations a generated project ships
 * (mcp-clients/) and for what `openapi-mcp-bridge install` writes into the client's own file.
 *
 * - Claude Desktop, Cursor, Windsurf: `{ mcpServers: { NAME: { command, args, env } } }`
 * - Claude Code: the same with `type: "stdio"` (`.mcp.json`, or `~/.claude.json`'s user scope)
 * - VS Code: `{ servers: { NAME: { type: "stdio", ... } }, inputs: [...] }`
 *
 * Secrets: Cursor and Windsurf expand `${env:NAME}`, Claude Code `${NAME}` (with `:-` so an unset
 * variable is empty, which the bridge reads as unset, instead of the literal text or a config
 * Claude Code refuses), VS Code asks the user once through a `promptString` input with
 * `password: true` and keeps the answer in its secret storage. Claude Desktop has no way to
 * refer to a secret: its reference is undefined, and the caller decides (a placeholder to fill
 * in, or the value when asked to write it).
 */

export const MCP_CLIENTS = ["claude-desktop", "claude-code", "cursor", "vscode", "windsurf"] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** A server started over stdio, as a client starts it. */
export interface StdioServer {
  command: string;
  args: string[];
  /** Variables that are not secrets, as they are. */
  env: Record<string, string>;
  /**
   * Variables that hold secrets: written as the client's reference to them, or `value` when
   * given (the caller decides when a value may be written), or `placeholder` where the client
   * has no reference (Claude Desktop), else left out.
   */
  secrets: { env: string; description: string; value?: string }[];
}

/** A VS Code input: asked once, kept in VS Code's secret storage. */
export interface ClientInput {
  type: "promptString";
  id: string;
  description: string;
  password: true;
}

export interface ClientEntry {
  /** The key of the servers object in the client's file. */
  serversKey: "mcpServers" | "servers";
  entry: Record<string, unknown>;
  /** VS Code's inputs the entry refers to (empty for the others). */
  inputs: ClientInput[];
  /** Secrets neither written nor referred to (Claude Desktop without values). */
  omitted: string[];
}

/** The reference to the variable `env` in `client`'s configuration, or undefined when it has none. */
export function toSecretReference(client: McpClient, env: string): string | undefined {
  switch (client) {
    case "cursor":
    case "windsurf":
      return `\${env:${env}}`;
    case "claude-code":
      return `\${${env}:-}`;
    case "vscode":
      return `\${input:${toInputId(env)}}`;
    case "claude-desktop":
      return undefined;
  }
}

/** VS Code's input id of a variable: `OPENAPI_MCP_AUTH_API_KEY` → `openapi_mcp_auth_api_key`. */
export function toInputId(env: string): string {
  return env.toLowerCase();
}

/**
 * The entry of `server` in `client`'s file. `placeholder`: what Claude Desktop gets for a
 * secret without a value (left out when undefined).
 */
export function toClientEntry(client: McpClient, server: StdioServer, placeholder?: string): ClientEntry {
  const env: Record<string, string> = { ...server.env };
  const inputs: ClientInput[] = [];
  const omitted: string[] = [];
  for (const secret of server.secrets) {
    const reference = toSecretReference(client, secret.env);
    if (secret.value !== undefined) env[secret.env] = secret.value;
    else if (reference !== undefined) env[secret.env] = reference;
    else if (placeholder !== undefined) env[secret.env] = placeholder;
    else omitted.push(secret.env);
    if (client === "vscode" && secret.value === undefined) {
      inputs.push({
        type: "promptString",
        id: toInputId(secret.env),
        description: secret.description,
        password: true,
      });
    }
  }
  const typed = client === "claude-code" || client === "vscode";
  const entry = { ...(typed ? { type: "stdio" } : {}), command: server.command, args: server.args, env };
  return { serversKey: client === "vscode" ? "servers" : "mcpServers", entry, inputs, omitted };
}
