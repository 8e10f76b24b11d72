/**
 * The JSON-RPC answer of a raw POST to the MCP endpoint: the JSON body, or the `data:` event of
 * an SSE answer that carries the request's id (a stream may carry notifications before it).
 */
export async function readJsonRpcAnswer<T = { result?: Record<string, unknown>; error?: unknown } | null>(
  response: Response,
  id = 1,
): Promise<{ text: string; answer: T }> {
  const text = await response.text();
  const json = response.headers.get("content-type")?.includes("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .find((data) => data.includes(`"id":${JSON.stringify(id)}`))
    : text;
  return { text, answer: JSON.parse(json ?? "null") as T };
}
