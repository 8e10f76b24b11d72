/**
 * What reaches the REST API, byte for byte: every parameter style, every body type, for the same
 * API written in OpenAPI 3.1, 3.0 and Swagger 2.0. A real SDK Client talks in memory to the
 * bridge; a real HTTP server on 127.0.0.1 records each request.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Connected, connectSpec, fixture, textOf } from "../helpers/bridge.js";
import {
  mediaType,
  parseMultipart,
  type RecordedRequest,
  startUpstream,
  type Upstream,
} from "../helpers/upstream.js";
import {
  ALL,
  type BodyExpectation,
  REFUSED_CASES,
  type SpecVersion,
  WIRE_CASES,
  WIRE_SPECS,
  type WireCase,
  wireResponder,
} from "./wire-cases.js";

function expectBody(req: RecordedRequest, body: BodyExpectation): void {
  if ("json" in body) {
    expect(req.json()).toEqual(body.json);
  } else if ("text" in body) {
    expect(req.text()).toBe(body.text);
  } else if ("bytes" in body) {
    expect(req.body.equals(body.bytes), `body bytes ${req.body.toString("hex")}`).toBe(true);
  } else if ("form" in body) {
    expect([...new URLSearchParams(req.text()).entries()]).toEqual(body.form);
  } else {
    const parts = parseMultipart(req.body, req.header("content-type") ?? "");
    expect(parts.map((p) => p.name)).toEqual(body.multipart.map((p) => p.name));
    for (const [i, want] of body.multipart.entries()) {
      const got = parts[i]!;
      if (want.filename !== undefined) expect(got.filename, `${want.name} filename`).toBe(want.filename);
      if (want.contentType !== undefined) {
        expect(mediaType(got.contentType), `${want.name} content-type`).toBe(want.contentType);
      }
      if ("bytes" in want.body) {
        expect(got.body.equals(want.body.bytes), `${want.name} bytes ${got.body.toString("hex")}`).toBe(true);
      } else if ("text" in want.body) {
        expect(got.body.toString("utf8"), `${want.name} text`).toBe(want.body.text);
      } else {
        expect(JSON.parse(got.body.toString("utf8")), `${want.name} json`).toEqual(want.body.json);
      }
    }
  }
}

function expectRequest(req: RecordedRequest, c: WireCase): void {
  expect(req.method).toBe(c.method);
  expect(req.rawPath).toBe(c.path);
  expect(req.rawQuery).toBe(c.query);
  if (c.query === "") expect(req.hasQuery, `no '?' expected in ${req.rawUrl}`).toBe(false);
  for (const [name, value] of Object.entries(c.headers ?? {})) {
    expect(req.header(name), `header ${name}`).toBe(value);
  }
  if (c.contentType === null) {
    expect(req.header("content-type"), "no content-type without a body").toBeUndefined();
    expect(req.body.length, "empty body").toBe(0);
  } else {
    expect(mediaType(req.header("content-type"))).toBe(c.contentType);
  }
  if (c.accept !== undefined) {
    expect(mediaType(req.header("accept")?.split(",")[0]), "first Accept media type").toBe(c.accept);
  }
  if (c.body !== undefined) expectBody(req, c.body);
  if (c.cookies === undefined) {
    expect(req.cookie, "no cookie header").toBeUndefined();
  } else {
    const sort = (pairs: [string, string][]) => [...pairs].sort((a, b) => a[0].localeCompare(b[0]));
    expect(sort(req.cookies())).toEqual(sort(c.cookies));
  }
  // Nothing configured means no credentials of any kind.
  expect(req.header("authorization")).toBeUndefined();
  expect(req.header("x-api-key")).toBeUndefined();
}

let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream(wireResponder);
});

afterAll(async () => {
  await upstream.close();
});

describe.each(ALL)("wire, OpenAPI %s", (version: SpecVersion) => {
  let bridge: Connected;

  beforeAll(async () => {
    bridge = await connectSpec(fixture(WIRE_SPECS[version]), { baseUrl: `${upstream.url}/base` });
  });

  afterAll(async () => {
    await bridge?.close();
  });

  beforeEach(() => {
    upstream.reset();
  });

  const cases = WIRE_CASES.filter((c) => c.versions.includes(version));

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const result = await bridge.call(c.tool, c.args);
    expect(result.isError ?? false, textOf(result)).toBe(false);
    expect(upstream.requests).toHaveLength(1);
    expectRequest(upstream.requests[0]!, c);
  });

  const refused = REFUSED_CASES.filter((c) => c.versions.includes(version));

  it.each(refused.map((c) => [c.name, c] as const))(
    "refuses %s without sending anything",
    async (_name, c) => {
      const result = await bridge.call(c.tool, c.args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(c.argument);
      expect(upstream.requests).toHaveLength(0);
    },
  );

  if (version !== "2.0") {
    it("a cookie value cannot inject another cookie", async () => {
      const result = await bridge.call("cookieParams", { session: "a; admin=1" });
      if (result.isError) {
        expect(textOf(result)).toContain("session");
        expect(upstream.requests).toHaveLength(0);
        return;
      }
      const req = upstream.requests[0]!;
      expect(req.cookies().map(([name]) => name)).toEqual(["session"]);
      expect(decodeURIComponent(req.cookies()[0]![1])).toBe("a; admin=1");
    });
  }

  it("sends nothing when the arguments fail validation", async () => {
    const result = await bridge.call("getPet", { petId: "not-a-number" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("petId");
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("server URL", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "omb-wire-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    upstream.reset();
  });

  it("--base-url replaces the whole server URL, path included", async () => {
    const bridge = await connectSpec(fixture(WIRE_SPECS["3.1"]), { baseUrl: upstream.url });
    try {
      const result = await bridge.call("getPet", { petId: 1 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/pets/1"]);
    } finally {
      await bridge.close();
    }
  });

  it("--base-url with a trailing slash does not double the slash", async () => {
    const bridge = await connectSpec(fixture(WIRE_SPECS["3.0"]), { baseUrl: `${upstream.url}/base/` });
    try {
      const result = await bridge.call("getPet", { petId: 1 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => r.rawUrl)).toEqual(["/base/pets/1"]);
    } finally {
      await bridge.close();
    }
  });

  it("uses the spec's servers entry with its variables' defaults when no base URL is given (3.1)", async () => {
    const text = await readFile(fixture(WIRE_SPECS["3.1"]), "utf8");
    const patched = text.replace(
      "  - url: https://wire.example.test/api/v1\n",
      [
        "  - url: http://127.0.0.1:{port}/{basePath}",
        "    variables:",
        `      port: { default: "${upstream.port}" }`,
        '      basePath: { default: "api/v1", enum: ["api/v1", "api/v2"] }',
        "",
      ].join("\n"),
    );
    expect(patched).not.toBe(text);
    const file = join(dir, "wire-servers.openapi31.yaml");
    await writeFile(file, patched);
    const bridge = await connectSpec(file);
    try {
      const result = await bridge.call("getPet", { petId: 2 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(["GET /api/v1/pets/2"]);
    } finally {
      await bridge.close();
    }
  });

  it("uses host + basePath + schemes of a Swagger 2.0 spec", async () => {
    const text = await readFile(fixture(WIRE_SPECS["2.0"]), "utf8");
    const patched = text
      .replace("host: wire.example.test\n", `host: 127.0.0.1:${upstream.port}\n`)
      .replace("schemes: [https]\n", "schemes: [http]\n");
    const file = join(dir, "wire-host.swagger20.yaml");
    await writeFile(file, patched);
    const bridge = await connectSpec(file);
    try {
      const result = await bridge.call("getPet", { petId: 3 });
      expect(result.isError ?? false, textOf(result)).toBe(false);
      expect(upstream.requests.map((r) => `${r.method} ${r.rawUrl}`)).toEqual(["GET /api/v1/pets/3"]);
    } finally {
      await bridge.close();
    }
  });

  it("adds static headers from options to every request", async () => {
    const bridge = await connectSpec(fixture(WIRE_SPECS["3.0"]), {
      baseUrl: upstream.url,
      headers: { "X-Tenant": "acme", "User-Agent": "e2e-agent/1" },
    });
    try {
      await bridge.call("getPet", { petId: 1 });
      await bridge.call("createPet", { name: "Rex" });
      expect(upstream.requests).toHaveLength(2);
      for (const req of upstream.requests) {
        expect(req.header("x-tenant")).toBe("acme");
        expect(req.header("user-agent")).toBe("e2e-agent/1");
      }
    } finally {
      await bridge.close();
    }
  });
});
