/**
 * Field errors of real-world 400/422 bodies mapped back to the tool's argument names: body
 * properties flattened to the top level, `__query`/`__body` clash suffixes, nested fields, and
 * fields the tool does not have (kept as the API named them).
 */
import { describe, expect, it } from "vitest";
import type { BodyBindingNode, ParameterBindingNode, ToolNode } from "../../../../src/model/types.js";
import {
  extractFieldErrors,
  formatFieldErrors,
  mapFieldErrors,
  mapFieldToArgument,
  parseFieldPath,
} from "../../../../src/runtime/results/field-map.js";

function parameter(
  argument: string,
  name: string,
  location: ParameterBindingNode["in"],
): ParameterBindingNode {
  return {
    argument,
    name,
    in: location,
    required: location === "path",
    style: location === "query" ? "form" : "simple",
    explode: location === "query",
    allowReserved: false,
    shape: "primitive",
  };
}

/**
 * PUT /pets/{id}?id=&limit= with header X-Request-Id and a JSON body {id, name, address: {city},
 * tags[], email_address, owner: $ref Owner {email}}: the body's `id` clashes with the path's
 * (→ `id__body`) and the query's (→ `id__query`).
 */
function createTool(body?: BodyBindingNode): ToolNode {
  return {
    name: "updatePet",
    title: "Update pet",
    description: "Update a pet.",
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string" },
        id__query: { type: "integer" },
        limit: { type: "integer" },
        "X-Request-Id": { type: "string" },
        id__body: { type: "string" },
        name: { type: "string" },
        address: { type: "object", properties: { city: { type: "string" }, zip: { type: "string" } } },
        tags: { type: "array", items: { type: "string" } },
        email_address: { type: "string" },
        owner: { $ref: "#/$defs/Owner" },
      },
      $defs: { Owner: { type: "object", properties: { email: { type: "string" } } } },
    },
    annotations: {
      title: "Update pet",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: {
      method: "put",
      path: "/pets/{id}",
      parameters: [
        parameter("id", "id", "path"),
        parameter("id__query", "id", "query"),
        parameter("limit", "limit", "query"),
        parameter("X-Request-Id", "X-Request-Id", "header"),
      ],
      body: body ?? {
        mediaType: "application/json",
        required: true,
        mode: "properties",
        kind: "json",
        properties: [
          { argument: "id__body", name: "id", shape: "primitive" },
          { argument: "name", name: "name", shape: "primitive" },
          { argument: "address", name: "address", shape: "object" },
          { argument: "tags", name: "tags", shape: "array" },
          { argument: "email_address", name: "email_address", shape: "primitive" },
          { argument: "owner", name: "owner", shape: "object" },
        ],
      },
      security: [],
      responses: [],
      accept: ["application/json"],
    },
    source: { pointer: "/paths/~1pets~1{id}/put" },
    tags: [],
    deprecated: false,
  };
}

const ARRAY_BODY_TOOL = createTool({
  mediaType: "application/json",
  required: true,
  mode: "value",
  kind: "json",
  argument: "body",
});

type Want = { argument?: string; field: string; message: string };

