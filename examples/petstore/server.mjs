// A tiny in-memory pet store on 127.0.0.1 that implements examples/petstore/openapi.yaml.
import { createServer } from "node:http";

export const DEMO_API_KEY = "demo-secret-key";

export function startPetstore(port = 0) {
  const pets = new Map([
    [1, { id: 1, name: "Rex", status: "available", tags: ["dog"] }],
    [2, { id: 2, name: "Tom", status: "sold", tags: ["cat"] }],
  ]);
  let nextId = 3;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://localhost");
    const send = (status, body) => {
      if (body === undefined) return res.writeHead(status).end();
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    };
    const problem = (status, title, detail) =>
      res
        .writeHead(status, { "content-type": "application/problem+json" })
        .end(JSON.stringify({ title, status, detail }));
    const authorised = req.headers["x-api-key"] === DEMO_API_KEY;
    const match = /^\/v1\/pets(?:\/(\d+))?$/.exec(url.pathname);
    if (!match) return problem(404, "Not Found", `no route for ${url.pathname}`);
    const id = match[1] === undefined ? undefined : Number(match[1]);
    if (id === undefined && req.method === "GET") {
      const status = url.searchParams.get("status");
      const tags = url.searchParams.get("tags")?.split(",") ?? [];
      const limit = Number(url.searchParams.get("limit") ?? 20);
      const list = [...pets.values()]
        .filter((p) => (status ? p.status === status : true))
        .filter((p) => tags.every((t) => p.tags.includes(t)))
        .slice(0, limit);
      return send(200, list);
    }
    if (id === undefined && req.method === "POST") {
      if (!authorised) return problem(401, "Unauthorized", "send a valid X-API-Key header");
      let text = "";
      for await (const chunk of req) text += chunk;
      const body = JSON.parse(text || "{}");
      if (typeof body.name !== "string") return problem(422, "Unprocessable Entity", "name is required");
      const pet = { id: nextId++, status: "available", tags: [], ...body };
      pets.set(pet.id, pet);
      return send(201, pet);
    }
    if (id !== undefined && req.method === "GET") {
      const pet = pets.get(id);
      return pet ? send(200, pet) : problem(404, "Not Found", `no pet with id ${id}`);
    }
    if (id !== undefined && req.method === "DELETE") {
      if (!authorised) return problem(401, "Unauthorized", "send a valid X-API-Key header");
      return pets.delete(id) ? send(204) : problem(404, "Not Found", `no pet with id ${id}`);
    }
    return problem(405, "Method Not Allowed", `${req.method} is not served here`);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: actual } = server.address();
      resolve({ url: `http://127.0.0.1:${actual}/v1`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

// `node examples/petstore/server.mjs [port]`: the example API on its own (default port 8080),
// for the README's commands that point --base-url at http://127.0.0.1:8080/v1.
if (import.meta.url === (await import("node:url")).pathToFileURL(process.argv[1] ?? "").href) {
  const port = Number(process.argv[2] ?? 8080);
  try {
    const api = await startPetstore(port);
    process.stderr.write(`example pet store API on ${api.url} (API key: ${DEMO_API_KEY}); Ctrl-C stops it\n`);
  } catch (error) {
    process.stderr.write(
      `cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}; give another port\n`,
    );
    process.exitCode = 1;
  }
}
