/**
 * The API the bridges under test call, on 127.0.0.1: every target gets `--base-url` pointing
 * here, so nothing a conformance scenario or an Inspector call triggers leaves the machine. It
 * answers examples/petstore/openapi.yaml's two reads (pet 1 exists) and records what it got, so a
 * tools/call through the Inspector is checked on the wire as well as in the result.
 */
import { createServer } from "node:http";

const PETS = [{ id: 1, name: "Rex", status: "available", tags: ["dog"] }];

/** Starts the recording pet store; `received` lists `METHOD path?query` in arrival order. */
export function startUpstream() {
  const received = [];
  const server = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume();
    const url = new URL(req.url ?? "/", "http://upstream");
    const send = (status, body) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "GET" && url.pathname === "/pets") return send(200, PETS);
    const one = /^\/pets\/(\d+)$/.exec(url.pathname);
    const pet = one && PETS.find((p) => p.id === Number(one[1]));
    if (req.method === "GET" && pet) return send(200, pet);
    return send(404, {
      title: "Not Found",
      status: 404,
      detail: `no route for ${req.method} ${url.pathname}`,
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        received,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
