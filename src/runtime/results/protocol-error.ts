/**
 * JSON-RPC errors the bridge answers with (an unknown tool, a bad cursor). The message sent is
 * the plain text (no "MCP error <code>: " in front, which SDK clients add themselves when they
 * rebuild the error from the response); the error is the SDK's ProtocolError.
 */
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

export function createInvalidParamsError(message: string): ProtocolError {
  const error = new ProtocolError(ProtocolErrorCode.InvalidParams, message);
  error.message = message;
  return error;
}
