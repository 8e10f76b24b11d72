/**
 * A binary answer too large to put in a result (results/success.ts) as a file the client reads:
 * kept in the file store (file-store.ts) and linked from the result with a `resource_link`
 * (MCP 2025-06-18 and later: uri, name, mimeType, size), beside a line that says what the file
 * is. The model reads that line, never the bytes; the client fetches them with `resources/read`.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { formatBytes } from "../../model/format-bytes.js";
import { toMetaKey } from "../server/meta-keys.js";
import type { FileStore } from "./file-store.js";

/**
 * The most bytes of a file put in a result itself (an image as image content, other binary as
 * an embedded resource); a larger one is linked. 64 KiB: a chart or a thumbnail stays visible,
 * a photo, a PDF or an archive does not fill the model's context.
 */
export const INLINE_FILE_BYTES = 64 * 1024;

/** Key of a linked file's facts in a result's `_meta`. */
export const FILE_META_KEY = toMetaKey("file");

/** Where a call's files are kept, and who may read them (results/result-store.ts: resultOwner). */
export interface FileOptions {
  store: FileStore;
  owner?: string;
}

export interface FileFacts {
  status: number;
  mimeType: string;
  bytes: Buffer;
  filename?: string;
  /** What to call the link when the API gave no file name (the tool's name). */
  fallbackName: string;
}

/** The file kept and linked; undefined when the store does not take it (larger than a file may be). */
export function toFileLinkResult(file: FileFacts, options: FileOptions): CallToolResult | undefined {
  const uri = options.store.keep(options.owner, {
    bytes: file.bytes,
    mimeType: file.mimeType,
    ...(file.filename ? { name: file.filename } : {}),
  });
  if (uri === undefined) return undefined;
  const size = file.bytes.length;
  const what = `${file.mimeType}${file.filename ? `, file name ${JSON.stringify(file.filename)}` : ""}, ${formatBytes(size)}`;
  const minutes = Math.max(1, Math.round(options.store.ttlMs / 60_000));
  const text =
    `HTTP ${file.status}: the operation succeeded; the API answered with a file (${what}). ` +
    `It is not shown here: the client can read it as the resource ${uri} (resources/read) for ${minutes} ` +
    "minutes after its last read. Tell the user the file is ready; its bytes are not text you can read.";
  return {
    content: [
      { type: "text", text },
      {
        type: "resource_link",
        uri,
        name: file.filename ?? `${file.fallbackName}${extensionOf(file.mimeType)}`,
        mimeType: file.mimeType,
        size,
      },
    ],
    _meta: {
      [FILE_META_KEY]: {
        uri,
        mimeType: file.mimeType,
        bytes: size,
        ...(file.filename ? { filename: file.filename } : {}),
      },
    },
  };
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": ".pdf",
  "application/zip": ".zip",
  "application/gzip": ".gz",
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "audio/mpeg": ".mp3",
  "video/mp4": ".mp4",
};

function extensionOf(mimeType: string): string {
  return EXTENSIONS[mimeType] ?? "";
}
