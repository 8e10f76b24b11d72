/**
 * This server's name and version, as MCP serverInfo reports them: the project's package.json.
 */

export const BRIDGE_NAME = "naming";

export const BRIDGE_VERSION = "0.1.0";
