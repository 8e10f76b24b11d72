/**
 * The wire table: for each tool call, exactly what the upstream must receive. Written from the
 * OpenAPI 3.1 "Style Examples" table, RFC 6570 and RFC 3986 percent-encoding, and the bridge's
 * argument contract; never from the implementation.
 *
 * Paths here are relative to the base URL the tests give the bridge (`<upstream>/base`).
 */

import { describeRequest, sendBytes, sendJson, type UpstreamHandler } from "../helpers/upstream.js";

export type SpecVersion = "3.1" | "3.0" | "2.0";

export const WIRE_SPECS: Record<SpecVersion, string> = {
  "3.1": "wire/wire.openapi31.yaml",
  "3.0": "wire/wire.openapi30.yaml",
  "2.0": "wire/wire.swagger20.yaml",
};

export const ALL: SpecVersion[] = ["3.1", "3.0", "2.0"];
export const OAS3: SpecVersion[] = ["3.1", "3.0"];

export interface PartExpectation {
  name: string;
  filename?: string;
  /** Media type of the part (parameters ignored); `undefined` = not checked. */
  contentType?: string;
  body: { text: string } | { bytes: Buffer } | { json: unknown };
}

export type BodyExpectation =
  | { json: unknown }
  | { text: string }
  | { bytes: Buffer }
  | { form: [string, string][] }
  | { multipart: PartExpectation[] };

