/**
 * What the SDK's era classifier (`isLegacyRequest`) is given for a Node request whose body was
 * already read and parsed: the part of a web `Request` it reads, made without building one.
 * With a parsed body it reads the method and three headers (`classifyEntryRequest`:
 * `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`); a web Request with every header copied in
 * cost more per call than the classification. The unit test holds this to the classification
 * of a real Request, so an SDK that starts reading more shows up there.
 */
import type { IncomingMessage } from "node:http";

/** The request as the classifier sees it; pass the parsed body beside it (never undefined for a POST). */
export function toClassifiedRequest(req: Pick<IncomingMessage, "method" | "headers">): Request {
  const method = req.method ?? "GET";
  const { headers } = req;
  const seen = {
    get: (name: string): string | null => {
      const value = headers[name.toLowerCase()];
      if (value === undefined) return null;
      // As web Headers joins a repeated header.
      return Array.isArray(value) ? value.join(", ") : value;
    },
  };
  return { method, headers: seen } as unknown as Request;
}
