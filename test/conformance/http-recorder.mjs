/**
 * A pass-through proxy on 127.0.0.1 in front of a Streamable HTTP MCP endpoint that keeps each
 * JSON-RPC message a client POSTs, with the request's MCP-Protocol-Version header, so a check can
 * see which protocol era the client spoke. Responses (JSON or SSE) stream back untouched.
 */
import { createServer, request } from "node:http";

/** Starts the proxy for `endpoint`; `messages` fills with { header, message } in arrival order. */
export function startHttpRecorder(endpoint) {
  const upstream = new URL(endpoint);
  const messages = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && body.length > 0) {
        try {
          const parsed = JSON.parse(body.toString("utf8"));
          for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
            messages.push({ header: req.headers["mcp-protocol-version"], message });
          }
        } catch {
          messages.push({ header: req.headers["mcp-protocol-version"], message: null });
        }
      }
      const headers = { ...req.headers, host: upstream.host };
      const forward = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", (error) => {
        if (res.headersSent) res.destroy(error);
        else res.writeHead(502).end(String(error));
      });
      res.on("close", () => forward.destroy());
      forward.end(body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      resolve({
        endpoint: `http://127.0.0.1:${server.address().port}${upstream.pathname}`,
        messages,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
