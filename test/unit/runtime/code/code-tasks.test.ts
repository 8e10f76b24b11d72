/**
 * Multi-step tasks as code mode programs: each needs 2 to 4 dependent calls (find, then read the
 * details, then act), runs through execute on the runtime against a recording upstream (the shop
 * of shop.ts), and is checked request by request (method, target as sent, JSON body) and by its
 * result. The same kind of tasks against Prism on real specs is test/e2e/code-mode-prism.test.ts.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createBridgeRuntime } from "../../../../src/runtime/engine/bridge-runtime.js";
import { planSpec } from "../../../e2e/safety-support.js";
import { SHOP_SPEC, shopResponder } from "../../../helpers/shop-api.js";
import { startUpstream, type Upstream } from "../../../helpers/upstream.js";

let upstream: Upstream;
const model = planSpec(SHOP_SPEC, { resultSchemas: true });

beforeAll(async () => {
  upstream = await startUpstream(shopResponder);
});
afterAll(async () => {
  await upstream.close();
});
beforeEach(() => upstream.reset());

interface Task {
  task: string;
  program: string;
  /** `METHOD target` of each request, in order, and the JSON body where there is one. */
  requests: (string | [string, unknown])[];
  result: unknown;
}

const TASKS: Task[] = [
  {
    task: "the supplier's email of the cheapest lamp",
    program: `
      const lamps = await api.searchProducts({ q: "lamp" });
      const cheapest = lamps.sort((a, b) => a.price - b.price)[0];
      const product = await api.getProduct({ productId: cheapest.id });
      const supplier = await api.getSupplier({ supplierId: product.supplierId });
      return { product: product.name, email: supplier.email };`,
    requests: ["GET /v1/products?q=lamp", "GET /v1/products/p1", "GET /v1/suppliers/s1"],
    result: { product: "Desk lamp", email: "orders@lumen.example" },
  },
  {
    task: "how many pending orders a customer has, by email",
    program: `
      const [customer] = await api.findCustomers({ email: "ada@example.com" });
      const orders = await api.listCustomerOrders({ customerId: customer.id, status: "pending" });
      return orders.length;`,
    requests: ["GET /v1/customers?email=ada%40example.com", "GET /v1/customers/c1/orders?status=pending"],
    result: { result: 2 },
  },
  {
    task: "order two oak desks for Ada",
    program: `
      const [desk] = await api.searchProducts({ q: "oak desk", limit: 1 });
      const [ada] = await api.findCustomers({ email: "ada@example.com" });
      const order = await api.createOrder({ customerId: ada.id, items: [{ productId: desk.id, quantity: 2 }] });
      return { id: order.id, total: order.total };`,
    requests: [
      "GET /v1/products?q=oak%20desk&limit=1",
      "GET /v1/customers?email=ada%40example.com",
      ["POST /v1/orders", { customerId: "c1", items: [{ productId: "p3", quantity: 2 }] }],
    ],
    result: { id: "o9", total: 600 },
  },
  {
    task: "place an order and read it back",
    program: `
      const placed = await api.createOrder({ customerId: "c1", items: [{ productId: "p1", quantity: 1 }] });
      const read = await api.getOrder({ orderId: placed.id });
      return read.status;`,
    requests: [
      ["POST /v1/orders", { customerId: "c1", items: [{ productId: "p1", quantity: 1 }] }],
      "GET /v1/orders/o9",
    ],
    result: { result: "pending" },
  },
  {
    task: "cancel Ada's newest pending order",
    program: `
      const [ada] = await api.findCustomers({ email: "ada@example.com" });
      const [newest] = await api.listCustomerOrders({ customerId: ada.id, status: "pending" });
      const answer = await api.cancelOrder({ orderId: newest.id });
      return { cancelled: newest.id, answer };`,
    requests: [
      "GET /v1/customers?email=ada%40example.com",
      "GET /v1/customers/c1/orders?status=pending",
      "DELETE /v1/orders/o3",
    ],
    result: { cancelled: "o3", answer: null },
  },
  {
    task: "mark an order shipped and check it",
    program: `
      const updated = await api.updateOrder({ orderId: "o1", status: "shipped" });
      const again = await api.getOrder({ orderId: "o1" });
      return [updated.status, again.id];`,
    requests: [["PATCH /v1/orders/o1", { status: "shipped" }], "GET /v1/orders/o1"],
    result: { result: ["shipped", "o1"] },
  },
  {
    task: "the average rating of the chairs, best first",
    program: `
      const chairs = await api.searchProducts({ q: "chair" });
      const rated = [];
      for (const chair of chairs) {
        const reviews = await api.listReviews({ productId: chair.id });
        const average = reviews.reduce((sum, r) => sum + r.rating, 0) / reviews.length;
        rated.push({ name: chair.name, average });
      }
      return rated.sort((a, b) => b.average - a.average);`,
    requests: ["GET /v1/products?q=chair", "GET /v1/products/p4/reviews", "GET /v1/products/p5/reviews"],
    result: {
      result: [
        { name: "Desk chair", average: 4 },
        { name: "Arm chair", average: 4 },
      ],
    },
  },
  {
    task: "who to ask for restocking what is sold out (calls in parallel)",
    program: `
      const all = await api.searchProducts({});
      const soldOut = all.filter((p) => p.stock === 0);
      const suppliers = await Promise.all(soldOut.map((p) => api.getSupplier({ supplierId: p.supplierId })));
      return soldOut.map((p, i) => p.name + ": " + suppliers[i].email);`,
    requests: ["GET /v1/products", "GET /v1/suppliers/s2", "GET /v1/suppliers/s3"],
    result: { result: ["Floor lamp: sales@casa.example", "Desk chair: hello@sitwell.example"] },
  },
  {
    task: "a product that is gone: catch the 404 and search instead",
    program: `
      try {
        return await api.getProduct({ productId: "p404" });
      } catch (error) {
        if (error.status !== 404) throw error;
        const found = await api.searchProducts({ q: "desk", limit: 2 });
        return { missing: error.category, apiMessage: error.apiMessage, instead: found.map((p) => p.id) };
      }`,
    requests: ["GET /v1/products/p404", "GET /v1/products?q=desk&limit=2"],
    result: { missing: "not_found", apiMessage: "no product p404", instead: ["p1", "p3"] },
  },
  {
    task: "review the product of Ada's last shipped order",
    program: `
      const [ada] = await api.findCustomers({ email: "ada@example.com" });
      const [last] = await api.listCustomerOrders({ customerId: ada.id, status: "shipped" });
      const order = await api.getOrder({ orderId: last.id });
      const review = await api.createReview({ productId: order.items[0].productId, rating: 5, text: "bright" });
      return review.id;`,
    requests: [
      "GET /v1/customers?email=ada%40example.com",
      "GET /v1/customers/c1/orders?status=shipped",
      "GET /v1/orders/o2",
      ["POST /v1/reviews", { productId: "p1", rating: 5, text: "bright" }],
    ],
    result: { result: "r1" },
  },
  {
    task: "the same in TypeScript: the total value of the lamps in stock",
    program: `
      interface Product { id: string; name: string; price: number; stock: number }
      const lamps: Product[] = await api.searchProducts({ q: "lamp" });
      const details = await Promise.all(lamps.map((p): Promise<Product> => api.getProduct({ productId: p.id })));
      return details.reduce((sum: number, p) => sum + p.price * p.stock, 0);`,
    requests: ["GET /v1/products?q=lamp", "GET /v1/products/p1", "GET /v1/products/p2"],
    result: { result: 100 },
  },
];

async function execute(program: string): Promise<CallToolResult> {
  const runtime = createBridgeRuntime(model, { env: {}, baseUrl: `${upstream.url}/v1`, mode: "code" });
  try {
    return await runtime.callTool("execute", { program });
  } finally {
    await runtime.close();
  }
}

describe("multi-step tasks as programs", () => {
  it.each(TASKS)("$task", async ({ program, requests, result }) => {
    const answer = await execute(program);
    expect(answer.isError ?? false, JSON.stringify(answer.content)).toBe(false);
    expect(answer.structuredContent).toEqual(result);
    // Requests in parallel arrive in any order; sequential ones are checked in order.
    const sent = upstream.requests.map((r) => {
      const line = `${r.method} ${r.rawUrl}`;
      return r.body.length > 0 ? [line, r.json()] : line;
    });
    const parallel = program.includes("Promise.all");
    expect(parallel ? [...sent].sort() : sent).toEqual(parallel ? [...requests].sort() : requests);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.length).toBeLessThanOrEqual(4);
  });
});
