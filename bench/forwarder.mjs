/**
 * The floor for HTTP throughput: a bare forwarder with no MCP in it. Per incoming POST it reads
 * the JSON body a client would send an MCP server (`tools/call` of getItem), makes the same
 * upstream call the bridges make (`GET /items/{id}` with undici, one keep-alive pool) and returns
 * the upstream's body as it came. What any bridge must at least spend per call: read and parse a
 * request, one upstream round trip, write an answer.
 *
 *   node bench/forwarder.mjs --upstream http://127.0.0.1:PORT [--connections N]
 *
 * Listens on a free port of 127.0.0.1 and prints it on stdout.
 */
import http from "node:http";
import { Agent, request } from "undici";

/** Starts the forwarder; resolves with its node:http server once listening. */
export async function startForwarder({ upstream, connections = 256, port = 0 }) {
  const pool = new Agent({ connections, keepAliveTimeout: 60_000 });
  const server = http.createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const call = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const id = Number(call?.params?.arguments?.id);
      const answer = await request(`${upstream}/items/${encodeURIComponent(String(id))}`, {
        dispatcher: pool,
      });
      const body = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(answer.statusCode, {
        "content-type": answer.headers["content-type"] ?? "application/json",
        "content-length": body.length,
      });
      res.end(body);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" }).end(String(error?.message ?? error));
    }
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

const argument = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};

if (process.argv[1]?.endsWith("forwarder.mjs")) {
  const upstream = argument("--upstream");
  if (upstream === undefined) {
    process.stderr.write("usage: node bench/forwarder.mjs --upstream http://127.0.0.1:PORT\n");
    process.exit(2);
  }
  const server = await startForwarder({ upstream, connections: Number(argument("--connections") ?? 256) });
  process.stdout.write(`${server.address().port}\n`);
}
