import { describe, expect, it } from "vitest";
import { convertSwagger2 } from "../../../src/generator/spec/normalize/swagger2.js";
import type { Swagger2Document } from "../../../src/generator/spec/openapi-document.js";

type Json = Record<string, unknown>;

/** A minimal 2.0 document around the given parts. */
function swagger(parts: Json): Swagger2Document {
  return { swagger: "2.0", info: { title: "T", version: "1" }, paths: {}, ...parts } as Swagger2Document;
}

function convert(parts: Json) {
  const { document, diagnostics } = convertSwagger2(swagger(parts), "spec.yaml");
  return { doc: document as unknown as Json & { paths: Record<string, Record<string, Json>> }, diagnostics };
}

/** The converted operation for a single `GET /x` (or the given method) with these fields. */
function operation(op: Json, root: Json = {}, method = "get"): Json {
  const { doc } = convert({
    ...root,
    paths: { "/x": { [method]: { responses: { "200": { description: "ok" } }, ...op } } },
  });
  return doc.paths["/x"]![method] as Json;
}

describe("servers", () => {
  it.each([
    [
      "host, basePath and schemes (first scheme first)",
      { host: "api.example.test", basePath: "/v2", schemes: ["http", "https"] },
      [{ url: "http://api.example.test/v2" }, { url: "https://api.example.test/v2" }],
    ],
    [
      "no schemes: https",
      { host: "api.example.test", basePath: "/v2" },
      [{ url: "https://api.example.test/v2" }],
    ],
    ["basePath / adds nothing", { host: "h.test:8080", basePath: "/" }, [{ url: "https://h.test:8080" }]],
    ["trailing slash dropped", { host: "h.test", basePath: "/api/" }, [{ url: "https://h.test/api" }]],
    ["no host: relative basePath", { basePath: "/v1", schemes: ["http"] }, [{ url: "/v1" }]],
    ["no host, no basePath", {}, [{ url: "/" }]],
  ])("%s", (_name, root, servers) => {
    expect(convert(root).doc["servers"]).toEqual(servers);
  });

  it("keeps info, tags, externalDocs, security and root extensions", () => {
    const { doc } = convert({
      info: { title: "T", version: "1", "x-logo": { url: "l.png" } },
      tags: [{ name: "pets", description: "Pets" }],
      externalDocs: { url: "https://docs.test" },
      security: [{ key: [] }],
      "x-root": 1,
    });
    expect(doc["openapi"]).toBe("3.0.3");
    expect(doc["info"]).toEqual({ title: "T", version: "1", "x-logo": { url: "l.png" } });
    expect(doc["tags"]).toEqual([{ name: "pets", description: "Pets" }]);
    expect(doc["externalDocs"]).toEqual({ url: "https://docs.test" });
    expect(doc["security"]).toEqual([{ key: [] }]);
    expect(doc["x-root"]).toBe(1);
  });
});

