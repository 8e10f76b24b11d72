/**
 * The watcher reads as the loader does: a regular file of at most maxBytes, a URL's answer of at
 * most maxBytes, redirects on its own origin only. Each case below made the watcher read without
 * bound before (an endless answer took the bridge to 1.5 GB; a symlink to /dev/zero likewise).
 */
import { mkdtempSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type SpecWatch, watchSpec } from "../../../../src/serve/reload/spec-watch.js";

const open: { watch?: SpecWatch; server?: Server }[] = [];
afterEach(async () => {
  for (const entry of open.splice(0)) {
    entry.watch?.close();
    if (entry.server) await new Promise((resolve) => entry.server!.close(resolve));
  }
});

/** Resolves with the first problem the watcher says. */
function watchForProblem(source: string, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const watch = watchSpec({
      source,
      intervalMs: 50,
      debounceMs: 5,
      maxBytes,
      onChange: () => reject(new Error("a change was reported")),
      onProblem: resolve,
    });
    open.push({ watch });
  });
}

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({ server });
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

describe("watchSpec reads within the loader's limits", () => {
  it("refuses a watched file that is a symlink to a device", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-watch-"));
    const file = join(dir, "api.yaml");
    symlinkSync("/dev/zero", file);
    expect(await watchForProblem(file, 1024)).toMatch(/cannot read .*api\.yaml: it is not a regular file/);
  });

  it("refuses a file larger than maxBytes, and one that grows past them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-watch-"));
    const file = join(dir, "api.yaml");
    writeFileSync(file, "x".repeat(2048));
    expect(await watchForProblem(file, 1024)).toMatch(/it is larger than 1024 bytes \(--max-spec-bytes\)/);
  });

  it("notices a change of a regular file within the limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "omb-watch-"));
    const file = join(dir, "api.yaml");
    writeFileSync(file, "openapi: 3.1.0\n");
    const changed = new Promise<void>((resolve, reject) => {
      let first = true;
      const watch = watchSpec({
        source: file,
        intervalMs: 50,
        debounceMs: 5,
        maxBytes: 1024,
        onChange: () => resolve(),
        onProblem: (message) => (first ? undefined : reject(new Error(message))),
      });
      first = false;
      open.push({ watch });
    });
    // Saved the way editors save: a new file renamed over the old one.
    await new Promise((resolve) => setTimeout(resolve, 30));
    writeFileSync(`${file}.tmp`, "openapi: 3.1.0\ninfo: {}\n");
    renameSync(`${file}.tmp`, file);
    await changed;
  });

  it("stops reading an endless answer at maxBytes", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/yaml" });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (res.write(chunk)) {}
      };
      res.on("drain", pump);
      pump();
    });
    expect(await watchForProblem(`${url}/api.yaml`, 256 * 1024)).toMatch(
      /the answer is larger than 262144 bytes \(--max-spec-bytes\)/,
    );
  });

  it("follows no redirect to another origin", async () => {
    const other = await serve((_req, res) => res.writeHead(200).end("openapi: 3.1.0\n"));
    const url = await serve((_req, res) => res.writeHead(302, { location: `${other}/api.yaml` }).end());
    expect(await watchForProblem(`${url}/api.yaml`, 1024)).toMatch(/it redirects to another origin/);
  });
});
