/**
 * A long-lived process that runs Prism's mock server for one spec after another: exactly what
 * `prism mock SPEC -h 127.0.0.1 -p PORT --errors -v warn` runs (`createSingleProcessPrism` from
 * `@stoplight/prism-cli` with the options its `mock` command passes), without paying Prism's
 * ~2 s of module loading once per spec. run.ts keeps one host per parallel slot, restarts it
 * every few dozen specs, and kills it when a spec's Prism does not start in time.
 *
 * `npm run corpus -- --prism-cli` starts the real CLI per spec instead (prism.ts).
 *
 * IPC: `{ start: { spec, port } }` → `{ started: url }` | `{ failed: message }`;
 *      `{ stop: true }` → `{ stopped: true }`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";

interface PrismServer {
  close(): Promise<void>;
}

type CreatePrism = (options: Record<string, unknown>) => Promise<PrismServer>;

const require = createRequire(import.meta.url);
const { createSingleProcessPrism } = require("@stoplight/prism-cli/dist/util/createServer.js") as {
  createSingleProcessPrism: CreatePrism;
};

let current: { server?: PrismServer; scratch?: string } = {};

async function start(spec: string, port: number): Promise<string> {
  let document = spec;
  if (spec.endsWith(".gz")) {
    current.scratch = mkdtempSync(join(tmpdir(), "omb-prism-"));
    document = join(current.scratch, basename(spec, ".gz"));
    writeFileSync(document, gunzipSync(readFileSync(spec)));
  }
  // The options `prism mock` passes (commands/mock.js) with our flags: -h, -p, --errors, -v warn.
  current.server = await createSingleProcessPrism({
    cors: true,
    dynamic: false,
    port,
    host: "127.0.0.1",
    document,
    multiprocess: false,
    errors: true,
    verboseLevel: "warn",
    ignoreExamples: false,
    seed: null,
    jsonSchemaFakerFillProperties: undefined,
  });
  return `http://127.0.0.1:${port}`;
}

async function stop(): Promise<void> {
  const { server, scratch } = current;
  current = {};
  if (server) await server.close().catch(() => {});
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

process.on("message", (message: { start?: { spec: string; port: number }; stop?: boolean }) => {
  if (message.start) {
    const { spec, port } = message.start;
    start(spec, port).then(
      (url) => process.send?.({ started: url }),
      (error: unknown) =>
        process.send?.({ failed: String((error as Error)?.message ?? error).slice(0, 1500) }),
    );
  } else if (message.stop) {
    void stop().then(() => process.send?.({ stopped: true }));
  }
});
process.on("disconnect", () => process.exit(0));
// An error Prism does not catch ends the host, as it ends `prism mock`; run.ts starts another.
process.send?.({ ready: true });
