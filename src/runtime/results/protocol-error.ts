/**
 * JSON-RPC errors the bridge answers with (an unknown tool, a bad cursor). The SDK's McpError
 * puts "MCP error <code>: " in front of its message, and the SDK client adds it again when it
 * rebuilds the error from the response, so a client read "MCP error -32602: MCP error -32602:
 * Unknown tool". The message sent is the plain text; the error is still an McpError.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export function createInvalidParamsError(message: string): McpError {
  const error = new McpError(ErrorCode.InvalidParams, message);
  error.message = message;
  return error;
}
