/**
 * A small shop API for code mode's tests: its spec (products, suppliers, customers, orders,
 * reviews; JSON answers with schemas, so signatures have result types) and a recording upstream
 * that answers from fixed data, so programs of several dependent calls can be checked request
 * by request.
 */
import type { ServerResponse } from "node:http";
import { type RecordedRequest, sendJson } from "./upstream.js";

const id = { type: "string" };
const product = {
  type: "object",
  required: ["id", "name", "price", "stock"],
  properties: {
    id,
    name: { type: "string" },
    price: { type: "number" },
    stock: { type: "integer" },
    supplierId: id,
  },
};
const order = {
  type: "object",
  required: ["id", "status"],
  properties: {
    id,
    customerId: id,
    status: { type: "string", enum: ["pending", "shipped", "cancelled"] },
    total: { type: "number" },
    items: {
      type: "array",
      items: { type: "object", properties: { productId: id, quantity: { type: "integer" } } },
    },
  },
};
const json = (schema: unknown) => ({
  "200": { description: "OK", content: { "application/json": { schema } } },
  "404": { description: "Not found" },
});
const pathId = (name: string) => [{ name, in: "path", required: true, schema: { type: "string" } }];

export const SHOP_SPEC = {
  openapi: "3.1.0",
  info: { title: "Shop", version: "1" },
  servers: [{ url: "https://shop.example.com/v1" }],
  paths: {
    "/products": {
      get: {
        operationId: "searchProducts",
        summary: "Search products by name",
        tags: ["products"],
        parameters: [
          { name: "q", in: "query", schema: { type: "string" }, description: "words of the name" },
          { name: "limit", in: "query", schema: { type: "integer", maximum: 50 } },
        ],
        responses: json({ type: "array", items: product }),
      },
    },
    "/products/{productId}": {
      get: {
        operationId: "getProduct",
        summary: "Get a product",
        tags: ["products"],
        parameters: pathId("productId"),
        responses: json(product),
      },
    },
    "/products/{productId}/reviews": {
      get: {
        operationId: "listReviews",
        summary: "List the reviews of a product",
        tags: ["reviews"],
        parameters: pathId("productId"),
        responses: json({
          type: "array",
          items: { type: "object", properties: { rating: { type: "integer" }, text: { type: "string" } } },
        }),
      },
    },
    "/reviews": {
      post: {
        operationId: "createReview",
        summary: "Review a product",
        tags: ["reviews"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["productId", "rating"],
                properties: {
                  productId: id,
                  rating: { type: "integer", minimum: 1, maximum: 5 },
                  text: { type: "string" },
                },
              },
            },
          },
        },
        responses: json({ type: "object", properties: { id } }),
      },
    },
    "/suppliers/{supplierId}": {
      get: {
        operationId: "getSupplier",
        summary: "Get a supplier",
        tags: ["suppliers"],
        parameters: pathId("supplierId"),
        responses: json({
          type: "object",
          properties: { id, name: { type: "string" }, email: { type: "string" } },
        }),
      },
    },
    "/customers": {
      get: {
        operationId: "findCustomers",
        summary: "Find customers by email",
        tags: ["customers"],
        parameters: [{ name: "email", in: "query", required: true, schema: { type: "string" } }],
        responses: json({
          type: "array",
          items: { type: "object", properties: { id, email: { type: "string" }, name: { type: "string" } } },
        }),
      },
    },
    "/customers/{customerId}/orders": {
      get: {
        operationId: "listCustomerOrders",
        summary: "List a customer's orders, newest first",
        tags: ["orders"],
        parameters: [
          ...pathId("customerId"),
          {
            name: "status",
            in: "query",
            schema: { type: "string", enum: ["pending", "shipped", "cancelled"] },
          },
        ],
        responses: json({ type: "array", items: order }),
      },
    },
    "/orders": {
      post: {
        operationId: "createOrder",
        summary: "Place an order",
        tags: ["orders"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["customerId", "items"],
                properties: {
                  customerId: id,
                  items: {
                    type: "array",
                    minItems: 1,
                    items: {
                      type: "object",
                      required: ["productId", "quantity"],
                      properties: { productId: id, quantity: { type: "integer", minimum: 1 } },
                    },
                  },
                },
              },
            },
          },
        },
        responses: json(order),
      },
    },
    "/orders/{orderId}": {
      parameters: pathId("orderId"),
      get: { operationId: "getOrder", summary: "Get an order", tags: ["orders"], responses: json(order) },
      patch: {
        operationId: "updateOrder",
        summary: "Change an order's status",
        tags: ["orders"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["status"],
                properties: { status: { type: "string", enum: ["pending", "shipped", "cancelled"] } },
              },
            },
          },
        },
        responses: json(order),
      },
      delete: {
        operationId: "cancelOrder",
        summary: "Cancel an order",
        tags: ["orders"],
        responses: { "204": { description: "Cancelled" }, "404": { description: "Not found" } },
      },
    },
  },
};

