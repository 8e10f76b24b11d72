/**
 * Specs that try to make the loader read what it must not: files outside the spec's folder
 * tree (directly, through `..`, an absolute path or a symlink), devices and FIFOs, documents
 * larger than the byte caps, network refs that redirect to another host, and documents nested
 * so deep that any recursive walk would overflow the stack.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSpec } from "../../../src/generator/spec/load-spec.js";
import { MAX_DOCUMENT_DEPTH } from "../../../src/model/json-depth.js";
import { failure, stdin } from "../../helpers/spec-loading.js";

const root = mkdtempSync(join(tmpdir(), "omb-hostile-load-"));
const specDir = join(root, "project", "spec");
const secretDir = join(root, "secret");
const SECRET = "TOPSECRET-4711";

/** A spec whose one operation's response schema is `$ref: <ref>` (a description would do too). */
function specWithRef(ref: string): string {
  return [
    "openapi: 3.1.0",
    'info: {title: T, version: "1"}',
    "paths:",
    "  /x:",
    "    get:",
    "      operationId: x",
    "      responses:",
    '        "200":',
    "          description: OK",
    "          content:",
    "            application/json:",
    `              schema: {$ref: ${JSON.stringify(ref)}}`,
    "",
  ].join("\n");
}

function writeSpec(name: string, ref: string): string {
  const file = join(specDir, name);
  writeFileSync(file, specWithRef(ref));
  return file;
}