describe("parameters", () => {
  const array = { type: "array", items: { type: "string" } };
  it.each([
    ["query", undefined, { style: "form", explode: false }],
    ["query", "csv", { style: "form", explode: false }],
    ["query", "ssv", { style: "spaceDelimited", explode: false }],
    ["query", "pipes", { style: "pipeDelimited", explode: false }],
    ["query", "tsv", { style: "tabDelimited", explode: false }],
    ["query", "multi", { style: "form", explode: true }],
    ["header", undefined, { style: "simple", explode: false }],
    ["header", "csv", { style: "simple", explode: false }],
    ["path", "csv", { style: "simple", explode: false }],
  ])("%s collectionFormat %s → %o", (location, collectionFormat, style) => {
    const parameter = { name: "ids", in: location, required: true, ...array, collectionFormat };
    const op = operation({ parameters: [parameter] });
    expect(op["parameters"]).toEqual([
      {
        name: "ids",
        in: location,
        required: true,
        ...style,
        schema: { type: "array", items: { type: "string" } },
      },
    ]);
  });

  it("moves validation keywords into schema and keeps description, allowEmptyValue and x-*", () => {
    const op = operation({
      parameters: [
        {
          name: "limit",
          in: "query",
          description: "How many",
          required: false,
          allowEmptyValue: true,
          type: "integer",
          format: "int32",
          minimum: 1,
          maximum: 100,
          exclusiveMaximum: true,
          default: 20,
          enum: [10, 20, 50],
          multipleOf: 10,
          "x-nullable": true,
          "x-internal": "yes",
        },
      ],
    });
    expect(op["parameters"]).toEqual([
      {
        name: "limit",
        in: "query",
        description: "How many",
        required: false,
        allowEmptyValue: true,
        schema: {
          type: "integer",
          format: "int32",
          default: 20,
          maximum: 100,
          exclusiveMaximum: true,
          minimum: 1,
          enum: [10, 20, 50],
          multipleOf: 10,
          nullable: true,
        },
        "x-internal": "yes",
      },
    ]);
  });

  it("nested items become nested schemas; a nested collectionFormat is kept with a warning", () => {
    const { doc, diagnostics } = convert({
      paths: {
        "/x": {
          get: {
            parameters: [
              {
                name: "grid",
                in: "query",
                type: "array",
                collectionFormat: "pipes",
                items: { type: "array", collectionFormat: "csv", items: { type: "integer", maximum: 9 } },
              },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect((doc.paths["/x"]!["get"] as Json)["parameters"]).toEqual([
      {
        name: "grid",
        in: "query",
        style: "pipeDelimited",
        explode: false,
        schema: {
          type: "array",
          items: { type: "array", items: { type: "integer", maximum: 9 }, "x-collectionFormat": "csv" },
        },
      },
    ]);
    expect(diagnostics).toEqual([
      {
        code: "OMB_SWAGGER2_CONVERT",
        severity: "warning",
        message:
          "collectionFormat on nested items cannot be expressed in OpenAPI 3; kept as x-collectionFormat",
        file: "spec.yaml",
        pointer: "/paths/~1x/get/parameters/0/items",
      },
    ]);
  });

  it("a path parameter is always required", () => {
    const op = operation({ parameters: [{ name: "id", in: "path", required: true, type: "string" }] });
    expect(op["parameters"]).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
    ]);
  });

  it("warns about an unknown collectionFormat, with the pointer", () => {
    const { diagnostics } = convert({
      paths: {
        "/x": {
          get: {
            parameters: [
              { name: "a", in: "query", type: "array", items: { type: "string" }, collectionFormat: "xyz" },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(diagnostics).toEqual([
      {
        code: "OMB_SWAGGER2_CONVERT",
        severity: "warning",
        message: 'unknown collectionFormat "xyz"; treated as csv',
        file: "spec.yaml",
        pointer: "/paths/~1x/get/parameters/0",
      },
    ]);
  });
});

describe("request bodies", () => {
  const pet = { $ref: "#/definitions/Pet" };
  const definitions = { Pet: { type: "object" } };

  it.each([
    [
      "operation consumes",
      { consumes: ["application/xml", "application/json"] },
      {},
      ["application/xml", "application/json"],
    ],
    ["global consumes", {}, { consumes: ["text/plain"] }, ["text/plain"]],
    ["default application/json", {}, {}, ["application/json"]],
  ])("in: body → requestBody for each media type (%s)", (_name, opFields, root, mediaTypes) => {
    const op = operation(
      {
        ...opFields,
        parameters: [
          { name: "pet", in: "body", description: "The pet", required: true, schema: pet, "x-b": 1 },
        ],
      },
      { ...root, definitions },
      "post",
    );
    expect(op["parameters"]).toBeUndefined();
    expect(op["requestBody"]).toEqual({
      description: "The pet",
      content: Object.fromEntries(
        mediaTypes.map((m) => [m, { schema: { $ref: "#/components/schemas/Pet" } }]),
      ),
      required: true,
      "x-codegen-request-body-name": "pet",
      "x-b": 1,
    });
  });

  // Planning reads `required: false` as "the body may be left out" and nothing as the default
  // (compile/request-body.ts readBodyPresence), so the conversion keeps what the file says.
  it.each([
    { given: true, want: true },
    { given: false, want: false },
    { given: undefined, want: undefined },
  ])("a body parameter's required: $given stays $want", ({ given, want }) => {
    const parameter: Json = { name: "pet", in: "body", schema: { type: "object" } };
    if (given !== undefined) parameter.required = given;
    const op = operation({ parameters: [parameter] }, {}, "post");
    expect((op["requestBody"] as Json)["required"]).toBe(want);
  });

  it("formData → application/x-www-form-urlencoded object with encoding for arrays", () => {
    const op = operation(
      {
        parameters: [
          { name: "name", in: "formData", required: true, type: "string", description: "Name" },
          {
            name: "tags",
            in: "formData",
            type: "array",
            items: { type: "string" },
            collectionFormat: "pipes",
          },
          {
            name: "ids",
            in: "formData",
            type: "array",
            items: { type: "integer" },
            collectionFormat: "multi",
          },
          { name: "q", in: "query", type: "string" },
        ],
      },
      {},
      "post",
    );
    expect(op["parameters"]).toEqual([{ name: "q", in: "query", schema: { type: "string" } }]);
    expect(op["requestBody"]).toEqual({
      content: {
        "application/x-www-form-urlencoded": {
          schema: {
            type: "object",
            properties: {
              name: { description: "Name", type: "string" },
              tags: { type: "array", items: { type: "string" } },
              ids: { type: "array", items: { type: "integer" } },
            },
            required: ["name"],
          },
          encoding: {
            tags: { style: "pipeDelimited", explode: false },
            ids: { style: "form", explode: true },
          },
        },
      },
      required: true,
    });
  });

  it("formData with a file → multipart/form-data with a binary string", () => {
    const op = operation(
      {
        consumes: ["multipart/form-data"],
        parameters: [
          { name: "file", in: "formData", type: "file", "x-max-size": "1MB" },
          { name: "note", in: "formData", type: "string" },
        ],
      },
      {},
      "post",
    );
    expect(op["requestBody"]).toEqual({
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              file: { type: "string", format: "binary", "x-max-size": "1MB" },
              note: { type: "string" },
            },
          },
        },
      },
      required: false,
    });
  });

  it("a file with only urlencoded in consumes still becomes multipart, with a warning", () => {
    const { doc, diagnostics } = convert({
      consumes: ["application/x-www-form-urlencoded"],
      paths: {
        "/x": {
          post: {
            parameters: [{ name: "f", in: "formData", type: "file", required: true }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const requestBody = (doc.paths["/x"]!["post"] as Json)["requestBody"] as Json;
    expect(Object.keys(requestBody["content"] as Json)).toEqual(["multipart/form-data"]);
    expect(diagnostics.map((d) => [d.pointer, d.message])).toEqual([
      [
        "/consumes",
        "a file parameter needs multipart/form-data; using it instead of application/x-www-form-urlencoded",
      ],
    ]);
  });

  it("both consumes form types, no file: both media types", () => {
    const op = operation(
      {
        consumes: ["application/x-www-form-urlencoded", "multipart/form-data"],
        parameters: [{ name: "a", in: "formData", type: "string" }],
      },
      {},
      "post",
    );
    expect(Object.keys((op["requestBody"] as Json)["content"] as Json)).toEqual([
      "application/x-www-form-urlencoded",
      "multipart/form-data",
    ]);
  });

  it("body and formData together: body wins, with a warning", () => {
    const { diagnostics } = convert({
      paths: {
        "/x": {
          post: {
            parameters: [
              { name: "b", in: "body", schema: { type: "object" } },
              { name: "f", in: "formData", type: "string" },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(diagnostics.map((d) => [d.pointer, d.message])).toEqual([
      [
        "/paths/~1x/post/parameters",
        "both a body and formData parameters; the formData parameters are dropped",
      ],
    ]);
  });

  it("path-level parameters: non-body stay on the path, body moves into each operation", () => {
    const { doc } = convert({
      paths: {
        "/x/{id}": {
          parameters: [
            { name: "id", in: "path", required: true, type: "string" },
            { name: "payload", in: "body", schema: { type: "object" } },
          ],
          put: { responses: { "200": { description: "ok" } } },
          patch: {
            parameters: [{ name: "payload", in: "body", schema: { type: "string" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const item = doc.paths["/x/{id}"]!;
    expect(item["parameters"]).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
    ]);
    expect((item["put"] as Json)["requestBody"]).toEqual({
      content: { "application/json": { schema: { type: "object" } } },
      "x-codegen-request-body-name": "payload",
    });
    expect(((item["patch"] as Json)["requestBody"] as Json)["content"]).toEqual({
      "application/json": { schema: { type: "string" } },
    });
  });
});

describe("responses", () => {
  it("produces → content per media type; no schema → description only; headers converted", () => {
    const op = operation({
      produces: ["application/json", "application/xml"],
      responses: {
        "200": {
          description: "ok",
          schema: { type: "array", items: { type: "string" } },
          headers: {
            "X-Rate": { type: "integer", description: "Left" },
            "X-Ids": { type: "array", items: { type: "string" }, "x-h": true },
          },
          examples: { "application/json": ["a"] },
          "x-r": 1,
        },
        "204": { description: "none" },
      },
    });
    expect(op["responses"]).toEqual({
      "200": {
        description: "ok",
        headers: {
          "X-Rate": { description: "Left", schema: { type: "integer" } },
          "X-Ids": { schema: { type: "array", items: { type: "string" } }, "x-h": true },
        },
        content: {
          "application/json": { schema: { type: "array", items: { type: "string" } }, example: ["a"] },
          "application/xml": { schema: { type: "array", items: { type: "string" } } },
        },
        "x-r": 1,
      },
      "204": { description: "none" },
    });
  });

  it("global produces is used when the operation has none; a file schema is binary", () => {
    const op = operation(
      { responses: { "200": { description: "the file", schema: { type: "file" } } } },
      { produces: ["application/octet-stream"] },
    );
    expect(op["responses"]).toEqual({
      "200": {
        description: "the file",
        content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
      },
    });
  });

  it("#/responses/X stays a $ref, unless the operation produces other media types", () => {
    const { doc } = convert({
      produces: ["application/json"],
      responses: { NotFound: { description: "missing", schema: { $ref: "#/definitions/Error" } } },
      definitions: { Error: { type: "object" } },
      paths: {
        "/a": { get: { responses: { "404": { $ref: "#/responses/NotFound" } } } },
        "/b": { get: { produces: ["text/xml"], responses: { "404": { $ref: "#/responses/NotFound" } } } },
      },
    });
    expect(doc["components"]).toMatchObject({
      responses: {
        NotFound: {
          description: "missing",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    });
    expect((doc.paths["/a"]!["get"] as Json)["responses"]).toEqual({
      "404": { $ref: "#/components/responses/NotFound" },
    });
    expect((doc.paths["/b"]!["get"] as Json)["responses"]).toEqual({
      "404": {
        description: "missing",
        content: { "text/xml": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    });
  });
});

describe("schemas", () => {
  it("definitions → components.schemas: x-nullable, discriminator, file, x-* kept, recursion", () => {
    const { doc } = convert({
      definitions: {
        Pet: {
          type: "object",
          discriminator: "kind",
          required: ["kind"],
          properties: {
            kind: { type: "string" },
            nick: { type: "string", "x-nullable": true },
            photo: { type: "file" },
            friends: { type: "array", items: { $ref: "#/definitions/Pet" } },
            extra: { type: "object", additionalProperties: { type: "integer", "x-nullable": true } },
          },
          "x-entity": "pet",
        },
        Cat: {
          allOf: [
            { $ref: "#/definitions/Pet" },
            { type: "object", properties: { purrs: { type: "boolean" } } },
          ],
        },
      },
    });
    expect((doc["components"] as Json)["schemas"]).toEqual({
      Pet: {
        type: "object",
        discriminator: { propertyName: "kind" },
        required: ["kind"],
        properties: {
          kind: { type: "string" },
          nick: { type: "string", nullable: true },
          photo: { type: "string", format: "binary" },
          friends: { type: "array", items: { $ref: "#/components/schemas/Pet" } },
          extra: { type: "object", additionalProperties: { type: "integer", nullable: true } },
        },
        "x-entity": "pet",
      },
      Cat: {
        allOf: [
          { $ref: "#/components/schemas/Pet" },
          { type: "object", properties: { purrs: { type: "boolean" } } },
        ],
      },
    });
  });
});

describe("components and refs", () => {
  it("#/parameters: non-body → components.parameters by $ref; body → inlined per operation", () => {
    const { doc, diagnostics } = convert({
      consumes: ["application/json"],
      parameters: {
        Limit: { name: "limit", in: "query", type: "integer" },
        PetBody: { name: "pet", in: "body", required: true, schema: { $ref: "#/definitions/Pet" } },
      },
      definitions: { Pet: { type: "object" } },
      paths: {
        "/pets": {
          post: {
            consumes: ["application/xml"],
            parameters: [{ $ref: "#/parameters/Limit" }, { $ref: "#/parameters/PetBody" }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    expect(diagnostics).toEqual([]);
    const components = doc["components"] as Json;
    expect(components["parameters"]).toEqual({
      Limit: { name: "limit", in: "query", schema: { type: "integer" } },
    });
    expect(components["requestBodies"]).toEqual({
      PetBody: {
        content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
        required: true,
        "x-codegen-request-body-name": "pet",
      },
    });
    const post = doc.paths["/pets"]!["post"] as Json;
    expect(post["parameters"]).toEqual([{ $ref: "#/components/parameters/Limit" }]);
    expect(post["requestBody"]).toEqual({
      content: { "application/xml": { schema: { $ref: "#/components/schemas/Pet" } } },
      required: true,
      "x-codegen-request-body-name": "pet",
    });
  });

  it("refs into moved nodes (paths, parameters) follow them", () => {
    const { doc, diagnostics } = convert({
      paths: {
        "/a": {
          get: {
            parameters: [
              { name: "body", in: "body", schema: { type: "object", properties: { n: { type: "string" } } } },
              { name: "q", in: "query", type: "array", items: { type: "string", enum: ["x", "y"] } },
            ],
            responses: {
              "200": {
                description: "ok",
                schema: { type: "object", properties: { id: { type: "integer" } } },
              },
            },
          },
        },
      },
      definitions: {
        A: { $ref: "#/paths/~1a/get/responses/200/schema/properties/id" },
        B: { $ref: "#/paths/~1a/get/parameters/0/schema" },
        C: { $ref: "#/paths/~1a/get/parameters/1/items" },
      },
    });
    expect(diagnostics).toEqual([]);
    expect((doc["components"] as Json)["schemas"]).toEqual({
      A: { $ref: "#/paths/~1a/get/responses/200/content/application~1json/schema/properties/id" },
      B: { $ref: "#/paths/~1a/get/requestBody/content/application~1json/schema" },
      C: { $ref: "#/paths/~1a/get/parameters/0/schema/items" },
    });
  });

  it("a ref with no counterpart is reported with its pointer", () => {
    const { diagnostics } = convert({
      parameters: { F: { name: "f", in: "formData", type: "string" } },
      definitions: { X: { $ref: "#/parameters/F" } },
    });
    expect(diagnostics.map((d) => [d.pointer, d.message])).toEqual([
      [
        "/parameters/F",
        'formData parameter "F" is not used by any operation; OpenAPI 3 has no reusable form fields, so it is dropped',
      ],
      [
        "/parameters/F",
        '$ref "#/parameters/F" has no counterpart in the converted document (left as #/parameters/F)',
      ],
    ]);
  });
});

describe("security", () => {
  it("securityDefinitions → securitySchemes; requirements kept, operation-level overrides", () => {
    const { doc } = convert({
      securityDefinitions: {
        basic: { type: "basic", description: "Basic" },
        key: { type: "apiKey", name: "X-Key", in: "header", "x-k": 1 },
        implicit: {
          type: "oauth2",
          flow: "implicit",
          authorizationUrl: "https://a.test/auth",
          scopes: { r: "read" },
        },
        password: { type: "oauth2", flow: "password", tokenUrl: "https://a.test/token", scopes: {} },
        app: {
          type: "oauth2",
          flow: "application",
          tokenUrl: "https://a.test/token",
          scopes: { w: "write" },
        },
        code: {
          type: "oauth2",
          flow: "accessCode",
          authorizationUrl: "https://a.test/auth",
          tokenUrl: "https://a.test/token",
          scopes: { r: "read" },
        },
      },
      security: [{ key: [] }],
      paths: {
        "/x": { get: { security: [{ code: ["r"] }, {}], responses: { "200": { description: "ok" } } } },
      },
    });
    expect((doc["components"] as Json)["securitySchemes"]).toEqual({
      basic: { type: "http", scheme: "basic", description: "Basic" },
      key: { type: "apiKey", name: "X-Key", in: "header", "x-k": 1 },
      implicit: {
        type: "oauth2",
        flows: { implicit: { authorizationUrl: "https://a.test/auth", scopes: { r: "read" } } },
      },
      password: { type: "oauth2", flows: { password: { tokenUrl: "https://a.test/token", scopes: {} } } },
      app: {
        type: "oauth2",
        flows: { clientCredentials: { tokenUrl: "https://a.test/token", scopes: { w: "write" } } },
      },
      code: {
        type: "oauth2",
        flows: {
          authorizationCode: {
            authorizationUrl: "https://a.test/auth",
            tokenUrl: "https://a.test/token",
            scopes: { r: "read" },
          },
        },
      },
    });
    expect(doc["security"]).toEqual([{ key: [] }]);
    expect((doc.paths["/x"]!["get"] as Json)["security"]).toEqual([{ code: ["r"] }, {}]);
  });
});

describe("operations", () => {
  it("keeps the operation fields and vendor extensions, drops consumes/produces", () => {
    const op = operation({
      tags: ["t"],
      summary: "S",
      description: "D",
      operationId: "op",
      externalDocs: { url: "https://d.test" },
      deprecated: true,
      consumes: ["application/json"],
      produces: ["application/json"],
      "x-op": { a: 1 },
    });
    expect(op).toEqual({
      tags: ["t"],
      summary: "S",
      description: "D",
      externalDocs: { url: "https://d.test" },
      operationId: "op",
      responses: { "200": { description: "ok" } },
      deprecated: true,
      "x-op": { a: 1 },
    });
  });

  it("operation schemes different from the global ones become operation servers", () => {
    const op = operation({ schemes: ["http"] }, { host: "h.test", basePath: "/v1", schemes: ["https"] });
    expect(op["servers"]).toEqual([{ url: "http://h.test/v1" }]);
  });
});
