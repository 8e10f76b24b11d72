/**
 * Code mode programs against Prism (the independent judge of test/corpus: it checks every
 * request against the spec and answers a violation with a 4xx problem) on real specs, through
 * a recording proxy on 127.0.0.1 that keeps each request exactly as the bridge sent it. Each
 * task needs 2 to 4 dependent calls; a request Prism refused would throw in the program and fail
 * the task, and the requests are checked one by one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningPrism, startPrism } from "../corpus/prism.js";
import { type Connected, connectModel, fixture } from "../helpers/bridge.js";
import { startUpstream, type Upstream } from "../helpers/upstream.js";

interface Task {
  task: string;
  program: string;
  /** `METHOD target` of each request (the query included), in order. */
  requests: (string | RegExp)[];
  check(result: unknown): void;
}

const PETSTORE_TASKS: Task[] = [
  {
    task: "the name of the first available pet, read by id",
    program: `
      const pets = await api.findPetsByStatus({ status: ["available"] });
      const pet = await api.getPetById({ petId: pets[0].id });
      return { id: pet.id, name: pet.name };`,
    requests: ["GET /pet/findByStatus?status=available", /^GET \/pet\/-?\d+$/],
    check: (result) => expect(result).toMatchObject({ id: expect.any(Number), name: expect.any(String) }),
  },
  {
    // The spec documents only 405 for addPet: Prism accepts the body (else 422) and answers 405.
    task: "add a pet (the spec's only answer is 405: caught), then find pets by tag",
    program: `
      let status;
      try {
        await api.addPet({ name: "Rex", photoUrls: ["https://img.example/rex.png"], status: "available" });
      } catch (error) {
        status = [error.status, error.category];
      }
      const [pet] = await api.findPetsByTags({ tags: ["dog"] });
      return { status, tagged: typeof pet.id };`,
    requests: ["POST /pet", "GET /pet/findByTags?tags=dog"],
    check: (result) => expect(result).toEqual({ status: [405, "invalid_argument"], tagged: "number" }),
  },
  {
    task: "order the first pet in stock and read the order back",
    program: `
      const inventory = await api.getInventory();
      const [pet] = await api.findPetsByStatus({ status: ["available"] });
      const order = await api.placeOrder({ petId: pet.id, quantity: 1, status: "placed" });
      const again = await api.getOrderById({ orderId: 1 });
      return { statuses: Object.keys(inventory).length >= 0, order: typeof order.id, again: typeof again.status };`,
    requests: [
      "GET /store/inventory",
      "GET /pet/findByStatus?status=available",
      "POST /store/order",
      "GET /store/order/1",
    ],
    check: (result) => expect(result).toEqual({ statuses: true, order: "number", again: "string" }),
  },
  {
    task: "create a user, log in as them, read them back",
    program: `
      await api.createUser({ username: "ada", firstName: "Ada", email: "ada@example.com", password: "pw-123456" });
      const session = await api.loginUser({ username: "ada", password: "pw-123456" });
      const user = await api.getUserByName({ username: "ada" });
      return [typeof session, typeof user.username];`,
    requests: ["POST /user", "GET /user/login?username=ada&password=pw-123456", "GET /user/ada"],
    check: (result) => expect(result).toEqual({ result: ["string", "string"] }),
  },
];

let prism: RunningPrism;
let proxy: Upstream;
let bridge: Connected;

beforeAll(async () => {
  const spec = fixture("petstore", "petstore.openapi30.yaml");
  prism = await startPrism(spec, 60_000);
  // The proxy records each request as sent and passes it on to Prism unchanged.
  proxy = await startUpstream(async (req, res) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of req.rawHeaders) {
      if (!["host", "connection", "content-length", "transfer-encoding"].includes(name.toLowerCase()))
        headers[name] = value;
    }
    const answer = await fetch(`${prism.url}${req.rawUrl}`, {
      method: req.method,
      headers,
      ...(req.body.length > 0 ? { body: req.body } : {}),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, {
      "content-type": answer.headers.get("content-type") ?? "application/octet-stream",
      "content-length": body.length,
    });
    res.end(body);
  });
  const { buildModel } = await import("../../src/index.js");
  const model = await buildModel(spec, { resultSchemas: true, cache: false });
  bridge = await connectModel(model, {
    baseUrl: proxy.url,
    auth: { api_key: "k-123", petstore_auth: "token-456" },
    env: {},
    mode: "code",
    // The login task gives the new user's password on purpose.
    allowCredentialArguments: ["password"],
  });
}, 120_000);

afterAll(async () => {
  await bridge?.close();
  await proxy?.close();
  await prism?.stop();
});

describe("programs against Prism on the petstore spec", () => {
  it("serves code mode's three tools", () => {
    expect(bridge.tools.map((t) => t.name)).toEqual(["search_operations", "describe_operations", "execute"]);
  });

  it.each(PETSTORE_TASKS)("$task", { timeout: 60_000 }, async ({ program, requests, check }) => {
    proxy.reset();
    const result = await bridge.call("execute", { program });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    check(result.structuredContent);
    const sent = proxy.requests.map((r) => `${r.method} ${r.rawUrl}`);
    expect(sent).toHaveLength(requests.length);
    requests.forEach((want, i) => {
      if (typeof want === "string") expect(sent[i]).toBe(want);
      else expect(sent[i]).toMatch(want);
    });
  });
});
