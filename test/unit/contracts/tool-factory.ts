/** A small ToolNode factory for the lifecycle tests: one realistic tool, edited per case. */
import type { JsonSchema, ToolNode } from "../../../src/model/types.js";

/** `PUT /pets/{petId}`: path, query and JSON body arguments, a `$ref`, an output outline. */
export function makeTool(): ToolNode {
  return {
    name: "update_pet",
    title: "Update a pet",
    description: "Updates a pet in the store.",
    inputSchema: {
      type: "object",
      properties: {
        petId: { type: "integer", description: "The pet's id", minimum: 1 },
        status: { type: "string", enum: ["available", "sold"], default: "available" },
        tags: { type: "array", items: { type: "string", maxLength: 20 } },
        name: { type: "string", maxLength: 50, examples: ["Rex"] },
        owner: { $ref: "#/$defs/Owner" },
      },
      required: ["petId", "name"],
      $defs: {
        Owner: {
          type: "object",
          description: "Who owns the pet",
          properties: {
            login: { type: "string", pattern: "^[a-z]+$" },
            email: { type: "string", format: "email" },
            friends: { type: "array", items: { $ref: "#/$defs/Owner" } },
          },
          required: ["login"],
        },
      },
    },
    outputSchema: {
      type: "object",
      properties: {
        id: {},
        name: {},
        owner: { type: ["object", "null"], properties: { login: {}, email: {} } },
        tags: { type: ["array", "null"], items: { type: ["string", "null"] } },
      },
    },
    annotations: {
      title: "Update a pet",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: {
      method: "put",
      path: "/pets/{petId}",
      parameters: [
        {
          argument: "petId",
          name: "petId",
          in: "path",
          required: true,
          style: "simple",
          explode: false,
          allowReserved: false,
          shape: "primitive",
        },
        {
          argument: "status",
          name: "status",
          in: "query",
          required: false,
          style: "form",
          explode: true,
          allowReserved: false,
          shape: "primitive",
        },
        {
          argument: "tags",
          name: "tags",
          in: "query",
          required: false,
          style: "form",
          explode: true,
          allowReserved: false,
          shape: "array",
        },
      ],
      body: {
        mediaType: "application/json",
        required: true,
        mode: "properties",
        properties: [
          { argument: "name", name: "name", shape: "primitive" },
          { argument: "owner", name: "owner", shape: "object" },
        ],
        kind: "json",
      },
      security: [{ petstore_auth: ["write:pets"] }],
      responses: [{ status: "200", description: "OK", mediaTypes: ["application/json"] }],
      accept: ["application/json"],
    },
    source: { pointer: "/paths/~1pets~1{petId}/put", operationId: "updatePet" },
    tags: ["pet"],
    deprecated: false,
  };
}

/** A copy of the tool with `change` applied. */
export function editTool(tool: ToolNode, change: (tool: ToolNode) => void): ToolNode {
  const copy = structuredClone(tool);
  change(copy);
  return copy;
}

/** The input schema's property `name` (for edits). */
export function prop(tool: ToolNode, name: string): JsonSchema {
  return (tool.inputSchema.properties as Record<string, JsonSchema>)[name]!;
}

/** The input schema's `$defs/Owner` (for edits). */
export function owner(tool: ToolNode): JsonSchema {
  return (tool.inputSchema.$defs as Record<string, JsonSchema>).Owner!;
}

/** A second, unrelated tool (`GET /store/inventory`). */
export function makeOtherTool(): ToolNode {
  return editTool(makeTool(), (t) => {
    t.name = "get_inventory";
    t.source = { pointer: "/paths/~1store~1inventory/get", operationId: "getInventory" };
    t.http = { ...t.http, method: "get", path: "/store/inventory", parameters: [], security: [] };
    delete t.http.body;
    t.inputSchema = { type: "object", properties: {} };
    t.annotations = { ...t.annotations, readOnlyHint: true };
  });
}