describe("mapFieldErrors over realistic error bodies", () => {
  it.each<{ title: string; body: unknown; want: Want[]; tool?: ToolNode }>([
    {
      title: "RFC 9457 problem+json `errors` with JSON pointers",
      body: {
        type: "https://example.net/validation-error",
        title: "Your request is not valid.",
        errors: [
          { detail: "must be a positive integer", pointer: "#/id" },
          { detail: "must be 'green', 'red' or 'blue'", pointer: "#/address/city" },
        ],
      },
      want: [
        { argument: "id__body", field: "#/id", message: "must be a positive integer" },
        { argument: "address.city", field: "#/address/city", message: "must be 'green', 'red' or 'blue'" },
      ],
    },
    {
      title: "RFC 7807 `invalid-params` [{name, reason}]",
      body: {
        type: "https://example.net/validation-error",
        title: "Your request parameters didn't validate.",
        "invalid-params": [
          { name: "limit", reason: "must be at most 100" },
          { name: "name", reason: "must not be empty" },
        ],
      },
      want: [
        { argument: "limit", field: "limit", message: "must be at most 100" },
        { argument: "name", field: "name", message: "must not be empty" },
      ],
    },
    {
      title: "JSON:API errors with source.pointer and source.parameter",
      body: {
        errors: [
          {
            status: "422",
            source: { pointer: "/data/attributes/id" },
            title: "Invalid Attribute",
            detail: "id must contain at least three characters.",
          },
          { status: "400", source: { parameter: "id" }, title: "Invalid Query Parameter" },
        ],
      },
      want: [
        {
          argument: "id__body",
          field: "/data/attributes/id",
          message: "id must contain at least three characters.",
        },
        { argument: "id__query", field: "id", message: "Invalid Query Parameter" },
      ],
    },
    {
      title: "{error: {details: [{field, message}]}}",
      body: {
        error: {
          code: "invalid_request",
          message: "Validation failed",
          details: [{ field: "address.city", message: "is required" }],
        },
      },
      want: [{ argument: "address.city", field: "address.city", message: "is required" }],
    },
    {
      title: "{error: {errors: [{field, reason}]}} with an index",
      body: { error: { errors: [{ field: "tags[1]", reason: "too long" }] } },
      want: [{ argument: "tags[1]", field: "tags[1]", message: "too long" }],
    },
    {
      title: "FastAPI / pydantic `detail` with loc per location",
      body: {
        detail: [
          { type: "string_too_short", loc: ["body", "id"], msg: "String should have at least 3 characters" },
          { type: "int_parsing", loc: ["query", "id"], msg: "Input should be a valid integer" },
          { type: "missing", loc: ["path", "id"], msg: "Field required" },
          { type: "missing", loc: ["header", "x-request-id"], msg: "Field required" },
          { type: "string_type", loc: ["body", "tags", 0], msg: "Input should be a valid string" },
        ],
      },
      want: [
        { argument: "id__body", field: "id", message: "String should have at least 3 characters" },
        { argument: "id__query", field: "id", message: "Input should be a valid integer" },
        { argument: "id", field: "id", message: "Field required" },
        { argument: "X-Request-Id", field: "x-request-id", message: "Field required" },
        { argument: "tags[0]", field: "tags[0]", message: "Input should be a valid string" },
      ],
    },
    {
      title: "Rails / Laravel {errors: {field: [messages]}}, a nested field found by schema, `base` left out",
      body: {
        message: "The given data was invalid.",
        errors: {
          name: ["can't be blank", "is too short (minimum is 2 characters)"],
          email: ["is invalid"],
          base: ["Pet could not be saved"],
        },
      },
      want: [
        { argument: "name", field: "name", message: "can't be blank" },
        { argument: "name", field: "name", message: "is too short (minimum is 2 characters)" },
        { argument: "owner.email", field: "email", message: "is invalid" },
      ],
    },
    {
      title: "Google error.details[].fieldViolations, names in another case style",
      body: {
        error: {
          code: 400,
          message: "Request contains an invalid argument.",
          status: "INVALID_ARGUMENT",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.BadRequest",
              fieldViolations: [
                { field: "emailAddress", description: "Invalid email address" },
                { field: "address.zip", description: "Unknown postal code" },
              ],
            },
          ],
        },
      },
      want: [
        { argument: "email_address", field: "emailAddress", message: "Invalid email address" },
        { argument: "address.zip", field: "address.zip", message: "Unknown postal code" },
      ],
    },
    {
      title: "GitHub {message: 'Validation Failed', errors: [{resource, field, code}]}",
      body: {
        message: "Validation Failed",
        errors: [{ resource: "Issue", field: "name", code: "missing_field" }],
        documentation_url: "https://docs.github.com/rest/issues/issues#create-an-issue",
      },
      want: [{ argument: "name", field: "name", message: "missing field" }],
    },
    {
      title: "ASP.NET ValidationProblemDetails with PascalCase and $. paths",
      body: {
        type: "https://tools.ietf.org/html/rfc9110#section-15.5.1",
        title: "One or more validation errors occurred.",
        status: 400,
        errors: { Name: ["The Name field is required."], "$.address.city": ["The JSON value is invalid."] },
      },
      want: [
        { argument: "name", field: "Name", message: "The Name field is required." },
        { argument: "address.city", field: "$.address.city", message: "The JSON value is invalid." },
      ],
    },
    {
      title: "GitLab message: {field: [messages]}",
      body: { message: { name: ["can't be blank", "is too short"] } },
      want: [
        { argument: "name", field: "name", message: "can't be blank" },
        { argument: "name", field: "name", message: "is too short" },
      ],
    },
    {
      title: "Django REST framework {field: [messages]} at the top",
      body: { name: ["This field is required."], non_field_errors: ["Invalid data."] },
      want: [{ argument: "name", field: "name", message: "This field is required." }],
    },
    {
      title: "express-validator with params/headers locations",
      body: {
        errors: [
          { type: "field", value: "x", msg: "Invalid value", path: "id", location: "params" },
          { type: "field", msg: "Missing", path: "X-Request-Id", location: "headers" },
        ],
      },
      want: [
        { argument: "id", field: "id", message: "Invalid value" },
        { argument: "X-Request-Id", field: "X-Request-Id", message: "Missing" },
      ],
    },
    {
      title: "Spring BindingResult errors [{field, defaultMessage}]",
      body: {
        status: 400,
        error: "Bad Request",
        errors: [{ field: "name", defaultMessage: "must not be blank", objectName: "pet", code: "NotBlank" }],
      },
      want: [{ argument: "name", field: "name", message: "must not be blank" }],
    },
    {
      title: "zod issues with a path array",
      body: { issues: [{ code: "too_small", path: ["address", "city"], message: "Required" }] },
      want: [{ argument: "address.city", field: "address.city", message: "Required" }],
    },
    {
      title: "Stripe: one error object naming its param",
      body: {
        error: {
          type: "invalid_request_error",
          code: "parameter_missing",
          param: "limit",
          message: "Missing required param: limit.",
          name: "ignored",
        },
      },
      want: [{ argument: "limit", field: "limit", message: "Missing required param: limit." }],
    },
    {
      title: "Azure / OData error.target and details[].target",
      body: {
        error: {
          code: "BadArgument",
          message: "Name is invalid",
          target: "name",
          details: [{ code: "OutOfRange", message: "must be 0 or more", target: "age" }],
        },
      },
      want: [
        { argument: "name", field: "name", message: "Name is invalid" },
        { field: "age", message: "must be 0 or more" },
      ],
    },
    {
      title: "PayPal details [{field, issue, description}]",
      body: {
        name: "UNPROCESSABLE_ENTITY",
        message: "The requested action could not be performed.",
        details: [
          {
            field: "/address/city",
            issue: "MISSING_REQUIRED_PARAMETER",
            description: "A required field / parameter is missing.",
          },
        ],
      },
      want: [
        {
          argument: "address.city",
          field: "/address/city",
          message: "A required field / parameter is missing.",
        },
      ],
    },
    {
      title: "fields the tool does not have are kept as given",
      body: { errors: [{ field: "color", message: "is not a color" }] },
      want: [{ field: "color", message: "is not a color" }],
    },
    {
      title: "a body that is one argument: pointers go into `body`",
      tool: ARRAY_BODY_TOOL,
      body: { errors: [{ pointer: "/0/name", detail: "is required" }] },
      want: [{ argument: "body[0].name", field: "/0/name", message: "is required" }],
    },
  ])("$title", ({ body, want, tool }) => {
    const mapped = mapFieldErrors(tool ?? createTool(), body);
    expect(
      mapped.map(({ argument, field, message }) =>
        argument ? { argument, field, message } : { field, message },
      ),
    ).toEqual(want);
  });

  it.each([
    { title: "a plain message", body: { message: "Bad request" } },
    { title: "problem+json without errors", body: { title: "Bad Request", detail: "no", status: 400 } },
    { title: "a string", body: "invalid" },
    { title: "an array of strings", body: { errors: ["name is required"] } },
    { title: "only general errors", body: { errors: { base: ["nope"] } } },
    {
      title: "Google ErrorInfo without field violations",
      body: { error: { details: [{ reason: "API_KEY_INVALID" }] } },
    },
  ])("finds no fields in $title", ({ body }) => {
    expect(extractFieldErrors(body)).toEqual([]);
  });
});