beforeAll(() => {
  mkdirSync(join(specDir, "schemas"), { recursive: true });
  mkdirSync(secretDir, { recursive: true });
  writeFileSync(join(secretDir, "creds.yaml"), `type: string\ndescription: ${SECRET}\n`);
  writeFileSync(join(specDir, "schemas", "ok.yaml"), "type: string\ndescription: inside\n");
  // A symlink inside the spec's folder that leads out of it, and one that stays inside.
  symlinkSync(join(secretDir, "creds.yaml"), join(specDir, "schemas", "link-out.yaml"));
  symlinkSync(join(secretDir), join(specDir, "linked-folder"));
  symlinkSync(join(specDir, "schemas", "ok.yaml"), join(specDir, "link-in.yaml"));
  // An external file that is inside, but refers outside.
  writeFileSync(
    join(specDir, "schemas", "hop.yaml"),
    'type: object\nproperties:\n  s: {$ref: "../../../secret/creds.yaml"}\n',
  );
  execFileSync("mkfifo", [join(specDir, "pipe.yaml")]);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("file $refs stay inside the spec's folder tree", () => {
  it.each([
    ["a relative path up and out", "../../secret/creds.yaml", "OMB_REF_OUTSIDE_ROOT"],
    ["an absolute path", "/etc/hostname", "OMB_REF_OUTSIDE_ROOT"],
    ["a file: URL", "file:///etc/hostname", "OMB_REF_OUTSIDE_ROOT"],
    ["a symlinked file leading out", "schemas/link-out.yaml", "OMB_REF_OUTSIDE_ROOT"],
    ["a file in a symlinked folder leading out", "linked-folder/creds.yaml", "OMB_REF_OUTSIDE_ROOT"],
    ["an inside file that refers out", "schemas/hop.yaml", "OMB_REF_OUTSIDE_ROOT"],
    ["/dev/zero", "/dev/zero", "OMB_REF_OUTSIDE_ROOT"],
  ])("%s (%s) is refused: %s, nothing of it read", async (_what, ref, code) => {
    const file = writeSpec("spec.yaml", ref);
    const diagnostics = await failure(file);
    expect(diagnostics.map((d) => d.code)).toEqual([code]);
    expect(JSON.stringify(diagnostics)).not.toContain(SECRET);
    expect(diagnostics[0]!.hint).toContain("--ref-root");
  });

  it("names the place that holds the ref and where it really leads", async () => {
    const file = writeSpec("spec.yaml", "schemas/link-out.yaml");
    const [diagnostic] = await failure(file);
    expect(diagnostic).toMatchObject({
      file,
      pointer: "/paths/~1x/get/responses/200/content/application~1json/schema",
    });
    expect(diagnostic!.message).toContain(
      `it leads to ${join(secretDir, "creds.yaml")}, outside the spec's folder`,
    );
  });

  it.each([
    ["a file below the spec", "schemas/ok.yaml"],
    ["a symlink that stays inside", "link-in.yaml"],
  ])("%s is read", async (_what, ref) => {
    const spec = await loadSpec(writeSpec("spec.yaml", ref));
    expect(JSON.stringify(spec.document)).toContain("inside");
  });

  it("--ref-root (refRoots) names another folder that may be read", async () => {
    const file = writeSpec("spec.yaml", "../../secret/creds.yaml");
    const spec = await loadSpec(file, { refRoots: [secretDir] });
    expect(JSON.stringify(spec.document)).toContain(SECRET);
    const other = await failure(file, { refRoots: [join(root, "project", "elsewhere")] });
    expect(other.map((d) => d.code)).toEqual(["OMB_REF_OUTSIDE_ROOT"]);
  });

  it("a spec read from standard input may read below the current directory only", async () => {
    const diagnostics = await failure("-", stdin(specWithRef("/etc/hostname")));
    expect(diagnostics.map((d) => d.code)).toEqual(["OMB_REF_OUTSIDE_ROOT"]);
  });
});

describe("only regular files are read, and only so many bytes", () => {
  it.each([
    ["a FIFO (which would block forever)", "pipe.yaml", "a FIFO"],
    ["a directory", "schemas", "a directory"],
  ])("%s is refused", async (_what, ref, kind) => {
    const diagnostics = await failure(writeSpec("spec.yaml", ref));
    expect(diagnostics[0]!.code).toBe("OMB_REF_NOT_FILE");
    expect(diagnostics[0]!.message).toContain(kind);
  });

  it("/dev/zero as an extra root is still refused: not a regular file", async () => {
    const diagnostics = await failure(writeSpec("spec.yaml", "/dev/zero"), { refRoots: ["/dev"] });
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "OMB_REF_NOT_FILE",
        '$ref "/dev/zero" refused: /dev/zero: it is not a regular file (a character device)',
      ],
    ]);
  });

  it("a referenced file over the per-document cap is refused", async () => {
    writeFileSync(join(specDir, "schemas", "big.yaml"), `type: string\ndescription: ${"x".repeat(5000)}\n`);
    const file = writeSpec("spec.yaml", "schemas/big.yaml");
    const diagnostics = await failure(file, { maxSpecBytes: 4096 });
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["OMB_SPEC_TOO_LARGE", "/paths/~1x/get/responses/200/content/application~1json/schema"],
    ]);
    expect(diagnostics[0]!.message).toContain("larger than 4 KiB");
    expect((await loadSpec(file, { maxSpecBytes: 8192 })).document).toBeDefined();
  });

  it("documents each under the cap but over the total together are refused", async () => {
    writeFileSync(join(specDir, "schemas", "half.yaml"), `type: string\ndescription: ${"y".repeat(3000)}\n`);
    const file = writeSpec("spec.yaml", "schemas/half.yaml");
    const diagnostics = await failure(file, { maxSpecBytes: 4096, maxTotalSpecBytes: 3200 });
    expect(diagnostics[0]!.code).toBe("OMB_SPEC_TOO_LARGE");
    expect(diagnostics[0]!.message).toContain("together");
  });

  it("the spec itself and standard input have the cap too", async () => {
    const file = writeSpec("spec.yaml", "schemas/ok.yaml");
    const own = await failure(file, { maxSpecBytes: 64 });
    expect(own.map((d) => d.code)).toEqual(["OMB_SPEC_TOO_LARGE"]);
    const piped = await failure("-", { ...stdin(specWithRef("#/x")), maxSpecBytes: 64 });
    expect(piped.map((d) => d.code)).toEqual(["OMB_SPEC_TOO_LARGE"]);
  });
});