const PRODUCTS = [
  { id: "p1", name: "Desk lamp", price: 25, stock: 4, supplierId: "s1" },
  { id: "p2", name: "Floor lamp", price: 80, stock: 0, supplierId: "s2" },
  { id: "p3", name: "Oak desk", price: 300, stock: 2, supplierId: "s1" },
  { id: "p4", name: "Desk chair", price: 120, stock: 0, supplierId: "s3" },
  { id: "p5", name: "Arm chair", price: 200, stock: 7, supplierId: "s2" },
];
const SUPPLIERS: Record<string, { id: string; name: string; email: string }> = {
  s1: { id: "s1", name: "Lumen", email: "orders@lumen.example" },
  s2: { id: "s2", name: "Casa", email: "sales@casa.example" },
  s3: { id: "s3", name: "Sitwell", email: "hello@sitwell.example" },
};
const REVIEWS: Record<string, { rating: number; text: string }[]> = {
  p4: [
    { rating: 5, text: "comfy" },
    { rating: 3, text: "squeaks" },
  ],
  p5: [{ rating: 4, text: "solid" }],
};
const ORDERS = [
  { id: "o3", customerId: "c1", status: "pending", total: 80, items: [{ productId: "p2", quantity: 1 }] },
  { id: "o2", customerId: "c1", status: "shipped", total: 25, items: [{ productId: "p1", quantity: 1 }] },
  { id: "o1", customerId: "c1", status: "pending", total: 300, items: [{ productId: "p3", quantity: 1 }] },
];

type Answer = { status: number; body?: unknown };

const found = (value: unknown, what: string): Answer =>
  value === undefined ? { status: 404, body: { message: `no ${what}` } } : { status: 200, body: value };

/** Routes: method, path pattern, answer from the match, the query and the JSON body. */
const ROUTES: [string, RegExp, (match: string[], query: URLSearchParams, body: () => unknown) => Answer][] = [
  [
    "GET",
    /^\/products$/,
    (_, query) => {
      const words = (query.get("q") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      const hits = PRODUCTS.filter((p) => words.every((w) => p.name.toLowerCase().includes(w)));
      return { status: 200, body: hits.slice(0, Number(query.get("limit") ?? 50)) };
    },
  ],
  [
    "GET",
    /^\/products\/([^/]+)$/,
    ([, id]) =>
      found(
        PRODUCTS.find((p) => p.id === id),
        `product ${id}`,
      ),
  ],
  ["GET", /^\/products\/([^/]+)\/reviews$/, ([, id]) => ({ status: 200, body: REVIEWS[id!] ?? [] })],
  ["POST", /^\/reviews$/, () => ({ status: 200, body: { id: "r1" } })],
  ["GET", /^\/suppliers\/([^/]+)$/, ([, id]) => found(SUPPLIERS[id!], `supplier ${id}`)],
  [
    "GET",
    /^\/customers$/,
    (_, query) => {
      const email = query.get("email");
      return { status: 200, body: email === "ada@example.com" ? [{ id: "c1", email, name: "Ada" }] : [] };
    },
  ],
  [
    "GET",
    /^\/customers\/([^/]+)\/orders$/,
    ([, id], query) => {
      const status = query.get("status");
      return {
        status: 200,
        body: ORDERS.filter((o) => o.customerId === id && (status === null || o.status === status)),
      };
    },
  ],
  [
    "POST",
    /^\/orders$/,
    (_, __, body) => {
      const order = body() as { customerId: string; items: { productId: string; quantity: number }[] };
      const total = order.items.reduce(
        (sum, item) => sum + PRODUCTS.find((p) => p.id === item.productId)!.price * item.quantity,
        0,
      );
      return {
        status: 200,
        body: { id: "o9", customerId: order.customerId, status: "pending", total, items: order.items },
      };
    },
  ],
  ["GET", /^\/orders\/([^/]+)$/, ([, id]) => found(orderOf(id!), `order ${id}`)],
  [
    "PATCH",
    /^\/orders\/([^/]+)$/,
    ([, id], _, body) => {
      const order = orderOf(id!);
      return order === undefined
        ? found(order, `order ${id}`)
        : { status: 200, body: { ...order, ...(body() as object) } };
    },
  ],
  [
    "DELETE",
    /^\/orders\/([^/]+)$/,
    ([, id]) => (orderOf(id!) ? { status: 204 } : found(undefined, `order ${id}`)),
  ],
];

function orderOf(id: string) {
  return (
    ORDERS.find((o) => o.id === id) ??
    (id === "o9" ? { id: "o9", customerId: "c1", status: "pending", total: 600, items: [] } : undefined)
  );
}

/** Answers the shop's requests (paths below `/v1`) from the fixed data above. */
export function shopResponder(req: RecordedRequest, res: ServerResponse): void {
  const url = new URL(req.rawUrl, "http://shop");
  const path = url.pathname.replace(/^\/v1/, "");
  for (const [method, pattern, answer] of ROUTES) {
    const match = pattern.exec(path);
    if (req.method !== method || match === null) continue;
    const { status, body } = answer([...match], url.searchParams, () => req.json());
    if (body === undefined) res.writeHead(status).end();
    else sendJson(res, status, body);
    return;
  }
  sendJson(res, 404, { message: "no such path" });
}
