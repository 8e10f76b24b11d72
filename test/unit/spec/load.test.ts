import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type LoadedSpec, type LoadOptions, loadSpec } from "../../../src/generator/spec/load-spec.js";
import { FIXTURES, failure, fixture, stdin, text } from "../../helpers/spec-loading.js";

type Json = Record<string, unknown>;

import type { BridgeError } from "../../../src/model/diagnostics.js";
import type { Diagnostic } from "../../../src/model/types.js";

// ----------------------------------------------------------------------------------------------
// A loopback HTTP server serving fixtures (and recording what was asked).

let server: Server;
let base: string;
const requested: string[] = [];
const routes = new Map<string, (res: ServerResponse) => void>();

function serveText(body: string, type = "application/yaml") {
  return (res: ServerResponse) => {
    res.writeHead(200, { "content-type": type });
    res.end(body);
  };
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requested.push(req.url ?? "");
    const route = routes.get(req.url ?? "");
    if (route) route(res);
    else {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"message":"not found"}');
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes.set("/pets.json", serveText(text("pets.openapi30.json"), "application/json"));
  routes.set("/pets.yaml", serveText(text("pets.openapi31.yaml")));
  routes.set("/redirect", (res) => {
    res.writeHead(302, { location: "/pets.json" });
    res.end();
  });
  routes.set("/hang", () => {
    // never answers
  });
  routes.set("/api/main.yaml", serveText(text("external/main.openapi30.yaml")));
  routes.set("/api/schemas/pet.yaml", serveText(text("external/schemas/pet.yaml")));
  routes.set("/api/schemas/common.yaml", serveText(text("external/schemas/common.yaml")));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

beforeEach(() => {
  requested.length = 0;
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as AddressInfo;
  await new Promise((done) => probe.close(done));
  return port;
}

// ----------------------------------------------------------------------------------------------

describe("loadSpec sources", () => {
  it.each<[string, () => Promise<LoadedSpec>, { version: string; title: string; source: string | RegExp }]>([
    [
      "a JSON file",
      () => loadSpec(fixture("pets.openapi30.json")),
      { version: "3.0", title: "Pets JSON", source: fixture("pets.openapi30.json") },
    ],
    [
      "a YAML file",
      () => loadSpec(fixture("pets.openapi31.yaml")),
      { version: "3.1", title: "Pets YAML", source: fixture("pets.openapi31.yaml") },
    ],
    [
      "stdin (YAML)",
      () => loadSpec("-", stdin(text("pets.openapi31.yaml"))),
      { version: "3.1", title: "Pets YAML", source: "<stdin>" },
    ],
    [
      "stdin (JSON, detected by content)",
      () => loadSpec("-", stdin(text("pets.openapi30.json"))),
      { version: "3.0", title: "Pets JSON", source: "<stdin>" },
    ],
    [
      "a URL",
      () => loadSpec(`${base}/pets.yaml`),
      { version: "3.1", title: "Pets YAML", source: /^http:\/\/127\.0\.0\.1:\d+\/pets\.yaml$/ },
    ],
    [
      "a URL that redirects",
      () => loadSpec(`${base}/redirect`),
      { version: "3.0", title: "Pets JSON", source: /\/redirect$/ },
    ],
    [
      "a Swagger 2.0 file (converted)",
      () => loadSpec(fixture("petstore.swagger20.yaml")),
      { version: "2.0", title: "Petstore 2.0", source: fixture("petstore.swagger20.yaml") },
    ],
  ])("%s", async (_name, load, want) => {
    const spec = await load();
    expect(spec.specVersion).toBe(want.version);
    expect(spec.document.info.title).toBe(want.title);
    if (typeof want.source === "string") expect(spec.source).toBe(want.source);
    else expect(spec.source).toMatch(want.source);
    expect(spec.diagnostics).toEqual([]);
  });

  it("a relative server URL of a spec fetched from a URL is made absolute", async () => {
    const spec = await loadSpec(`${base}/pets.json`);
    expect(spec.document.servers).toEqual([{ url: `${base}/v1` }]);
  });

  it("a relative server URL of a local file stays relative", async () => {
    const spec = await loadSpec(fixture("pets.openapi30.json"));
    expect(spec.document.servers).toEqual([{ url: "/v1" }]);
  });

  it("the 2.0 document is returned as OpenAPI 3.0", async () => {
    const spec = await loadSpec(fixture("petstore.swagger20.yaml"));
    const doc = spec.document as unknown as Json & { paths: Record<string, Record<string, Json>> };
    expect(doc["openapi"]).toBe("3.0.3");
    expect(doc["swagger"]).toBeUndefined();
    expect(doc["servers"]).toEqual([
      { url: "https://pets.example.test/v2" },
      { url: "http://pets.example.test/v2" },
    ]);
    expect(doc.paths["/pets"]!["post"]!["requestBody"]).toEqual({
      content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
      required: true,
      "x-codegen-request-body-name": "pet",
    });
    expect(doc.paths["/pets"]!["get"]!["parameters"]).toEqual([
      {
        name: "tags",
        in: "query",
        style: "form",
        explode: true,
        schema: { type: "array", items: { type: "string" } },
      },
    ]);
    expect((doc["components"] as Json)["schemas"]).toEqual({
      Pet: {
        type: "object",
        required: ["name"],
        properties: { name: { type: "string" }, tag: { type: "string", nullable: true } },
      },
    });
  });
});

describe("Swagger 2.0 conversion gives valid OpenAPI 3.0", () => {
  it.each([
    ["fixtures/load/petstore.swagger20.yaml", []],
    ["fixtures/real/swagger-petstore.swagger20.yaml", []],
    // collectionFormat tsv becomes the non-standard style tabDelimited on purpose.
    [
      "fixtures/wire/wire.swagger20.yaml",
      [
        [
          "/paths/~1query~1tabs/get/parameters/0/style",
          'must be one of "form", "spaceDelimited", "pipeDelimited", "deepObject"',
        ],
      ],
    ],
  ])("%s", async (path, problems) => {
    const converted = await loadSpec(resolve(import.meta.dirname, "../../..", path));
    const again = await loadSpec("-", stdin(JSON.stringify(converted.document))).then(
      () => [],
      (e: BridgeError) => e.diagnostics.map((d) => [d.pointer, d.message]),
    );
    expect(again).toEqual(problems);
  });
});

describe("loadSpec failures", () => {
  it.each<[string, () => string | Promise<string>, LoadOptions | undefined, Partial<Diagnostic>[]]>([
    [
      "missing file",
      () => fixture("no-such.yaml"),
      undefined,
      [
        {
          code: "OMB_SPEC_NOT_FOUND",
          file: fixture("no-such.yaml"),
          message: `spec file not found: ${fixture("no-such.yaml")}`,
        },
      ],
    ],
    [
      "a directory",
      () => FIXTURES,
      undefined,
      [{ code: "OMB_SPEC_UNREADABLE", message: `cannot read spec file ${FIXTURES}: it is a directory` }],
    ],
    [
      "unreachable URL (closed port)",
      async () => `http://127.0.0.1:${await closedPort()}/openapi.yaml`,
      undefined,
      [{ code: "OMB_SPEC_FETCH" }],
    ],
    ["HTTP 404", () => `${base}/missing.yaml`, undefined, [{ code: "OMB_SPEC_FETCH" }]],
    ["timeout", () => `${base}/hang`, { timeoutMs: 200 }, [{ code: "OMB_SPEC_FETCH" }]],
    [
      "bad YAML",
      () => fixture("bad-syntax.yaml"),
      undefined,
      [
        {
          code: "OMB_SPEC_PARSE",
          file: fixture("bad-syntax.yaml"),
          message: `${fixture("bad-syntax.yaml")}:7:1: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]`,
        },
      ],
    ],
    [
      "bad JSON",
      () => fixture("bad-syntax.json"),
      undefined,
      [{ code: "OMB_SPEC_PARSE", file: fixture("bad-syntax.json") }],
    ],
    [
      "billion laughs YAML",
      () => fixture("billion-laughs.yaml"),
      undefined,
      [
        {
          code: "OMB_SPEC_PARSE",
          message: `${fixture("billion-laughs.yaml")}: YAML aliases expand too much (limit 100); refusing a possible "billion laughs" document`,
        },
      ],
    ],
    [
      "unknown version",
      () => fixture("unknown-version.yaml"),
      undefined,
      [
        {
          code: "OMB_SPEC_VERSION",
          file: fixture("unknown-version.yaml"),
          message: `${fixture("unknown-version.yaml")}: unsupported OpenAPI version "4.0.0"; supported: 2.0, 3.0.x, 3.1.x`,
        },
      ],
    ],
    [
      "invalid spec",
      () => fixture("invalid.openapi30.yaml"),
      undefined,
      [
        {
          code: "OMB_SPEC_INVALID",
          severity: "error",
          file: fixture("invalid.openapi30.yaml"),
          pointer: "/paths/~1pets/get/parameters/0",
          message: 'missing required property "in"',
          hint: "fix the spec at that place; or skip this check with --no-validate (validate: false) and let the bridge plan what it can",
        },
      ],
    ],
    [
      "missing file $ref",
      () => fixture("missing-file-ref.openapi30.yaml"),
      undefined,
      [
        {
          code: "OMB_REF_UNRESOLVED",
          file: fixture("missing-file-ref.openapi30.yaml"),
          pointer: "/paths/~1pets/get/responses/200/content/application~1json/schema",
          message: `$ref "schemas/nope.yaml#/Pet": file not found: ${fixture("schemas/nope.yaml")}`,
        },
      ],
    ],
    [
      "missing local pointer",
      () => fixture("missing-pointer.openapi30.yaml"),
      undefined,
      [
        {
          code: "OMB_REF_UNRESOLVED",
          file: fixture("missing-pointer.openapi30.yaml"),
          pointer: "/paths/~1pets/get/responses/200/content/application~1json/schema",
          message: '$ref "#/components/schemas/Nope" points to nothing in this document',
        },
      ],
    ],
    [
      "network $ref refused",
      () => fixture("network-ref.openapi30.yaml"),
      undefined,
      [
        {
          code: "OMB_REF_NETWORK",
          file: fixture("network-ref.openapi30.yaml"),
          pointer: "/paths/~1pets/get/responses/200/content/application~1json/schema",
          message:
            'network $ref "http://127.0.0.1:9/schemas/pet.yaml" refused (resolves to http://127.0.0.1:9/schemas/pet.yaml)',
          hint: "network references are off by default; pass --allow-network-refs (allowNetworkRefs: true) to fetch them",
        },
      ],
    ],
    [
      "file $ref refused when allowFileRefs is false",
      () => fixture("external/main.openapi30.yaml"),
      { allowFileRefs: false },
      [
        {
          code: "OMB_REF_FILE",
          pointer: "/paths/~1pets~1{petId}/get/parameters/0",
          message:
            'file $ref "schemas/pet.yaml#/PetId" refused: file references are disabled (allowFileRefs: false)',
        },
        {
          code: "OMB_REF_FILE",
          pointer: "/paths/~1pets~1{petId}/get/responses/200/content/application~1json/schema",
          message:
            'file $ref "schemas/pet.yaml#/Pet" refused: file references are disabled (allowFileRefs: false)',
        },
      ],
    ],
  ])("%s", async (_name, source, options, want) => {
    const diagnostics = await failure(await source(), options);
    expect(diagnostics).toHaveLength(want.length);
    for (const [i, w] of want.entries()) expect(diagnostics[i]).toMatchObject(w);
  });

  it.each([
    [
      "unreachable",
      async () => `http://127.0.0.1:${await closedPort()}/openapi.yaml`,
      /: connection refused$/,
    ],
    ["404", async () => `${base}/missing.yaml`, / returned HTTP 404 Not Found$/],
    ["timeout", async () => `${base}/hang`, / timed out after 200 ms$/],
  ])("fetch failure (%s) names the URL and the reason", async (_name, source, reason) => {
    const url = await source();
    const [d] = await failure(url, { timeoutMs: 200 });
    expect(d!.file).toBe(url);
    expect(d!.message).toMatch(reason);
    expect(d!.message).toContain(url.replace(/^http:\/\//, "").replace(/\/.*$/, ""));
  });

  it.each([
    [
      "/missing.yaml",
      "check the URL: the server said 404 Not Found, it has no document at this address; if the spec is private (some hosts answer 404 then), download the spec (e.g. curl -fL -H 'Authorization: ...' -o openapi.yaml URL) and give the file",
    ],
    [
      "/private.yaml",
      "the server said 401 Unauthorized: the spec is private and the bridge sends no credentials when it fetches one; download the spec (e.g. curl -fL -H 'Authorization: ...' -o openapi.yaml URL) and give the file",
    ],
    [
      "/down.yaml",
      "the server said 503 Service Unavailable: try again later, or download the spec (e.g. curl -fL -H 'Authorization: ...' -o openapi.yaml URL) and give the file",
    ],
  ])("an HTTP error status of the spec URL (%s) comes with a hint", async (route, hint) => {
    routes.set("/private.yaml", (res) => {
      res.writeHead(401, { "www-authenticate": "Bearer" });
      res.end();
    });
    routes.set("/down.yaml", (res) => {
      res.writeHead(503);
      res.end();
    });
    const diagnostics = await failure(`${base}${route}`);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "OMB_SPEC_FETCH", file: `${base}${route}`, hint }),
    ]);
  });

  it("a network $ref answering 404 says to correct the $ref, where it is written", async () => {
    routes.set(
      "/api/broken.yaml",
      serveText(
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "gone.yaml"}\n',
      ),
    );
    const diagnostics = await failure(`${base}/api/broken.yaml`, { allowNetworkRefs: true });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "OMB_REF_UNRESOLVED",
        file: `${base}/api/broken.yaml`,
        pointer: "/paths/~1a/get/responses/200",
        message: `$ref "gone.yaml": GET ${base}/api/gone.yaml returned HTTP 404 Not Found`,
        hint: "correct the $ref's URL: the server said 404 Not Found, it has no document at this address",
      }),
    ]);
  });

  it("a JSON syntax error names file:line:column", async () => {
    const [d] = await failure(fixture("bad-syntax.json"));
    expect(d!.message).toMatch(
      new RegExp(`^${escapeRegExp(fixture("bad-syntax.json"))}:4:29: JSON syntax error: `),
    );
  });

  it.each([
    ["swagger: 1.2", 'swagger: "1.2"\ninfo: {title: t, version: "1"}\n', 'unsupported Swagger version "1.2"'],
    ["unquoted swagger: 2.0", "swagger: 2.0\ninfo: {title: t, version: '1'}\n", "found the number 2"],
    ["no version field", "info: {title: t, version: '1'}\npaths: {}\n", 'no "openapi" or "swagger" field'],
    ["a list", "- a\n- b\n", "expected an object at the top level"],
  ])("version: %s", async (_name, body, message) => {
    const [d] = await failure("-", stdin(body));
    expect(d!.code).toBe("OMB_SPEC_VERSION");
    expect(d!.file).toBe("<stdin>");
    expect(d!.message).toContain(message);
  });

  it("an empty document is a parse error", async () => {
    const [d] = await failure("-", stdin("  \n"));
    expect(d).toMatchObject({ code: "OMB_SPEC_PARSE", message: "<stdin>: the document is empty" });
  });

  it("a recursive YAML alias is refused", async () => {
    const [d] = await failure("-", stdin("openapi: 3.0.3\ninfo: &i\n  title: t\n  self: *i\npaths: {}\n"));
    expect(d).toMatchObject({
      code: "OMB_SPEC_PARSE",
      message: "<stdin>: a YAML alias refers to one of its own ancestors",
    });
  });

  it("caps schema problems at 20 and says how many more", async () => {
    const paths = Array.from(
      { length: 30 },
      (_, i) => `  /p${i}:\n    get:\n      responses: {"200": {content: {}}}\n`,
    ).join("");
    const diagnostics = await failure(
      "-",
      stdin(`openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n${paths}`),
    );
    expect(diagnostics).toHaveLength(21);
    expect(diagnostics[0]).toMatchObject({
      code: "OMB_SPEC_INVALID",
      pointer: "/paths/~1p0/get/responses/200",
    });
    expect(diagnostics[20]).toMatchObject({
      code: "OMB_SPEC_INVALID",
      message: "... and 10 more problems like these",
    });
  });

  it.each([
    [
      "a 2.0 header parameter with collectionFormat multi",
      'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      parameters: [{name: h, in: header, type: array, items: {type: string}, collectionFormat: multi}]\n      responses: {"200": {description: ok}}\n',
      [["/paths/~1a/get/parameters/0/collectionFormat", 'must be one of "csv", "ssv", "tsv", "pipes"']],
    ],
    [
      "a 3.0 parameter without `in`, an http scheme without `scheme`",
      'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, schema: {type: string}}]\n      responses: {"200": {description: ok}}\ncomponents:\n  securitySchemes:\n    h: {type: http}\n',
      [
        ["/paths/~1a/get/parameters/0", 'missing required property "in"'],
        ["/components/securitySchemes/h", 'missing required property "scheme"'],
      ],
    ],
    [
      "a 3.1 response without a description, an unknown status code",
      'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {content: {}}\n        "2000": {description: x}\n',
      // The unknown status code "2000" is only a warning (OMB_SPEC_IGNORED): not thrown.
      [["/paths/~1a/get/responses/200", 'missing required property "description"']],
    ],
  ])("schema problems are reported on the branch that fits: %s", async (_name, body, want) => {
    const diagnostics = await failure("-", stdin(body));
    expect(diagnostics.map((d) => [d.pointer, d.message])).toEqual(want);
    expect(diagnostics.every((d) => d.code === "OMB_SPEC_INVALID" && d.file === "<stdin>")).toBe(true);
  });

  it("validate: false loads an invalid spec", async () => {
    const spec = await loadSpec(fixture("invalid.openapi30.yaml"), { validate: false });
    expect(spec.specVersion).toBe("3.0");
  });

  it("an invalid 2.0 spec is reported against the 2.0 document", async () => {
    const body =
      'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {}\n';
    const diagnostics = await failure("-", stdin(body));
    expect(diagnostics).toEqual([
      {
        code: "OMB_SPEC_INVALID",
        severity: "error",
        file: "<stdin>",
        pointer: "/paths/~1a/get/responses/200",
        message: 'missing required property "description"',
        hint: "fix the spec at that place; or skip this check with --no-validate (validate: false) and let the bridge plan what it can",
      },
    ]);
  });
});

