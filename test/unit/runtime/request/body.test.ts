import { FormData, Response } from "undici";
import { describe, expect, it } from "vitest";
import type { BodyBindingNode, BodyPropertyNode } from "../../../../src/model/types.js";
import { ArgumentError } from "../../../../src/runtime/request/argument-error.js";
import { decodeBase64Argument, encodeBody } from "../../../../src/runtime/request/body.js";

function bindBody(
  extra: Partial<BodyBindingNode> & Pick<BodyBindingNode, "kind" | "mediaType">,
): BodyBindingNode {
  return { required: false, mode: "value", argument: "body", ...extra };
}

function bindProperty(name: string, extra: Partial<BodyPropertyNode> = {}): BodyPropertyNode {
  return { argument: name, name, shape: "primitive", ...extra };
}

function catchArgumentError(run: () => unknown): ArgumentError {
  try {
    run();
  } catch (error) {
    if (error instanceof ArgumentError) return error;
    throw error;
  }
  throw new Error("expected an ArgumentError");
}

function asText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** The raw parts of a multipart body, each as `headers\r\n\r\ncontent`. */
async function readParts(form: FormData): Promise<string[]> {
  const response = new Response(form);
  const boundary = /boundary=(.+)$/.exec(response.headers.get("content-type") ?? "")![1]!;
  const text = await response.text();
  return text
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((chunk) => chunk.slice(2, -2));
}

function expectFormData(payload: unknown): FormData {
  expect(payload).toBeInstanceOf(FormData);
  return payload as FormData;
}

describe("encodeBody: json", () => {
  const properties = bindBody({
    kind: "json",
    mediaType: "application/json",
    mode: "properties",
    argument: undefined,
    properties: [
      bindProperty("name__body", { name: "name" }),
      bindProperty("tags", { shape: "array" }),
      bindProperty("owner", { shape: "object" }),
    ],
  });

  it.each([
    { args: { name__body: "Rex" }, want: '{"name":"Rex"}' },
    { args: { tags: ["a"], name__body: "Rex", other: 1 }, want: '{"name":"Rex","tags":["a"]}' },
    { args: { owner: { id: 1 }, name__body: null }, want: '{"name":null,"owner":{"id":1}}' },
  ])("properties $args → $want", ({ args, want }) => {
    expect(encodeBody(properties, args)).toEqual({ contentType: "application/json", payload: want });
  });

  it.each([
    { required: false, args: {} },
    { required: true, args: {} },
    { required: true, args: { other: 1 } },
  ])("properties mode with no property (required=$required) gives no body", ({ required, args }) => {
    expect(encodeBody({ ...properties, required }, args)).toBeUndefined();
  });

  it.each([
    {
      mediaType: "application/json",
      given: [1, 2],
      want: { contentType: "application/json", payload: "[1,2]" },
    },
    {
      mediaType: "application/json",
      given: "hi",
      want: { contentType: "application/json", payload: '"hi"' },
    },
    { mediaType: "application/json", given: 3, want: { contentType: "application/json", payload: "3" } },
    {
      mediaType: "application/json",
      given: null,
      want: { contentType: "application/json", payload: "null" },
    },
    {
      mediaType: "application/json",
      given: { value: 1 },
      want: { contentType: "application/json", payload: '{"value":1}' },
    },
    {
      mediaType: "application/merge-patch+json",
      given: { a: null },
      want: { contentType: "application/merge-patch+json", payload: '{"a":null}' },
    },
    {
      mediaType: "application/json; charset=utf-8",
      given: {},
      want: { contentType: "application/json; charset=utf-8", payload: "{}" },
    },
    { mediaType: "*/*", given: { a: 1 }, want: { contentType: "application/json", payload: '{"a":1}' } },
    { mediaType: "application/*", given: [], want: { contentType: "application/json", payload: "[]" } },
  ])("value $mediaType $given", ({ mediaType, given, want }) => {
    expect(encodeBody(bindBody({ kind: "json", mediaType }), { body: given })).toEqual(want);
  });

  it("value mode without the argument gives no body, even when required", () => {
    expect(
      encodeBody(bindBody({ kind: "json", mediaType: "application/json", required: true }), {}),
    ).toBeUndefined();
  });
});