export interface WireCase {
  name: string;
  versions: SpecVersion[];
  tool: string;
  args: Record<string, unknown>;
  method: string;
  /** Raw path as received, before decoding. */
  path: string;
  /** Raw query string without `?`; `""` means no query at all. */
  query: string;
  /** Exact header values (names lower-case); `undefined` means the header must be absent. */
  headers?: Record<string, string | undefined>;
  /** Media type of Content-Type; `null` means no Content-Type and an empty body. */
  contentType: string | null;
  /** First media type of Accept. */
  accept?: string;
  body?: BodyExpectation;
  /** Cookie pairs, order-insensitive; `undefined` means no Cookie header. */
  cookies?: [string, string][];
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
export const PNG_BYTES = PNG;
const RAW = Buffer.from([0, 1, 2, 127, 128, 254, 255, 13, 10]);
export const RAW_BYTES = RAW;

const color = { R: 100, G: 200, B: 150 };

export const WIRE_CASES: WireCase[] = [
  // ---------------------------------------------------------------- path: simple / label / matrix
  {
    name: "path simple: primitive and array",
    versions: ALL,
    tool: "pathSimple",
    args: { prim: 5, arr: [3, 4, 5] },
    method: "GET",
    path: "/base/path/simple/5/3,4,5",
    query: "",
    contentType: null,
    accept: "application/json",
  },
  {
    name: "path simple: object, explode false and true",
    versions: OAS3,
    tool: "pathSimpleObject",
    args: { obj: color, objExploded: color },
    method: "GET",
    path: "/base/path/simple-object/R,100,G,200,B,150/R=100,G=200,B=150",
    query: "",
    contentType: null,
  },
  {
    name: "path simple explode: array",
    versions: OAS3,
    tool: "pathSimpleExplode",
    args: { arr: [3, 4, 5] },
    method: "GET",
    path: "/base/path/simple-explode/3,4,5",
    query: "",
    contentType: null,
  },
  {
    name: "path label, explode false",
    versions: OAS3,
    tool: "pathLabel",
    args: { prim: 5, arr: [3, 4, 5], obj: color },
    method: "GET",
    path: "/base/path/label/.5/.3,4,5/.R,100,G,200,B,150",
    query: "",
    contentType: null,
  },
  {
    name: "path label, explode true",
    versions: OAS3,
    tool: "pathLabelExplode",
    args: { prim: 5, arr: [3, 4, 5], obj: color },
    method: "GET",
    path: "/base/path/label-explode/.5/.3.4.5/.R=100.G=200.B=150",
    query: "",
    contentType: null,
  },
  {
    name: "path matrix, explode false",
    versions: OAS3,
    tool: "pathMatrix",
    args: { prim: 5, arr: [3, 4, 5], obj: color },
    method: "GET",
    path: "/base/path/matrix/;prim=5/;arr=3,4,5/;obj=R,100,G,200,B,150",
    query: "",
    contentType: null,
  },
  {
    name: "path matrix, explode true",
    versions: OAS3,
    tool: "pathMatrixExplode",
    args: { prim: 5, arr: [3, 4, 5], obj: color },
    method: "GET",
    path: "/base/path/matrix-explode/;prim=5/;arr=3;arr=4;arr=5/;R=100;G=200;B=150",
    query: "",
    contentType: null,
  },
  // ---------------------------------------------------------------- path: hostile values are encoded
  ...(
    [
      ["../x", "..%2Fx"],
      ["a/b", "a%2Fb"],
      ["?q", "%3Fq"],
      ["#f", "%23f"],
      ["a b", "a%20b"],
      ["%2F", "%252F"],
      ["é", "%C3%A9"],
      ["...", "..."],
    ] as const
  ).map(
    ([value, encoded]): WireCase => ({
      name: `path value ${JSON.stringify(value)} is percent-encoded`,
      versions: ALL,
      tool: "getItem",
      args: { itemId: value },
      method: "GET",
      path: `/base/items/${encoded}`,
      query: "",
      contentType: null,
    }),
  ),
  // ---------------------------------------------------------------- query
  {
    name: "query form: primitive, exploded array, comma-joined array, RFC 3986 encoding",
    versions: ALL,
    tool: "queryForm",
    args: { prim: "a b&c=d", arr: ["x", "y z"], arrCsv: ["a,b", "c"] },
    method: "GET",
    path: "/base/query/form",
    query: "prim=a%20b%26c%3Dd&arr=x&arr=y%20z&arrCsv=a%2Cb,c",
    contentType: null,
  },
  {
    name: "query form: omitted optional parameters are not sent",
    versions: ALL,
    tool: "queryForm",
    args: { prim: "hello" },
    method: "GET",
    path: "/base/query/form",
    query: "prim=hello",
    contentType: null,
  },
  {
    name: "query form: empty string is sent as `name=`",
    versions: ALL,
    tool: "queryForm",
    args: { prim: "" },
    method: "GET",
    path: "/base/query/form",
    query: "prim=",
    contentType: null,
  },
  {
    name: "query form: non-ASCII, `/`, `?`, `#` and `+` are percent-encoded",
    versions: ALL,
    tool: "queryForm",
    args: { prim: "é/?#+" },
    method: "GET",
    path: "/base/query/form",
    query: "prim=%C3%A9%2F%3F%23%2B",
    contentType: null,
  },
  {
    name: "query form: objects, explode true and false",
    versions: OAS3,
    tool: "queryFormObject",
    args: { obj: color, objFlat: color },
    method: "GET",
    path: "/base/query/form-object",
    query: "R=100&G=200&B=150&objFlat=R,100,G,200,B,150",
    contentType: null,
  },
  {
    name: "query spaceDelimited (ssv) and pipeDelimited (pipes)",
    versions: ALL,
    tool: "queryDelimited",
    args: { spaced: [3, 4, 5], piped: [3, 4, 5] },
    method: "GET",
    path: "/base/query/delimited",
    query: "spaced=3%204%205&piped=3%7C4%7C5",
    contentType: null,
  },
  {
    name: "query collectionFormat tsv",
    versions: ["2.0"],
    tool: "queryTabs",
    args: { tabbed: [3, 4, 5] },
    method: "GET",
    path: "/base/query/tabs",
    query: "tabbed=3%094%095",
    contentType: null,
  },
  {
    name: "query deepObject",
    versions: OAS3,
    tool: "queryDeep",
    args: { color },
    method: "GET",
    path: "/base/query/deep",
    query: "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150",
    contentType: null,
  },
  {
    name: "query allowReserved keeps reserved characters, still encodes the rest",
    versions: OAS3,
    tool: "queryReserved",
    args: { reserved: "/a b/c:d@e", plain: "/a b/c:d@e" },
    method: "GET",
    path: "/base/query/reserved",
    query: "reserved=/a%20b/c:d@e&plain=%2Fa%20b%2Fc%3Ad%40e",
    contentType: null,
  },
  {
    name: "query parameter with content: application/json",
    versions: OAS3,
    tool: "queryJson",
    args: { filter: { a: 1, b: "x y" } },
    method: "GET",
    path: "/base/query/json",
    query: "filter=%7B%22a%22%3A1%2C%22b%22%3A%22x%20y%22%7D",
    contentType: null,
  },
  // ---------------------------------------------------------------- headers and cookies
  {
    name: "header parameters: primitive and array (simple)",
    versions: ALL,
    tool: "headerParams",
    args: { "X-Request-Id": "req-1", "X-Arr": [3, 4, 5] },
    method: "GET",
    path: "/base/headers",
    query: "",
    headers: { "x-request-id": "req-1", "x-arr": "3,4,5" },
    contentType: null,
  },
  {
    name: "header parameters: objects, explode false and true",
    versions: OAS3,
    tool: "headerObjects",
    args: { "X-Obj": color, "X-Obj-Explode": color },
    method: "GET",
    path: "/base/headers/objects",
    query: "",
    headers: { "x-obj": "R,100,G,200,B,150", "x-obj-explode": "R=100,G=200,B=150" },
    contentType: null,
  },
  {
    name: "cookie parameters: primitive and comma-joined array",
    versions: OAS3,
    tool: "cookieParams",
    args: { session: "abc", ids: [3, 4, 5] },
    method: "GET",
    path: "/base/cookies",
    query: "",
    contentType: null,
    cookies: [
      ["session", "abc"],
      ["ids", "3,4,5"],
    ],
  },
  // ---------------------------------------------------------------- bodies
  {
    name: "JSON object body merged at the top level, query parameter on POST",
    versions: ALL,
    tool: "createPet",
    args: { dryRun: true, name: "Rex", tag: "dog", age: 3 },
    method: "POST",
    path: "/base/pets",
    query: "dryRun=true",
    contentType: "application/json",
    accept: "application/json",
    body: { json: { name: "Rex", tag: "dog", age: 3 } },
  },
  {
    name: "JSON body: only the given properties, one-property body stays an object",
    versions: ALL,
    tool: "createPet",
    args: { name: "Rex" },
    method: "POST",
    path: "/base/pets",
    query: "",
    contentType: "application/json",
    body: { json: { name: "Rex" } },
  },
  {
    name: "JSON body: nullable property sent as null",
    versions: OAS3,
    tool: "createPet",
    args: { name: "Rex", tag: null },
    method: "POST",
    path: "/base/pets",
    query: "",
    contentType: "application/json",
    body: { json: { name: "Rex", tag: null } },
  },
  {
    name: "array body is the argument `body`, sent unwrapped",
    versions: ALL,
    tool: "replacePets",
    args: { body: [{ name: "A" }, { name: "B", age: 2 }] },
    method: "PUT",
    path: "/base/pets/bulk",
    query: "",
    contentType: "application/json",
    body: { json: [{ name: "A" }, { name: "B", age: 2 }] },
  },
  {
    name: "primitive JSON body",
    versions: ALL,
    tool: "setCounter",
    args: { body: 42 },
    method: "POST",
    path: "/base/counter",
    query: "",
    contentType: "application/json",
    body: { text: "42" },
  },
  {
    name: "oneOf body",
    versions: OAS3,
    tool: "createShape",
    args: { body: { kind: "circle", radius: 2 } },
    method: "POST",
    path: "/base/shapes",
    query: "",
    contentType: "application/json",
    body: { json: { kind: "circle", radius: 2 } },
  },
  {
    name: "form-urlencoded body, array exploded",
    versions: ALL,
    tool: "login",
    args: { username: "alice", password: "p@ss word&x=1", scopes: ["read", "write"] },
    method: "POST",
    path: "/base/login",
    query: "",
    contentType: "application/x-www-form-urlencoded",
    body: {
      form: [
        ["username", "alice"],
        ["password", "p@ss word&x=1"],
        ["scopes", "read"],
        ["scopes", "write"],
      ],
    },
  },
  {
    name: "multipart: file with filename and type, text part, JSON part",
    versions: OAS3,
    tool: "uploadPetPhoto",
    args: {
      petId: 7,
      photo: { base64: PNG.toString("base64"), filename: "rex.png", contentType: "image/png" },
      caption: "Rex at the beach",
      meta: { width: 640, tags: ["beach"] },
    },
    method: "POST",
    path: "/base/pets/7/photo",
    query: "",
    contentType: "multipart/form-data",
    body: {
      multipart: [
        { name: "photo", filename: "rex.png", contentType: "image/png", body: { bytes: PNG } },
        { name: "caption", body: { text: "Rex at the beach" } },
        { name: "meta", contentType: "application/json", body: { json: { width: 640, tags: ["beach"] } } },
      ],
    },
  },
  {
    name: "multipart (formData): file with filename and type, text part",
    versions: ["2.0"],
    tool: "uploadPetPhoto",
    args: {
      petId: 7,
      photo: { base64: PNG.toString("base64"), filename: "rex.png", contentType: "image/png" },
      caption: "Rex at the beach",
    },
    method: "POST",
    path: "/base/pets/7/photo",
    query: "",
    contentType: "multipart/form-data",
    body: {
      multipart: [
        { name: "photo", filename: "rex.png", contentType: "image/png", body: { bytes: PNG } },
        { name: "caption", body: { text: "Rex at the beach" } },
      ],
    },
  },
  {
    name: "multipart: file given as a plain base64 string",
    versions: ALL,
    tool: "uploadPetPhoto",
    args: { petId: 8, photo: RAW.toString("base64") },
    method: "POST",
    path: "/base/pets/8/photo",
    query: "",
    contentType: "multipart/form-data",
    body: {
      multipart: [{ name: "photo", contentType: "application/octet-stream", body: { bytes: RAW } }],
    },
  },
  {
    name: "text/plain body",
    versions: ALL,
    tool: "addPetNote",
    args: { petId: 7, body: "hello\nworld é" },
    method: "POST",
    path: "/base/pets/7/notes",
    query: "",
    contentType: "text/plain",
    body: { text: "hello\nworld é" },
  },
  {
    name: "octet-stream body from base64",
    versions: ALL,
    tool: "uploadFile",
    args: { name: "a b.bin", body: RAW.toString("base64") },
    method: "PUT",
    path: "/base/files/a%20b.bin",
    query: "",
    contentType: "application/octet-stream",
    body: { bytes: RAW },
  },
  {
    name: "name clash: path keeps `id`, query is `id__query`, body property is `id__body`",
    versions: ALL,
    tool: "updateThing",
    args: { id: "t/1", id__query: 5, id__body: "body-id", name: "thing" },
    method: "PUT",
    path: "/base/things/t%2F1",
    query: "id=5",
    contentType: "application/json",
    body: { json: { id: "body-id", name: "thing" } },
  },
  // ---------------------------------------------------------------- Accept
  {
    name: "Accept follows a text/plain response",
    versions: ALL,
    tool: "getPetNotes",
    args: { petId: 3 },
    method: "GET",
    path: "/base/pets/3/notes",
    query: "",
    contentType: null,
    accept: "text/plain",
  },
  {
    name: "Accept follows an application/octet-stream response",
    versions: ALL,
    tool: "downloadFile",
    args: { name: "report.bin" },
    method: "GET",
    path: "/base/files/report.bin",
    query: "",
    contentType: null,
    accept: "application/octet-stream",
  },
  {
    name: "Accept follows an image/png response",
    versions: ALL,
    tool: "getPetPhoto",
    args: { petId: 3 },
    method: "GET",
    path: "/base/pets/3/photo",
    query: "",
    contentType: null,
    accept: "image/png",
  },
];

/** Calls that must be refused before anything is sent, and the argument the error must name. */
export interface RefusedCase {
  name: string;
  versions: SpecVersion[];
  tool: string;
  args: Record<string, unknown>;
  argument: string;
}

export const REFUSED_CASES: RefusedCase[] = [
  { name: "path argument `..`", versions: ALL, tool: "getItem", args: { itemId: ".." }, argument: "itemId" },
  { name: "path argument `.`", versions: ALL, tool: "getItem", args: { itemId: "." }, argument: "itemId" },
  {
    name: "header value with CR/LF",
    versions: ALL,
    tool: "headerParams",
    args: { "X-Request-Id": "a\r\nX-Evil: 1" },
    argument: "X-Request-Id",
  },
  {
    name: "header value with a bare LF",
    versions: ALL,
    tool: "headerParams",
    args: { "X-Request-Id": "a\nb" },
    argument: "X-Request-Id",
  },
];

/** Answers each wire operation with a body its documented 2xx response accepts. */
export const wireResponder: UpstreamHandler = (req, res) => {
  const path = req.rawPath.replace(/^\/base|^\/api\/v1/, "");
  if (req.method === "GET" && path === "/pets") return sendJson(res, 200, [{ id: 1, name: "Rex" }]);
  if (req.method === "POST" && path === "/pets") return sendJson(res, 201, { id: 1, name: "Rex" });
  const pet = /^\/pets\/(\d+)(\/photo|\/notes)?$/.exec(path);
  if (pet && req.method === "GET") {
    if (pet[2] === "/photo") return sendBytes(res, 200, "image/png", PNG);
    if (pet[2] === "/notes") return sendBytes(res, 200, "text/plain; charset=utf-8", "likes walks");
    return sendJson(res, 200, { id: Number(pet[1]), name: "Rex" });
  }
  if (req.method === "GET" && path.startsWith("/files/"))
    return sendBytes(res, 200, "application/octet-stream", RAW);
  if (req.method === "DELETE" && pet) {
    res.writeHead(204);
    res.end();
    return;
  }
  sendJson(res, 200, describeRequest(req));
};
