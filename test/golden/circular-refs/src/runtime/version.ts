/**
 * This server's name and version, as MCP serverInfo reports them: the project's package.json.
 */

export const BRIDGE_NAME = "circular-refs";

export const BRIDGE_VERSION = "0.1.0";
