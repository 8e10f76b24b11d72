/**
 * A small shop API for code mode's tests: its spec (products, suppliers, customers, orders,
 * reviews; JSON answers with schemas, so signatures have result types) and a recording upstream
 * that answers from fixed data, so programs of several dependent calls can be checked request
 * by request.
 */
import type { ServerResponse } from "node:http";
import { type RecordedRequest, sendJson } from "../../../helpers/upstream.js";

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

/** Answers the shop's requests (paths below `/v1`) from the fixed data above. */
export function shopResponder(req: RecordedRequest, res: ServerResponse): void {
  const url = new URL(req.rawUrl, "http://shop");
  const path = url.pathname.replace(/^\/v1/, "");
  const match = (pattern: RegExp) => pattern.exec(path);
  let m: RegExpExecArray | null;
  if (req.method === "GET" && path === "/products") {
    const words = (url.searchParams.get("q") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    const found = PRODUCTS.filter((p) => words.every((w) => p.name.toLowerCase().includes(w)));
    return sendJson(res, 200, found.slice(0, Number(url.searchParams.get("limit") ?? 50)));
  }
  if (req.method === "GET" && (m = match(/^\/products\/([^/]+)$/))) {
    const found = PRODUCTS.find((p) => p.id === m![1]);
    return found ? sendJson(res, 200, found) : sendJson(res, 404, { message: `no product ${m[1]}` });
  }
  if (req.method === "GET" && (m = match(/^\/products\/([^/]+)\/reviews$/)))
    return sendJson(res, 200, REVIEWS[m[1]!] ?? []);
  if (req.method === "POST" && path === "/reviews") return sendJson(res, 200, { id: "r1" });
  if (req.method === "GET" && (m = match(/^\/suppliers\/([^/]+)$/))) {
    const found = SUPPLIERS[m[1]!];
    return found ? sendJson(res, 200, found) : sendJson(res, 404, { message: `no supplier ${m[1]}` });
  }
  if (req.method === "GET" && path === "/customers") {
    const email = url.searchParams.get("email");
    return sendJson(res, 200, email === "ada@example.com" ? [{ id: "c1", email, name: "Ada" }] : []);
  }
  if (req.method === "GET" && (m = match(/^\/customers\/([^/]+)\/orders$/))) {
    const status = url.searchParams.get("status");
    return sendJson(
      res,
      200,
      ORDERS.filter((o) => o.customerId === m![1] && (status === null || o.status === status)),
    );
  }
  if (req.method === "POST" && path === "/orders") {
    const body = JSON.parse(req.body.toString("utf8")) as {
      customerId: string;
      items: { productId: string; quantity: number }[];
    };
    const total = body.items.reduce(
      (sum, item) => sum + PRODUCTS.find((p) => p.id === item.productId)!.price * item.quantity,
      0,
    );
    return sendJson(res, 200, {
      id: "o9",
      customerId: body.customerId,
      status: "pending",
      total,
      items: body.items,
    });
  }
  if ((m = match(/^\/orders\/([^/]+)$/))) {
    const found =
      ORDERS.find((o) => o.id === m![1]) ??
      (m[1] === "o9" ? { id: "o9", customerId: "c1", status: "pending", total: 600, items: [] } : undefined);
    if (!found) return sendJson(res, 404, { message: `no order ${m[1]}` });
    if (req.method === "DELETE") {
      res.writeHead(204).end();
      return;
    }
    if (req.method === "PATCH")
      return sendJson(res, 200, { ...found, ...(JSON.parse(req.body.toString("utf8")) as object) });
    return sendJson(res, 200, found);
  }
  sendJson(res, 404, { message: "no such path" });
}
