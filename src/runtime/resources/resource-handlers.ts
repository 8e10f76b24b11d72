/**
 * The resources an MCP session can read: the files results linked (file-store.ts), read only by
 * the session (or credential) whose call kept them, and the built-in result view of MCP Apps
 * (apps/result-view.ts). resources/list names the view only: a kept file is private, short-lived
 * and reached from its result's `resource_link`, which the spec does not require to be listed
 * (2025-11-25 server/tools "Resource Links": "not guaranteed to appear in resources/list").
 */
import {
  type ReadResourceResult,
  ResourceNotFoundError,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { listResultViews, readResultView } from "../apps/result-view.js";
import { resultOwner } from "../results/result-store.js";
import { type FileStore, isFileUri, sharedFileStore } from "./file-store.js";

/** The capability the handlers serve (no subscriptions: a kept file never changes). */
export const RESOURCES_CAPABILITY = {} as const;

export interface ResourceSetup {
  /** Whether the result view is served (tools point at it). */
  views: boolean;
  /** The headers of the HTTP request, to tell a stateless request's caller (its credential). */
  headersOf: (ctx: ServerContext) => Record<string, string> | undefined;
  /** Default: the process's store. */
  files?: FileStore;
}

/** Registers resources/list, resources/templates/list and resources/read on one server. */
export function installResourceHandlers(server: Server, setup: ResourceSetup): void {
  server.setRequestHandler("resources/list", () => ({ resources: setup.views ? listResultViews() : [] }));
  server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: [] }));
  server.setRequestHandler("resources/read", (request, ctx): ReadResourceResult => {
    const { uri } = request.params;
    if (setup.views) {
      const view = readResultView(uri);
      if (view !== undefined) return view;
    }
    if (isFileUri(uri)) {
      const headers = setup.headersOf(ctx);
      const owner = resultOwner({
        ...(ctx.sessionId !== undefined ? { session: ctx.sessionId } : {}),
        ...(headers ? { headers } : {}),
      });
      const file = (setup.files ?? sharedFileStore).read(owner, uri);
      if (file !== undefined) {
        return { contents: [{ uri, mimeType: file.mimeType, blob: file.bytes.toString("base64") }] };
      }
      throw new ResourceNotFoundError(
        uri,
        `Resource not found: ${uri}. A file a result linked is kept for ${Math.round((setup.files ?? sharedFileStore).ttlMs / 60_000)} minutes after its last read, ` +
          "and only the session that made the call may read it; call the operation again for a new link.",
      );
    }
    throw new ResourceNotFoundError(uri, `Resource not found: ${uri}.`);
  });
}