describe("encodeBody: form", () => {
  const form = (extra: Partial<BodyBindingNode> = {}) =>
    bindBody({ kind: "form", mediaType: "application/x-www-form-urlencoded", mode: "properties", ...extra });

  it("encodes the OpenAPI 3.1.1 'URL Encoded Form with JSON Values' example", () => {
    const body = form({ properties: [bindProperty("id"), bindProperty("address", { shape: "object" })] });
    const args = {
      id: "f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
      address: { streetAddress: "123 Example Dr.", city: "Somewhere", state: "CA", zip: "99999+1234" },
    };
    expect(encodeBody(body, args)).toEqual({
      contentType: "application/x-www-form-urlencoded",
      payload:
        "id=f81d4fae-7dec-11d0-a765-00a0c91e6bf6&address=%7B%22streetAddress%22%3A%22123+Example+Dr.%22%2C%22city%22%3A%22Somewhere%22%2C%22state%22%3A%22CA%22%2C%22zip%22%3A%2299999%2B1234%22%7D",
    });
  });

  it("encodes a property as JSON when its Encoding Object says application/json", () => {
    const body = form({
      properties: [bindProperty("id")],
      encoding: { id: { contentType: "application/json" } },
    });
    expect(encodeBody(body, { id: "f81d4fae-7dec-11d0-a765-00a0c91e6bf6" })?.payload).toBe(
      "id=%22f81d4fae-7dec-11d0-a765-00a0c91e6bf6%22",
    );
  });

  it("sends a base64 file property as text, padding percent-encoded", () => {
    const body = form({
      properties: [bindProperty("name"), bindProperty("icon", { file: true })],
      encoding: { icon: { contentType: "image/png, image/jpeg" } },
    });
    expect(encodeBody(body, { name: "example", icon: "iVBO_x-g==" })?.payload).toBe(
      "name=example&icon=iVBO_x-g%3D%3D",
    );
    expect(encodeBody(body, { icon: { base64: "aGk=", filename: "x" } })?.payload).toBe("icon=aGk%3D");
  });

  it.each([
    { encoding: undefined, given: ["a b", "c~"], want: "tags=a+b&tags=c%7E" },
    { encoding: { style: "form" as const }, given: ["a b", "c"], want: "tags=a%20b&tags=c" },
    { encoding: { explode: false }, given: ["a b", "c"], want: "tags=a%20b,c" },
    { encoding: { style: "spaceDelimited" as const }, given: ["a", "b"], want: "tags=a%20b" },
    { encoding: { style: "pipeDelimited" as const, explode: false }, given: ["a", "b"], want: "tags=a%7Cb" },
    { encoding: { style: "form" as const }, given: { R: 1, G: 2 }, want: "R=1&G=2" },
    { encoding: { style: "form" as const, explode: false }, given: { R: 1, G: 2 }, want: "tags=R,1,G,2" },
    {
      encoding: { style: "deepObject" as const, explode: true },
      given: { R: 1, G: [2] },
      want: "tags%5BR%5D=1&tags%5BG%5D%5B%5D=2",
    },
    // Stripe's `expand` and `preferred_locales`: arrays under deepObject, read as lists.
    {
      encoding: { style: "deepObject" as const, explode: true },
      given: ["a", "b"],
      want: "tags%5B%5D=a&tags%5B%5D=b",
    },
    { encoding: { allowReserved: true }, given: "a/b&c", want: "tags=a/b%26c" },
    { encoding: undefined, given: null, want: "" },
    { encoding: undefined, given: ["x", null], want: "tags=x" },
    { encoding: undefined, given: true, want: "tags=true" },
  ])("encoding $encoding with $given → $want", ({ encoding, given, want }) => {
    const body = form({
      properties: [bindProperty("tags", { shape: "array" })],
      ...(encoding === undefined ? {} : { encoding: { tags: encoding } }),
    });
    expect(encodeBody(body, { tags: given })).toEqual({
      contentType: "application/x-www-form-urlencoded",
      payload: want,
    });
  });

  it("takes the fields of a value-mode object", () => {
    const body = bindBody({ kind: "form", mediaType: "application/x-www-form-urlencoded" });
    expect(encodeBody(body, { body: { grant_type: "password", "user name": "é&" } })?.payload).toBe(
      "grant_type=password&user+name=%C3%A9%26",
    );
  });

  it("refuses a value-mode body that is not an object", () => {
    const body = bindBody({ kind: "form", mediaType: "application/x-www-form-urlencoded" });
    expect(catchArgumentError(() => encodeBody(body, { body: "a=b" })).argument).toBe("body");
  });

  it("gives no body when no field is present", () => {
    expect(encodeBody(form({ properties: [bindProperty("a")] }), {})).toBeUndefined();
  });
});

