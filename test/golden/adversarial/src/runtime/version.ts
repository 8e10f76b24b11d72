/**
 * This server's name and version, as MCP serverInfo reports them: the project's package.json.
 */

export const BRIDGE_NAME = "evil-process.exit-1-process.exit-2-quoted-single-script-script-alert-1-script";

export const BRIDGE_VERSION = "0.1.0";