describe("parseFieldPath", () => {
  it.each([
    { given: "#/address/city", want: ["address", "city"] },
    { given: "/data/attributes/name", want: ["name"] },
    { given: "/tags/0", want: ["tags", 0] },
    { given: "/a~1b/c~0d", want: ["a/b", "c~d"] },
    { given: "$.address.city", want: ["address", "city"] },
    { given: "tags[2].name", want: ["tags", 2, "name"] },
    { given: "tags.2.name", want: ["tags", 2, "name"] },
    { given: "address['city']", want: ["address", "city"] },
    { given: "name", want: ["name"] },
  ])("$given", ({ given, want }) => {
    expect(parseFieldPath(given)).toEqual(want);
  });
});

describe("mapFieldToArgument", () => {
  const tool = createTool();
  it.each([
    { field: "id", location: undefined, want: "id__body" },
    { field: "id", location: "path" as const, want: "id" },
    { field: "id", location: "query" as const, want: "id__query" },
    { field: "x-request-id", location: "header" as const, want: "X-Request-Id" },
    { field: "LIMIT", location: undefined, want: "limit" },
    { field: "id__query", location: undefined, want: "id__query" },
    { field: "limit", location: "body" as const, want: undefined },
    { field: "nothing", location: undefined, want: undefined },
  ])("$field in $location → $want", ({ field, location, want }) => {
    expect(mapFieldToArgument(tool, field, location)).toBe(want);
  });
});

describe("formatFieldErrors", () => {
  it("names our argument, or the API's field when none matches", () => {
    expect(
      formatFieldErrors([
        { field: "id", argument: "id__body", message: "must be 3 characters" },
        { field: "color", message: "unknown", location: "body" },
      ]),
    ).toEqual(["- Argument `id__body`: must be 3 characters", "- Field `color` (body): unknown"]);
  });
});