describe("encodeBody: multipart", () => {
  const multipart = (properties: BodyPropertyNode[], encoding?: BodyBindingNode["encoding"]) =>
    bindBody({
      kind: "multipart",
      mediaType: "multipart/form-data",
      mode: "properties",
      properties,
      ...(encoding === undefined ? {} : { encoding }),
    });

  it("writes text, JSON and file parts", async () => {
    const body = multipart([
      bindProperty("id"),
      bindProperty("count"),
      bindProperty("address", { shape: "object" }),
      bindProperty("children", { shape: "array" }),
      bindProperty("profileImage", { file: true }),
      bindProperty("skipped"),
    ]);
    const encoded = encodeBody(body, {
      id: "a b\r\nc",
      count: 2,
      address: { city: "Zürich" },
      children: ["x", "y"],
      profileImage: { base64: "aGVsbG8=", filename: "hi.txt", contentType: "text/plain" },
      skipped: null,
    });
    expect(encoded?.contentType).toBe("");
    expect(await readParts(expectFormData(encoded?.payload))).toEqual([
      'Content-Disposition: form-data; name="id"\r\n\r\na b\r\nc',
      'Content-Disposition: form-data; name="count"\r\n\r\n2',
      'Content-Disposition: form-data; name="address"\r\nContent-Type: application/json\r\n\r\n{"city":"Zürich"}',
      'Content-Disposition: form-data; name="children"\r\n\r\nx',
      'Content-Disposition: form-data; name="children"\r\n\r\ny',
      'Content-Disposition: form-data; name="profileImage"; filename="hi.txt"\r\nContent-Type: text/plain\r\n\r\nhello',
    ]);
  });

  it("reads back with the right names, filenames and types", async () => {
    const body = multipart([bindProperty("note"), bindProperty("files", { shape: "array", file: true })]);
    const encoded = encodeBody(body, { note: "n", files: ["AAEC/w==", "data:image/png;base64,iVBORw=="] });
    const parsed = await new Response(expectFormData(encoded?.payload)).formData();
    expect(parsed.get("note")).toBe("n");
    const files = parsed.getAll("files") as File[];
    expect(files.map((file) => [file.name, file.type])).toEqual([
      ["file", "application/octet-stream"],
      ["file", "image/png"],
    ]);
    expect(new Uint8Array(await files[0]!.arrayBuffer())).toEqual(new Uint8Array([0, 1, 2, 255]));
    expect(new Uint8Array(await files[1]!.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });

  it.each([
    { declared: undefined, given: undefined, want: "application/octet-stream" },
    { declared: undefined, given: "image/gif", want: "image/gif" },
    { declared: "image/png", given: "image/gif", want: "image/png" },
    { declared: "image/png, image/jpeg", given: "image/jpeg", want: "image/jpeg" },
    { declared: "image/png, image/jpeg", given: undefined, want: "image/png" },
    { declared: "image/*", given: undefined, want: "application/octet-stream" },
    { declared: "image/*", given: "image/webp", want: "image/webp" },
  ])("file part type: encoding $declared, given $given → $want", async ({ declared, given, want }) => {
    const body = multipart(
      [bindProperty("img", { file: true })],
      declared === undefined ? undefined : { img: { contentType: declared } },
    );
    const encoded = encodeBody(body, {
      img: { base64: "", ...(given === undefined ? {} : { contentType: given }) },
    });
    expect(await readParts(expectFormData(encoded?.payload))).toEqual([
      `Content-Disposition: form-data; name="img"; filename="file"\r\nContent-Type: ${want}\r\n\r\n`,
    ]);
  });

  it("honours Encoding Object content types for non-file parts", async () => {
    const body = multipart(
      [
        bindProperty("addresses", { shape: "array" }),
        bindProperty("xml"),
        bindProperty("id"),
        bindProperty("plain"),
      ],
      {
        addresses: { contentType: "application/vnd.a+json" },
        xml: { contentType: "application/xml; charset=utf-8" },
        id: { contentType: "application/json" },
        plain: { contentType: "text/plain" },
      },
    );
    const encoded = encodeBody(body, { addresses: [{ a: 1 }, { a: 2 }], xml: "<a/>", id: "x", plain: "p" });
    expect(await readParts(expectFormData(encoded?.payload))).toEqual([
      'Content-Disposition: form-data; name="addresses"\r\nContent-Type: application/vnd.a+json\r\n\r\n{"a":1}',
      'Content-Disposition: form-data; name="addresses"\r\nContent-Type: application/vnd.a+json\r\n\r\n{"a":2}',
      'Content-Disposition: form-data; name="xml"\r\nContent-Type: application/xml; charset=utf-8\r\n\r\n<a/>',
      'Content-Disposition: form-data; name="id"\r\nContent-Type: application/json\r\n\r\n"x"',
      'Content-Disposition: form-data; name="plain"\r\n\r\np',
    ]);
  });

  it("sends an object-shaped array value as one JSON part", async () => {
    const body = multipart([bindProperty("meta", { shape: "object" })]);
    const encoded = encodeBody(body, { meta: [1, 2] });
    expect(await readParts(expectFormData(encoded?.payload))).toEqual([
      'Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n[1,2]',
    ]);
  });

  it("refuses invalid base64 in a file part", () => {
    const body = multipart([bindProperty("doc__body", { name: "doc", file: true })]);
    expect(catchArgumentError(() => encodeBody(body, { doc__body: "not base64!" })).argument).toBe(
      "doc__body",
    );
  });

  it("gives no body when no part is present", () => {
    expect(encodeBody(multipart([bindProperty("a")]), { b: 1 })).toBeUndefined();
  });
});

describe("encodeBody: text", () => {
  it.each([
    {
      mediaType: "text/plain",
      given: "héllo",
      want: { contentType: "text/plain; charset=utf-8", payload: "héllo" },
    },
    {
      mediaType: "text/csv; charset=iso-8859-1",
      given: "a,b",
      want: { contentType: "text/csv; charset=iso-8859-1", payload: "a,b" },
    },
    { mediaType: "text/*", given: 12, want: { contentType: "text/plain; charset=utf-8", payload: "12" } },
    {
      mediaType: "application/xml",
      given: "<a/>",
      want: { contentType: "application/xml; charset=utf-8", payload: "<a/>" },
    },
    {
      mediaType: "text/plain",
      given: { a: 1 },
      want: { contentType: "text/plain; charset=utf-8", payload: '{"a":1}' },
    },
  ])("$mediaType $given", ({ mediaType, given, want }) => {
    expect(encodeBody(bindBody({ kind: "text", mediaType }), { body: given })).toEqual(want);
  });

  it("uses the single property in properties mode", () => {
    const body = bindBody({
      kind: "text",
      mediaType: "text/plain",
      mode: "properties",
      properties: [bindProperty("t")],
    });
    expect(encodeBody(body, { t: "x" })).toEqual({ contentType: "text/plain; charset=utf-8", payload: "x" });
    expect(encodeBody(body, {})).toBeUndefined();
  });
});

describe("encodeBody: binary", () => {
  it.each([
    { mediaType: "application/octet-stream", given: "AAEC/w==", want: "application/octet-stream" },
    {
      mediaType: "application/pdf",
      given: { base64: "AAEC_w", contentType: "x/y" },
      want: "application/pdf",
    },
    { mediaType: "*/*", given: "AAEC/w", want: "application/octet-stream" },
    { mediaType: "application/*", given: "AAEC/w==", want: "application/octet-stream" },
    { mediaType: "image/*", given: "data:image/png;base64,AAEC/w==", want: "image/png" },
    { mediaType: "*/*", given: { base64: "AAEC/w==", contentType: "audio/ogg" }, want: "audio/ogg" },
  ])("$mediaType $given → $want", ({ mediaType, given, want }) => {
    const encoded = encodeBody(bindBody({ kind: "binary", mediaType }), { body: given });
    expect(encoded?.contentType).toBe(want);
    expect(encoded?.payload).toEqual(new Uint8Array([0, 1, 2, 255]));
  });

  it("refuses bad base64 naming the argument", () => {
    const body = bindBody({ kind: "binary", mediaType: "application/octet-stream", argument: "file__body" });
    expect(catchArgumentError(() => encodeBody(body, { file__body: "@@" })).argument).toBe("file__body");
  });
});

describe("decodeBase64Argument", () => {
  it.each([
    { given: "", bytes: "", rest: {} },
    { given: "aGk=", bytes: "hi", rest: {} },
    { given: "aGk", bytes: "hi", rest: {} },
    { given: "aGVsbG8=", bytes: "hello", rest: {} },
    { given: " aGVs\r\nbG8= ", bytes: "hello", rest: {} },
    {
      given: "data:text/plain;charset=utf-8;base64,aGk=",
      bytes: "hi",
      rest: { contentType: "text/plain;charset=utf-8" },
    },
    { given: "data:;base64,aGk=", bytes: "hi", rest: {} },
    { given: { base64: "aGk=" }, bytes: "hi", rest: {} },
    {
      given: { base64: "aGk=", filename: "a.txt", contentType: "text/plain" },
      bytes: "hi",
      rest: { filename: "a.txt", contentType: "text/plain" },
    },
    { given: { base64: "data:image/png;base64,aGk=" }, bytes: "hi", rest: { contentType: "image/png" } },
    { given: { base64: "aGk=", filename: "", contentType: "" }, bytes: "hi", rest: {} },
  ])("$given", ({ given, bytes, rest }) => {
    const decoded = decodeBase64Argument("f", given);
    expect(asText(decoded.bytes)).toBe(bytes);
    expect(decoded.bytes).toBeInstanceOf(Uint8Array);
    const { bytes: _bytes, ...others } = decoded;
    expect(others).toEqual(rest);
  });

  it.each([
    { given: "+/8=", want: [0xfb, 0xff] },
    { given: "-_8=", want: [0xfb, 0xff] },
    { given: "-_8", want: [0xfb, 0xff] },
    { given: "AAEC/w==", want: [0, 1, 2, 255] },
  ])("base64 and base64url: $given", ({ given, want }) => {
    expect(decodeBase64Argument("f", given).bytes).toEqual(new Uint8Array(want));
  });

  it.each([
    "aGk*",
    "a",
    "aGk==",
    "aG=k",
    "aGl=",
    "+-8=",
    "aGVsbG8===",
    "data:text/plain,hi",
    42,
    null,
    ["aGk="],
    { base64: 1 },
    { data: "aGk=" },
    { base64: "aGk=", filename: 3 },
    { base64: "aGk=", contentType: true },
  ])("refuses %j", (given) => {
    expect(catchArgumentError(() => decodeBase64Argument("upload", given)).argument).toBe("upload");
  });
});
