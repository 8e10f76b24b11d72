/**
 * Build step, after bundle-sdk.mjs: the `openapi-mcp-bridge` command (dist/cli/main.js) as a
 * handful of ES module chunks beside it instead of some 250 compiled modules. Resolving,
 * reading and linking each module is a fixed cost of every start; on the bundled petstore
 * example in stdio mode the chunks cut the CPU of a start to the first tools/list by about a
 * fifth (bench/results/startup.md). Code splitting is kept: what the program imports lazily
 * (the HTTP transport, the OAuth front door, telemetry, hot reload) stays in chunks loaded
 * only when used, and the compile cache is still switched on before the program's chunks load.
 *
 * Only the command changes. The library (dist/index.js), the worker entries (code mode's
 * sandbox, the spec checker, the printers) and src/runtime, which generated projects copy, stay
 * as compiled. A module that reads `import.meta.url` to find a file beside it (a worker entry,
 * the package root, precompiled validators) gets the address of its compiled file, so every
 * path it computes is the same as unbundled. Packages stay external; the SDK's vendored
 * chunks (relative imports) come in, still one copy per process.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli");
const ENTRY = join(CLI, "main.js");
const STAGING = join(ROOT, "dist", ".cli-bundle");
const CHUNK_PREFIX = "chunk-";
const BANNER = "// Bundled by scripts/bundle-cli.mjs from the compiled modules under dist/.";

if (!existsSync(ENTRY)) throw new Error(`bundle-cli: ${ENTRY} is missing; run tsc first`);
if (readFileSync(ENTRY, "utf8").slice(0, 200).includes(BANNER)) {
  // Bundling the bundle would lose the chunks it imports; tsc rewrites main.js on every build.
  process.stderr.write(
    "bundle-cli: dist/cli/main.js is already bundled; run the whole build to bundle again\n",
  );
  process.exit(0);
}

for (const name of readdirSync(CLI)) if (name.startsWith(CHUNK_PREFIX)) rmSync(join(CLI, name));
rmSync(STAGING, { recursive: true, force: true });

/** `import.meta.url` of the compiled file `id`, written relative to the chunk that holds it. */
function pinImportMetaUrl(code, id) {
  if (!code.includes("import.meta.url")) return undefined;
  const path = relative(CLI, id).split(sep).join("/");
  return code.replaceAll("import.meta.url", `new URL(${JSON.stringify(path)}, import.meta.url).href`);
}

await build({
  input: ENTRY,
  platform: "node",
  external: (id) => !id.startsWith(".") && !id.startsWith("/"),
  plugins: [{ name: "pin-import-meta-url", transform: pinImportMetaUrl }],
  logLevel: "warn",
  output: {
    dir: STAGING,
    format: "esm",
    entryFileNames: "main.js",
    chunkFileNames: `${CHUNK_PREFIX}[name]-[hash].js`,
    banner: BANNER,
    // ASCII only, JSDoc left out: one non-ASCII character (a dash in a comment) makes V8 hold a
    // whole chunk as a two-byte string, decoded from UTF-8 at every start, and Node 20 has no
    // compile cache to skip that. The SDK's chunk alone then loads in ~4% less CPU; a start from
    // a saved model, 0.93-0.99x (bench/results/startup.md). Strings and regular expressions keep
    // their values (\uXXXX escapes); licence and annotation comments stay.
    charset: "ascii",
    comments: { legal: true, annotation: true, jsdoc: false },
  },
});

for (const name of readdirSync(STAGING)) renameSync(join(STAGING, name), join(CLI, name));
rmSync(STAGING, { recursive: true, force: true });
