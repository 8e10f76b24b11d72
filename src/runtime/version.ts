/** The bridge's name and version, as MCP serverInfo reports them. */
export const BRIDGE_NAME = "openapi-mcp-bridge";
export const BRIDGE_VERSION = "0.1.0";
