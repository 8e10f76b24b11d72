/**
 * The loopback API of the load and HTTP-throughput benches, run as its own process so it does
 * not share an event loop with the clients or the bridge: `GET /items/{id}` answers a fixed
 * small JSON (bench/fixtures/latency.openapi.yaml), anything else 404. Prints its port on its
 * first stdout line.
 */
import http from "node:http";
import { isMain } from "./lib.mjs";

export const ITEM_BODY = JSON.stringify({ id: 1, name: "widget", price: 9.5, tags: ["small", "blue"] });

function serveItems() {
  const server = http.createServer((req, res) => {
    if (req.method === "GET" && /^\/items\/\d+$/.test(req.url ?? "")) {
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(ITEM_BODY),
      });
      res.end(ITEM_BODY);
    } else {
      res.writeHead(404).end();
    }
  });
  // Longer than the clients' keep-alive, so the server never closes a connection they reuse.
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
}

if (isMain(import.meta.url)) serveItems();