describe("$refs", () => {
  it("an external file next to the spec is bundled, its schemas named as components", async () => {
    const spec = await loadSpec(fixture("external/main.openapi30.yaml"));
    const doc = spec.document as unknown as Json & { paths: Record<string, Record<string, Json>> };
    const get = doc.paths["/pets/{petId}"]!["get"]!;
    expect(get["parameters"]).toEqual([
      { name: "petId", in: "path", required: true, schema: { type: "integer" } },
    ]);
    expect(get["responses"]).toEqual({
      "200": {
        description: "The pet",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
      },
    });
    expect((doc["components"] as Json)["schemas"]).toEqual({
      Pet: {
        type: "object",
        properties: {
          name: { type: "string" },
          parent: { $ref: "#/components/schemas/Pet" },
          owner: { type: "object", properties: { name: { type: "string" } } },
        },
      },
    });
    expect(JSON.stringify(doc)).not.toMatch(/"\$ref":"[^#]/);
  });

  it("circular local refs stay $refs", async () => {
    const spec = await loadSpec(fixture("circular.openapi30.yaml"));
    const schemas = (spec.document.components as Json)["schemas"] as Record<string, Json>;
    expect(schemas["Node"]).toEqual({
      type: "object",
      properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
    });
    expect(schemas["Company"]!["properties"]).toEqual({
      staff: { type: "array", items: { $ref: "#/components/schemas/Person" } },
    });
    expect(JSON.stringify(spec.document).match(/"\$ref"/g)).toHaveLength(4);
  });

  it("relative refs of a spec fetched from a URL are network refs: refused by default, nothing fetched", async () => {
    const diagnostics = await failure(`${base}/api/main.yaml`);
    expect(diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([
      [
        "OMB_REF_NETWORK",
        "/paths/~1pets~1{petId}/get/parameters/0",
        `network $ref "schemas/pet.yaml#/PetId" refused (resolves to ${base}/api/schemas/pet.yaml)`,
      ],
      [
        "OMB_REF_NETWORK",
        "/paths/~1pets~1{petId}/get/responses/200/content/application~1json/schema",
        `network $ref "schemas/pet.yaml#/Pet" refused (resolves to ${base}/api/schemas/pet.yaml)`,
      ],
    ]);
    expect(requested).toEqual(["/api/main.yaml"]);
  });

  it("network refs are fetched with allowNetworkRefs", async () => {
    const spec = await loadSpec(`${base}/api/main.yaml`, { allowNetworkRefs: true });
    expect(requested.sort()).toEqual(["/api/main.yaml", "/api/schemas/common.yaml", "/api/schemas/pet.yaml"]);
    const schemas = (spec.document.components as Json)["schemas"] as Record<string, Json>;
    expect(Object.keys(schemas)).toEqual(["Pet"]);
    expect(schemas["Pet"]!["properties"]).toMatchObject({ parent: { $ref: "#/components/schemas/Pet" } });
  });

  it("a network ref inside an external file is refused with the file and pointer", async () => {
    const dir = await mkdtemp(join(tmpdir(), "omb-load-"));
    try {
      await writeFile(
        join(dir, "main.yaml"),
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: "a.yaml"}\n',
      );
      await writeFile(join(dir, "a.yaml"), `type: object\nproperties:\n  b: {$ref: "${base}/b.yaml"}\n`);
      const diagnostics = await failure(join(dir, "main.yaml"));
      expect(diagnostics.map((d) => [d.code, d.file, d.pointer])).toEqual([
        ["OMB_REF_NETWORK", join(dir, "a.yaml"), "/properties/b"],
      ]);
      expect(requested).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("local $refs that point to nothing", () => {
  it("each place holding a broken ref is named, in document order", async () => {
    const body = [
      "openapi: 3.0.3",
      'info: {title: t, version: "1"}',
      "paths:",
      "  /a:",
      "    get:",
      "      parameters: [{$ref: '#/components/parameters/Gone'}]",
      "      responses: {'200': {description: ok, content: {a/b: {schema: {$ref: '#/components/schemas/Nope'}}}}}",
      "  /b:",
      "    get:",
      "      responses: {'200': {$ref: '#/components/responses/Ok'}}",
      "components:",
      "  schemas:",
      "    Pet: {properties: {self: {$ref: '#/components/schemas/Nope'}, ok: {$ref: '#/components/schemas/Pet'}}}",
      "  responses:",
      "    Ok: {description: ok}",
      "",
    ].join("\n");
    const diagnostics = await failure("-", stdin(body));
    expect(diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([
      [
        "OMB_REF_UNRESOLVED",
        "/paths/~1a/get/parameters/0",
        '$ref "#/components/parameters/Gone" points to nothing in this document',
      ],
      [
        "OMB_REF_UNRESOLVED",
        "/paths/~1a/get/responses/200/content/a~1b/schema",
        '$ref "#/components/schemas/Nope" points to nothing in this document',
      ],
      [
        "OMB_REF_UNRESOLVED",
        "/components/schemas/Pet/properties/self",
        '$ref "#/components/schemas/Nope" points to nothing in this document',
      ],
    ]);
  });
});

describe("swagger-parser's own checks do not leak out", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "omb-load-"));
    await writeFile(join(dir, "pet.yaml"), "type: object\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ["a patch version swagger-parser does not list", 'openapi: 3.1.9\ninfo: {title: t, version: "1"}', "3.1"],
    ["3.0.9", 'openapi: 3.0.9\ninfo: {title: t, version: "1"}', "3.0"],
  ])("%s, with an external ref", async (_name, head, version) => {
    const file = join(dir, `${version}.yaml`);
    await writeFile(file, `${head}\npaths: {}\ncomponents:\n  schemas:\n    Pet: {$ref: "pet.yaml"}\n`);
    const spec = await loadSpec(file);
    expect(spec.specVersion).toBe(version);
    expect(spec.document.openapi).toBe(head.slice(9, 14));
    expect(spec.document.components?.schemas).toEqual({ Pet: { type: "object" } });
  });

  it("a numeric info.version and no paths, with an external ref, are schema problems", async () => {
    const file = join(dir, "numeric.yaml");
    await writeFile(
      file,
      'openapi: 3.0.3\ninfo: {title: t, version: 1}\ncomponents:\n  schemas:\n    Pet: {$ref: "pet.yaml"}\n',
    );
    const diagnostics = await failure(file);
    expect(diagnostics.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ["OMB_SPEC_INVALID", "", 'missing required property "paths"'],
      ["OMB_SPEC_INVALID", "/info/version", "must be of type string"],
    ]);
  });

  it("a file: URL source is read as a file", async () => {
    const spec = await loadSpec(pathToFileURL(fixture("pets.openapi31.yaml")).href);
    expect(spec.document.info.title).toBe("Pets YAML");
  });
});

describe("warnings", () => {
  it("duplicate operationIds and undeclared path parameters are warnings", async () => {
    const body = [
      "openapi: 3.0.3",
      'info: {title: t, version: "1"}',
      "paths:",
      "  /a/{id}:",
      "    get: {operationId: same, responses: {'200': {description: ok}}}",
      "  /b:",
      "    get: {operationId: same, responses: {'200': {description: ok}}}",
      "",
    ].join("\n");
    const spec = await loadSpec("-", stdin(body));
    expect(spec.diagnostics.map((d) => [d.code, d.severity, d.pointer, d.message])).toEqual([
      ["OMB_SPEC_PATH_PARAM", "warning", "/paths/~1a~1{id}/get", 'path parameter "{id}" is not declared'],
      [
        "OMB_SPEC_DUPLICATE_OPERATION_ID",
        "warning",
        "/paths/~1b/get",
        'operationId "same" is also used by /paths/~1a~1{id}/get',
      ],
    ]);
  });

  it.each([
    ["an unknown root property", "source: {repo: x}\n", "/source", 'property "source" is not allowed here'],
    [
      "a misplaced example",
      "components:\n  schemas:\n    S: {type: object, properties: {a: {type: string, xml: {example: x}}}}\n",
      "/components/schemas/S/properties/a/xml/example",
      'property "example" is not allowed here',
    ],
    ["an empty responses object", "", "/paths/~1b/get/responses", "must NOT have fewer than 1 properties"],
  ])("%s is a warning (OMB_SPEC_IGNORED), and the spec loads", async (_name, extra, pointer, message) => {
    const body = [
      "openapi: 3.0.3",
      'info: {title: t, version: "1"}',
      "paths:",
      "  /a:",
      "    get: {operationId: a, responses: {'200': {description: ok}}}",
      ...(pointer.startsWith("/paths/~1b") ? ["  /b:", "    get: {operationId: b, responses: {}}"] : []),
      extra,
    ].join("\n");
    for (const options of [stdin(body), { ...stdin(body), deferValidation: true }]) {
      const spec = await loadSpec("-", options);
      const warnings = [...spec.diagnostics, ...((await spec.validation) ?? [])];
      expect(warnings.map((d) => [d.code, d.severity, d.pointer])).toContainEqual([
        "OMB_SPEC_IGNORED",
        "warning",
        pointer,
      ]);
      expect(warnings.find((d) => d.pointer === pointer)?.message).toContain(message);
    }
  });

  it("conversion warnings of a 2.0 spec are returned", async () => {
    const body = [
      'swagger: "2.0"',
      'info: {title: t, version: "1"}',
      "paths:",
      "  /a:",
      "    get:",
      "      parameters: [{name: h, in: header, type: array, items: {type: string}, collectionFormat: pipes}]",
      "      responses: {'200': {description: ok}}",
      "",
    ].join("\n");
    const spec = await loadSpec("-", stdin(body));
    expect(spec.diagnostics).toEqual([
      {
        code: "OMB_SWAGGER2_CONVERT",
        severity: "warning",
        message: "collectionFormat pipes has no OpenAPI 3 style for header parameters",
        file: "<stdin>",
        pointer: "/paths/~1a/get/parameters/0",
      },
    ]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("deferValidation with a small spec (validated in-thread)", () => {
  it("schema problems are thrown by loadSpec itself", async () => {
    const diagnostics = await failure(fixture("invalid.openapi30.yaml"), { deferValidation: true });
    expect(diagnostics[0]).toMatchObject({ code: "OMB_SPEC_INVALID" });
  });

  it("a valid spec's `validation` is there, resolved", async () => {
    const loaded = await loadSpec(fixture("pets.openapi30.json"), { deferValidation: true });
    await expect(loaded.validation).resolves.toEqual([]);
  });
});
