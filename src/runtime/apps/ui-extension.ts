/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, stable 2026-01-26): its identifier, the
 * media type of a view, and whether a client said it renders views. The values are the ones
 * `@modelcontextprotocol/ext-apps/server` exports (EXTENSION_ID, RESOURCE_MIME_TYPE,
 * getUiCapability); they are written here because that package is a development dependency
 * only: as a runtime one it would bring its peers (the MCP client SDK) into every generated
 * project for three strings. test/unit/runtime/apps/ui-extension.test.ts keeps them equal.
 */
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities } from "@modelcontextprotocol/server";
import { isRecord } from "../../model/records.js";

export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/** The media type of an MCP App's HTML. */
export const UI_RESOURCE_MIME_TYPE = "text/html;profile=mcp-app";

/** The flat tool `_meta` key older hosts read (deprecated by the extension, still set beside `ui`). */
export const UI_LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/**
 * True when the capabilities name the extension with the HTML media type (spec: "Server
 * Behavior": check `extensions["io.modelcontextprotocol/ui"].mimeTypes` before offering views).
 */
export function rendersViews(
  capabilities: ClientCapabilities | Record<string, unknown> | undefined,
): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  if (!isRecord(extensions)) return false;
  const settings = extensions[UI_EXTENSION_ID];
  if (!isRecord(settings) || !Array.isArray(settings.mimeTypes)) return false;
  return settings.mimeTypes.includes(UI_RESOURCE_MIME_TYPE);
}

/**
 * The capabilities of the client of one request: on the 2026-07-28 wire those its request
 * carries (every request says them), else those of the session's initialize.
 */
export function requestRendersViews(
  envelope: Record<string, unknown> | undefined,
  sessionCapabilities: ClientCapabilities | undefined,
): boolean {
  const perRequest = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return rendersViews(isRecord(perRequest) ? perRequest : sessionCapabilities);
}
