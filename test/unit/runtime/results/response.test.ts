import { describe, expect, it } from "vitest";
import type { ToolNode } from "../../../../src/model/types.js";
import { ERROR_META_KEY } from "../../../../src/runtime/results/error-result.js";
import {
  classifyStatus,
  findErrorMessage,
  isDocumentedRedirect,
  parseRetryAfter,
  toRedirectResult,
  toStatusErrorResult,
} from "../../../../src/runtime/results/failure.js";
import { parseFieldPaths } from "../../../../src/runtime/results/project-fields.js";
import { createResultStore } from "../../../../src/runtime/results/result-store.js";
import { toSuccessResult } from "../../../../src/runtime/results/success.js";
import { TRUNCATION_META_KEY } from "../../../../src/runtime/results/truncate.js";
import type { UpstreamResponse } from "../../../../src/runtime/upstream/send.js";

function createTool(fields: Partial<ToolNode> = {}): ToolNode {
  return {
    name: "getPet",
    title: "Get pet",
    description: "Get a pet.",
    inputSchema: { type: "object", properties: {} },
    annotations: {
      title: "Get pet",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    http: {
      method: "get",
      path: "/pets/{id}",
      parameters: [],
      security: [],
      responses: [
        { status: "200", description: "The pet.", mediaTypes: ["application/json"] },
        { status: "302", description: "Download link.", mediaTypes: [] },
        { status: "404", description: "No pet has this id.", mediaTypes: [] },
        { status: "default", description: "Unexpected error.", mediaTypes: [] },
      ],
      accept: ["application/json"],
    },
    source: { pointer: "/paths/~1pets~1{id}/get" },
    tags: [],
    deprecated: false,
    ...fields,
  };
}

function createResponse(
  status: number,
  body: string,
  headers: Record<string, string> = {},
): UpstreamResponse {
  return { status, statusText: "", headers, body: Buffer.from(body), truncated: false, durationMs: 1 };
}

const options = { maxTextChars: 25_000, missingCredentials: [] as string[] };

describe("classifyStatus", () => {
  it.each([
    { status: 400, category: "invalid_argument", retryable: false },
    { status: 401, category: "authentication", retryable: false },
    { status: 403, category: "permission", retryable: false },
    { status: 404, category: "not_found", retryable: false },
    { status: 409, category: "conflict", retryable: false },
    { status: 422, category: "invalid_argument", retryable: false },
    { status: 429, category: "rate_limited", retryable: true },
    { status: 500, category: "upstream_bug", retryable: true },
    { status: 503, category: "upstream_unavailable", retryable: true },
    { status: 504, category: "upstream_unavailable", retryable: true },
    { status: 307, category: "redirect", retryable: false },
  ])("$status → $category", ({ status, category, retryable }) => {
    expect(classifyStatus(status)).toMatchObject({ category, retryable });
  });
});

describe("parseRetryAfter", () => {
  it.each([
    { given: "120", want: 120 },
    { given: " 5 ", want: 5 },
    { given: "Wed, 21 Oct 2015 07:28:30 GMT", want: 30 },
    { given: "soon", want: undefined },
    { given: undefined, want: undefined },
  ])("$given → $want", ({ given, want }) => {
    expect(parseRetryAfter(given, Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(want);
  });
});

describe("error results", () => {
  it.each([
    {
      title: "problem+json 404 with the spec's description",
      response: createResponse(404, JSON.stringify({ title: "Not Found", detail: "no pet 7" }), {
        "content-type": "application/problem+json",
      }),
      lines: [
        "Not found: HTTP 404 from GET /pets/{id}.",
        "The API documents this status as: No pet has this id.",
        "The API says: Not Found: no pet 7",
      ],
      absent: ["Response body", "rest of the response body"],
    },
    {
      title: "problem+json whose type and code the message does not say: only they follow it",
      response: createResponse(
        422,
        JSON.stringify({
          type: "https://errors.example/invalid",
          title: "Invalid request",
          status: 422,
          detail: "The name is too long.",
          errors: [{ code: "too_long", message: "The name is too long." }],
        }),
        { "content-type": "application/problem+json" },
      ),
      lines: [
        "The API says: Invalid request: The name is too long.",
        'The rest of the response body:\n{"type":"https://errors.example/invalid","errors":[{"code":"too_long"}]}',
      ],
      absent: ["Response body:"],
    },
    {
      title: "an AWS XML error: its code and message quoted, the rest as the JSON it was read as",
      response: createResponse(
        400,
        "<Response><Errors><Error><Code>InvalidInstanceID.NotFound</Code><Message>The instance ID 'i-1' does not exist</Message></Error></Errors><RequestID>a1b2c3</RequestID></Response>",
        { "content-type": "text/xml;charset=UTF-8" },
      ),
      lines: [
        "The API says: InvalidInstanceID.NotFound: The instance ID 'i-1' does not exist",
        'The rest of the response body (XML read as JSON):\n{"RequestID":"a1b2c3"}',
      ],
      absent: ["Response body:", "<Response>"],
    },
    {
      title: "a body the message does not come from is shown whole",
      response: createResponse(400, JSON.stringify({ code: 1234, reason: "quota" }), {
        "content-type": "application/json",
      }),
      lines: ['Response body:\n{"code":1234,"reason":"quota"}'],
      absent: ["The API says"],
    },
    {
      title: "HTML 500 page reduced to its text, the generic default description left out",
      response: createResponse(
        500,
        "<html><head><style>b{}</style></head><body><h1>Oops</h1> broke</body></html>",
        {
          "content-type": "text/html",
        },
      ),
      lines: ["Upstream error: HTTP 500 from GET /pets/{id}.", "Response body:\nOops broke"],
      absent: [],
    },
    {
      title: "429 with Retry-After",
      response: createResponse(429, "", { "retry-after": "30" }),
      lines: ["Rate limited: HTTP 429", "The API asks to wait 30 s (Retry-After)."],
      absent: ["Response body"],
    },
  ])("$title", ({ response, lines, absent }) => {
    const result = toStatusErrorResult(createTool(), response, options);
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    for (const line of lines) expect(text).toContain(line);
    for (const words of absent) expect(text).not.toContain(words);
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ status: response.status });
  });

  it("names the missing credential on a 401", () => {
    const result = toStatusErrorResult(createTool(), createResponse(401, ""), {
      ...options,
      missingCredentials: ["apiKey"],
    });
    expect((result.content[0] as { text: string }).text).toContain(
      'No credential is configured for "apiKey"',
    );
  });
});

describe("redirects", () => {
  it("treats a documented 3xx as the answer, with the location", () => {
    const tool = createTool();
    expect(isDocumentedRedirect(tool, 302)).toBe(true);
    expect(isDocumentedRedirect(tool, 301)).toBe(false);
    expect(isDocumentedRedirect(tool, 200)).toBe(false);
    const result = toRedirectResult(
      tool,
      createResponse(302, "", { location: "https://files.example/a.zip" }),
    );
    expect(result.isError).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toContain("redirect to https://files.example/a.zip");
  });

  it.each<{
    title: string;
    headers: Record<string, string>;
    status?: number;
    isError: true | undefined;
    words: string[];
  }>([
    {
      title: "no Location: an error saying so",
      headers: {},
      isError: true,
      words: ["HTTP 302 from GET /pets/{id} is a redirect without a Location header", "Download link."],
    },
    {
      title: "an empty Location: the same",
      headers: { location: "  " },
      isError: true,
      words: ["without a Location"],
    },
    {
      title: "304 Not Modified needs no Location: not an error",
      headers: {},
      status: 304,
      isError: undefined,
      words: ["HTTP 304 Not Modified: the resource has not changed"],
    },
  ])("a documented 3xx, $title", ({ headers, isError, words, status = 302 }) => {
    const tool = createTool();
    tool.http.responses.push({ status: "304", description: "Unchanged.", mediaTypes: [] });
    const result = toRedirectResult(tool, createResponse(status, "", headers));
    expect(result.isError).toBe(isError);
    const text = (result.content[0] as { text: string }).text;
    for (const word of words) expect(text).toContain(word);
    if (isError) {
      expect(result._meta?.[ERROR_META_KEY]).toMatchObject({
        category: "unexpected_response",
        status,
      });
      expect(text).toContain("Next step: Call again");
    }
  });
});

describe("success results", () => {
  it.each([
    {
      title: "JSON object",
      response: createResponse(200, '{"id":1}', { "content-type": "application/json" }),
      structured: { id: 1 },
    },
    {
      title: "JSON array wrapped",
      response: createResponse(200, "[1,2]", { "content-type": "application/json; charset=utf-8" }),
      structured: { result: [1, 2] },
    },
    { title: "empty body", response: createResponse(204, ""), structured: undefined },
  ])("$title", ({ response, structured }) => {
    const result = toSuccessResult(createTool(), response, { maxTextChars: 100 });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(structured);
  });

  it.each([
    {
      title: "a JSON string holding an object is read once more (a spec's example served as a string)",
      tool: createTool(),
      body: JSON.stringify(JSON.stringify({ id: 1, tags: ["a"] })),
      structured: { id: 1, tags: ["a"] },
      text: '{"id":1,"tags":["a"]}',
    },
    {
      title: "a list too, wrapped as any list is",
      tool: createTool(),
      body: JSON.stringify(" [1, 2]"),
      structured: { result: [1, 2] },
      text: "[1,2]",
    },
    {
      title: "a string that is not JSON stays a string",
      tool: createTool(),
      body: JSON.stringify("{not json"),
      structured: { result: "{not json" },
      text: JSON.stringify("{not json"),
    },
    {
      title: "a string the operation documents as a string stays one",
      tool: createTool({ resultSchema: { type: "string" } }),
      body: JSON.stringify('{"id":1}'),
      structured: { result: '{"id":1}' },
      text: JSON.stringify('{"id":1}'),
    },
  ])("$title", ({ tool, body, structured, text }) => {
    const result = toSuccessResult(tool, createResponse(200, body, { "content-type": "application/json" }), {
      maxTextChars: 1000,
    });
    expect(result.structuredContent).toEqual(structured);
    expect((result.content[0] as { text: string }).text).toBe(text);
  });

  it("gives images as image content and other binary as an embedded resource", () => {
    const png = toSuccessResult(createTool(), createResponse(200, "PNG", { "content-type": "image/png" }), {
      maxTextChars: 100,
    });
    expect(png.content[0]).toEqual({
      type: "image",
      data: Buffer.from("PNG").toString("base64"),
      mimeType: "image/png",
    });
    const zip = toSuccessResult(
      createTool(),
      {
        ...createResponse(200, ""),
        body: Buffer.from([0, 1, 2]),
        headers: { "content-type": "application/zip" },
      },
      { maxTextChars: 100 },
    );
    expect(zip.content[0]).toMatchObject({
      type: "resource",
      resource: { mimeType: "application/zip", blob: "AAEC" },
    });
  });

  it("reports a 2xx body that breaks the output schema as an error that carries the body", () => {
    const tool = createTool({ outputSchema: { type: "object" } });
    const result = toSuccessResult(
      tool,
      createResponse(200, '{"id":1}', { "content-type": "application/json" }),
      {
        maxTextChars: 100,
        checkOutput: () => "it does not match",
      },
    );
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('{"id":1}');
  });
});

describe("field errors in 400/422 answers", () => {
  const tool = createTool({
    name: "createPet",
    http: {
      method: "post",
      path: "/pets",
      parameters: [
        {
          argument: "name",
          name: "name",
          in: "query",
          required: false,
          style: "form",
          explode: true,
          allowReserved: false,
          shape: "primitive",
        },
      ],
      body: {
        mediaType: "application/json",
        required: true,
        mode: "properties",
        kind: "json",
        properties: [
          { argument: "name__body", name: "name", shape: "primitive" },
          { argument: "age", name: "age", shape: "primitive" },
        ],
      },
      security: [],
      responses: [{ status: "422", description: "Validation failed.", mediaTypes: [] }],
      accept: ["application/json"],
    },
  });

  it("names our arguments in the text and in _meta, and keeps unknown fields as given", () => {
    const body = {
      type: "https://example.net/validation-error",
      title: "Your request is not valid.",
      errors: [
        { detail: "must not be empty", pointer: "#/name" },
        { detail: "must be a positive integer", pointer: "#/age" },
        { detail: "is not allowed", pointer: "#/colour" },
      ],
    };
    const result = toStatusErrorResult(
      tool,
      createResponse(422, JSON.stringify(body), { "content-type": "application/problem+json" }),
      options,
    );
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain("Invalid argument: HTTP 422 from POST /pets.");
    expect(text).toContain("The API says: Your request is not valid.");
    expect(text).toContain(
      "The API rejected these arguments:\n- Argument `name__body`: must not be empty\n- Argument `age`: must be a positive integer\n- Field `#/colour`: is not allowed",
    );
    expect(text.indexOf("The API rejected")).toBeLessThan(text.indexOf("Next step:"));
    expect(result._meta?.[ERROR_META_KEY]).toEqual({
      category: "invalid_argument",
      status: 422,
      retryable: false,
      message: "Your request is not valid.",
      fields: [
        { field: "#/name", message: "must not be empty", argument: "name__body" },
        { field: "#/age", message: "must be a positive integer", argument: "age" },
        { field: "#/colour", message: "is not allowed" },
      ],
    });
  });

  it("does not read fields out of answers that are not about arguments", () => {
    const body = { errors: [{ field: "name", message: "taken" }] };
    const result = toStatusErrorResult(
      tool,
      createResponse(409, JSON.stringify(body), { "content-type": "application/json" }),
      options,
    );
    expect((result.content[0] as { text: string }).text).not.toContain("rejected these arguments");
    expect(result._meta?.[ERROR_META_KEY]).not.toHaveProperty("fields");
  });

  it.each([
    { body: { error: { code: 400, message: "Invalid page token." } }, want: "Invalid page token." },
    { body: { error: "invalid_grant", error_description: "Bad code" }, want: "invalid_grant: Bad code" },
    { body: { title: "Bad Request", detail: "limit is too large" }, want: "Bad Request: limit is too large" },
    { body: { message: "Validation Failed" }, want: "Validation Failed" },
    { body: { detail: "Not authenticated" }, want: "Not authenticated" },
    { body: { errors: ["Name has already been taken"] }, want: "Name has already been taken" },
    {
      body: { errors: [{ status: "422", title: "Invalid attribute" }, { detail: "Email is invalid" }] },
      want: "Invalid attribute; Email is invalid",
    },
    { body: { errors: ["a", "b", "c", "d", "e"] }, want: "a; b; c (and 2 more)" },
    {
      body: { __type: "ValidationException", Message: "1 validation error" },
      want: "ValidationException: 1 validation error",
    },
    { body: { errorMessage: "Quota exceeded" }, want: "Quota exceeded" },
    {
      body: { errorMessages: ["Issue does not exist or you do not have permission to see it."], errors: {} },
      want: "Issue does not exist or you do not have permission to see it.",
    },
    { body: { errors: [{ field: "name" }] }, want: undefined },
  ])("reads the API's message: $want", ({ body, want }) => {
    expect(findErrorMessage(body)).toBe(want);
  });
});

describe("the response-size budget", () => {
  const rows = Array.from({ length: 300 }, (_, i) => ({ id: i, name: `pet ${i}`, tag: "t".repeat(40) }));
  const listTool = createTool({
    outputSchema: {
      type: "object",
      properties: { result: { type: ["array", "null"], items: { type: ["object", "null"] } } },
      required: ["result"],
    },
    outputWrapped: true,
  });

  it("cuts a list to whole items, in the text and in structuredContent, and says so in _meta", () => {
    const body = JSON.stringify(rows);
    const result = toSuccessResult(
      listTool,
      createResponse(200, body, { "content-type": "application/json" }),
      { maxTextChars: 4000, checkOutput: () => undefined },
    );
    expect(result.isError).toBeUndefined();
    const text = (result.content[0] as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(4000);
    const meta = result._meta?.[TRUNCATION_META_KEY] as { originalChars: number; items: { shown: number } };
    expect(meta).toMatchObject({ truncated: true, originalChars: body.length, items: { total: 300 } });
    expect(result.structuredContent).toEqual({ result: rows.slice(0, meta.items.shown) });
  });

  it("falls back to the complete structuredContent when the cut one fails the output schema", () => {
    const result = toSuccessResult(
      listTool,
      createResponse(200, JSON.stringify(rows), { "content-type": "application/json" }),
      {
        maxTextChars: 4000,
        checkOutput: (value) => ((value as { result: unknown[] }).result.length < 300 ? "short" : undefined),
      },
    );
    expect(result.structuredContent).toEqual({ result: rows });
    expect((result.content[0] as { text: string }).text.length).toBeLessThanOrEqual(4000);
    expect(result._meta?.[TRUNCATION_META_KEY]).toMatchObject({ structuredContentComplete: true });
  });

  it("keeps everything with no limit", () => {
    const body = JSON.stringify(rows);
    const result = toSuccessResult(
      listTool,
      createResponse(200, body, { "content-type": "application/json" }),
      {
        maxTextChars: Number.POSITIVE_INFINITY,
      },
    );
    expect((result.content[0] as { text: string }).text).toBe(body);
    expect(result._meta).toBeUndefined();
  });

  it("cuts plain text after a whole line", () => {
    const body = Array.from({ length: 500 }, (_, i) => `row ${i}`).join("\n");
    const result = toSuccessResult(createTool(), createResponse(200, body, { "content-type": "text/csv" }), {
      maxTextChars: 1000,
    });
    const text = (result.content[0] as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text).toMatch(/^row 0\nrow 1\n[\s\S]*\nrow \d+\n\[Truncated by the bridge/);
    expect(result._meta?.[TRUNCATION_META_KEY]).toMatchObject({ truncated: true, lines: { total: 500 } });
  });

  it("summarises binary data over the budget when there is no store to keep it", () => {
    const result = toSuccessResult(
      createTool(),
      {
        ...createResponse(200, ""),
        body: Buffer.alloc(3000, 7),
        headers: {
          "content-type": "application/pdf",
          "content-disposition": 'attachment; filename="report.pdf"',
        },
      },
      { maxTextChars: 1000 },
    );
    expect(result.content).toHaveLength(1);
    const text = (result.content[0] as { type: string; text: string }).text;
    expect(text).toContain('binary data (application/pdf, file name "report.pdf", 2.9 KiB)');
    expect(text).toContain("more than a result carries (64 KiB) and more than the bridge keeps as a file");
    expect(result._meta?.[TRUNCATION_META_KEY]).toMatchObject({
      truncated: true,
      binary: { mimeType: "application/pdf", bytes: 3000, filename: "report.pdf" },
    });
  });

  it("does not pass on an image cut at --max-response-bytes", () => {
    const result = toSuccessResult(
      createTool(),
      { ...createResponse(200, "PNGPNG", { "content-type": "image/png" }), truncated: true },
      { maxTextChars: 1000 },
    );
    expect(result.content.some((c) => c.type === "image")).toBe(false);
    expect((result.content[0] as { text: string }).text).toContain("so it is incomplete");
  });
});

describe("XML answers", () => {
  const xmlTool = createTool({
    http: {
      ...createTool().http,
      responses: [{ status: "200", description: "Success", mediaTypes: ["text/xml"] }],
      accept: ["text/xml"],
    },
  });
  const instances = Array.from({ length: 200 }, (_, i) => ({
    instanceId: `i-${i}`,
    state: { name: "running" },
  }));
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">\n' +
    "  <requestId>r-1</requestId>\n  <instancesSet>\n" +
    instances
      .map(
        (i) =>
          `    <item><instanceId>${i.instanceId}</instanceId><state><name>running</name></state></item>\n`,
      )
      .join("") +
    "  </instancesSet>\n</DescribeInstancesResponse>\n";
  const xml = (text: string) => createResponse(200, text, { "content-type": "text/xml;charset=UTF-8" });
  const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

  it("are shown as compact JSON with a structured copy", () => {
    const result = toSuccessResult(xmlTool, xml(body), { maxTextChars: Number.POSITIVE_INFINITY });
    const want = { requestId: "r-1", instancesSet: instances };
    expect(textOf(result)).toBe(JSON.stringify(want));
    expect(result.structuredContent).toEqual(want);
    expect(textOf(result).length).toBeLessThan(0.7 * body.length);
  });

  it("take fields", () => {
    const fields = parseFieldPaths(["instancesSet[].instanceId"]);
    if ("problem" in fields) throw new Error(fields.problem);
    const result = toSuccessResult(xmlTool, xml(body), { maxTextChars: 25_000, fields });
    expect(result.structuredContent).toEqual({
      instancesSet: instances.map((i) => ({ instanceId: i.instanceId })),
    });
  });

  it("are cut to whole items, with a continuation handle", () => {
    const result = toSuccessResult(xmlTool, xml(body), {
      maxTextChars: 2000,
      keep: { store: createResultStore(), continueText: (handle) => `continue ${handle}` },
    });
    expect(textOf(result).length).toBeLessThanOrEqual(2000);
    const meta = result._meta?.[TRUNCATION_META_KEY] as {
      items: { path: string; total: number };
      continuation: string;
    };
    expect(meta.items).toMatchObject({ path: "instancesSet", total: 200 });
    expect(textOf(result)).toContain(`continue ${meta.continuation}`);
  });

  it("that do not read cleanly stay text as before", () => {
    const doctype = `<!DOCTYPE r>${body}`;
    const result = toSuccessResult(xmlTool, xml(doctype), { maxTextChars: Number.POSITIVE_INFINITY });
    expect(textOf(result)).toBe(doctype);
    expect(result.structuredContent).toBeUndefined();
  });

  it("stay an unexpected answer where the spec promised JSON", () => {
    const result = toSuccessResult(createTool({ outputSchema: { type: "object" } }), xml(body), {
      maxTextChars: 25_000,
      checkOutput: () => undefined,
    });
    expect(result.isError).toBe(true);
  });

  it.each([
    [
      "EC2",
      "<Response><Errors><Error><Code>InvalidInstanceID.NotFound</Code><Message>The instance ID 'i-1' does not exist</Message></Error></Errors><RequestID>r</RequestID></Response>",
      "InvalidInstanceID.NotFound: The instance ID 'i-1' does not exist",
    ],
    [
      "the query protocol",
      "<ErrorResponse><Error><Type>Sender</Type><Code>NoSuchEntity</Code><Message>No user</Message></Error></ErrorResponse>",
      "NoSuchEntity: No user",
    ],
    [
      "S3",
      "<Error><Code>NoSuchKey</Code><Message>The key does not exist.</Message></Error>",
      "NoSuchKey: The key does not exist.",
    ],
    ["a generic error", "<error><message>Bad id</message></error>", "Bad id"],
  ])("give their message in errors (%s)", (_name, errorBody, message) => {
    const response = createResponse(400, errorBody, { "content-type": "text/xml" });
    const result = toStatusErrorResult(createTool(), response, options);
    expect(textOf(result)).toContain(`The API says: ${message}`);
    expect(result._meta?.[ERROR_META_KEY]).toMatchObject({ message });
  });
});
