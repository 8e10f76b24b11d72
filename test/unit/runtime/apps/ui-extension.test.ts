import {
  EXTENSION_ID,
  getUiCapability,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from "@modelcontextprotocol/ext-apps/server";
import { describe, expect, it } from "vitest";
import {
  rendersViews,
  UI_EXTENSION_ID,
  UI_LEGACY_RESOURCE_URI_KEY,
  UI_RESOURCE_MIME_TYPE,
} from "../../../../src/runtime/apps/ui-extension.js";

describe("the MCP Apps extension's names", () => {
  it("are the ones @modelcontextprotocol/ext-apps exports", () => {
    expect(UI_EXTENSION_ID).toBe(EXTENSION_ID);
    expect(UI_RESOURCE_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(UI_LEGACY_RESOURCE_URI_KEY).toBe(RESOURCE_URI_META_KEY);
  });

  it.each([
    { given: "no capabilities", capabilities: undefined, want: false },
    { given: "no extensions", capabilities: { tools: {} }, want: false },
    {
      given: "the extension without mimeTypes",
      capabilities: { extensions: { [EXTENSION_ID]: {} } },
      want: false,
    },
    {
      given: "the extension with another media type",
      capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: ["text/uri-list"] } } },
      want: false,
    },
    {
      given: "the extension with the app media type",
      capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
      want: true,
    },
  ])("$given → renders views: $want (as getUiCapability reads them)", ({ capabilities, want }) => {
    expect(rendersViews(capabilities)).toBe(want);
    expect(getUiCapability(capabilities as never)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) ?? false).toBe(
      want,
    );
  });
});