describe("network $refs do not follow redirects to other hosts", () => {
  let server: Server;
  let port: number;
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(`${req.headers.host} ${req.url}`);
      if (req.url === "/to-other-host") {
        // localhost and 127.0.0.1 are the same machine but not the same host name.
        res.writeHead(302, { location: `http://localhost:${port}/schema.yaml` });
      } else if (req.url === "/to-same-host") {
        res.writeHead(301, { location: "/schema.yaml" });
      } else if (req.url === "/endless") {
        res.writeHead(200, { "content-type": "application/yaml" });
        res.write(`type: string\ndescription: ${"z".repeat(10_000)}`);
        // never ends: the cap must end it
        return;
      } else {
        res.writeHead(200, { "content-type": "application/yaml" });
        res.end("type: string\ndescription: fetched\n");
        return;
      }
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it("a redirect to another host is refused with OMB_REF_REDIRECT, the other host never asked", async () => {
    requests.length = 0;
    const file = writeSpec("net.yaml", `http://127.0.0.1:${port}/to-other-host`);
    const diagnostics = await failure(file, { allowNetworkRefs: true });
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["OMB_REF_REDIRECT", "/paths/~1x/get/responses/200/content/application~1json/schema"],
    ]);
    expect(diagnostics[0]!.message).toContain("another host (localhost)");
    expect(requests).toEqual([`127.0.0.1:${port} /to-other-host`]);
  });

  it("a redirect on the same host is followed", async () => {
    const spec = await loadSpec(writeSpec("net.yaml", `http://127.0.0.1:${port}/to-same-host`), {
      allowNetworkRefs: true,
    });
    expect(JSON.stringify(spec.document)).toContain("fetched");
  });

  it("an answer that never ends is cut at the cap", async () => {
    const file = writeSpec("net.yaml", `http://127.0.0.1:${port}/endless`);
    const diagnostics = await failure(file, { allowNetworkRefs: true, maxSpecBytes: 4096 });
    expect(diagnostics.map((d) => d.code)).toEqual(["OMB_SPEC_TOO_LARGE"]);
  });
});

describe("documents nested too deep", () => {
  const deepJson = (levels: number) =>
    `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{},"x-deep":${'{"a":'.repeat(levels)}1${"}".repeat(levels)}}`;

  it.each([
    ["100,000 levels of JSON objects", deepJson(100_000)],
    [
      "100,000 levels of JSON arrays",
      deepJson(0).replace('"x-deep":1', `"x-deep":${"[".repeat(100_000)}${"]".repeat(100_000)}`),
    ],
  ])(
    "%s: OMB_SPEC_TOO_DEEP with the pointer of where it starts, not a stack overflow",
    async (_what, text) => {
      const diagnostics = await failure("-", stdin(text));
      expect(diagnostics.map((d) => d.code)).toEqual(["OMB_SPEC_TOO_DEEP"]);
      expect(diagnostics[0]!.pointer).toMatch(/^\/x-deep\/(a|0)\//);
      expect(diagnostics[0]!.message).toContain(`more than ${MAX_DOCUMENT_DEPTH} levels deep`);
    },
  );

  it("deep YAML flow collections: OMB_SPEC_TOO_DEEP with the line and column", async () => {
    const yaml = `openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths: {}\nx-deep: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
    const diagnostics = await failure("-", stdin(yaml));
    expect(diagnostics.map((d) => d.code)).toEqual(["OMB_SPEC_TOO_DEEP"]);
    expect(diagnostics[0]!.message).toMatch(/<stdin>:4:\d+: YAML collections are nested deeper/);
  });

  it("a referenced file nested too deep names that file", async () => {
    writeFileSync(join(specDir, "schemas", "deep.json"), `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`);
    const diagnostics = await failure(writeSpec("spec.yaml", "schemas/deep.json"));
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([
      ["OMB_SPEC_TOO_DEEP", expect.stringContaining("deep.json")],
    ]);
  });

  it("a document just within the limit loads", async () => {
    const spec = await loadSpec("-", { ...stdin(deepJson(MAX_DOCUMENT_DEPTH - 2)), validate: false });
    expect(spec.document).toBeDefined();
  });
});
