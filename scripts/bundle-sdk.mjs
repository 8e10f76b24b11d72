/**
 * Build step, after tsc: the parts of the MCP SDK that every start loads (its low-level Server,
 * types.js and the Ajv provider, with the zod they are written in) as a few ES modules in
 * dist/vendor/mcp-sdk/, and the compiled runtime's imports of them pointed there. Loaded from
 * the package, they are some 150 ES modules (zod alone is over 100), and resolving and linking
 * them took about a third of a start from a saved model; the same code in three files loads in
 * about a third of the time. Only dist/ changes: src/runtime, which generated projects copy,
 * still imports the package, and dist's .d.ts files still name the package's types.
 *
 * Left out: server/streamableHttp.js (HTTP mode only; it imports packages of the SDK's own,
 * such as @hono/node-server, which need not be resolvable from here), so HTTP mode loads it from
 * the package as before. ajv and ajv-formats stay imports: they are dependencies of this
 * package too. The SDK's, zod's and zod-to-json-schema's licences are copied beside the files.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist");
const OUT = join(DIST, "vendor", "mcp-sdk");
/** The SDK's ESM build (its exports map `./*` to dist/esm, so types.js is at its top). */
const SDK_ESM = dirname(fileURLToPath(import.meta.resolve("@modelcontextprotocol/sdk/types.js")));
const SDK_ROOT = join(SDK_ESM, "..", "..");

/** Specifier the compiled runtime uses → entry file of the SDK → name of the vendored module. */
const ENTRIES = {
  "@modelcontextprotocol/sdk/server/index.js": ["server/index.js", "server"],
  "@modelcontextprotocol/sdk/types.js": ["types.js", "types"],
  "@modelcontextprotocol/sdk/validation/ajv": ["validation/ajv-provider.js", "validation-ajv"],
};
/** Bundled with the SDK: zod is what its schemas are made of. Any other package stays an import. */
const BUNDLED_PACKAGES = /^(?:zod|zod-to-json-schema)(?:\/|$)/;

rmSync(OUT, { recursive: true, force: true });
await build({
  input: Object.fromEntries(Object.values(ENTRIES).map(([file, name]) => [name, join(SDK_ESM, file)])),
  platform: "node",
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !BUNDLED_PACKAGES.test(id),
  logLevel: "warn",
  output: {
    dir: OUT,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "shared-[hash].js",
    banner:
      "// Bundled by scripts/bundle-sdk.mjs from @modelcontextprotocol/sdk and zod (licences: ./licenses).",
  },
});

const licenses = join(OUT, "licenses");
mkdirSync(licenses, { recursive: true });
/** The folder of a package as the SDK finds it (not every package exports its package.json). */
function packageDir(name) {
  const paths = createRequire(join(SDK_ROOT, "package.json")).resolve.paths(name) ?? [];
  const found = paths.map((p) => join(p, name)).find((dir) => existsSync(join(dir, "package.json")));
  if (found === undefined) throw new Error(`bundle-sdk: ${name} not found from the SDK`);
  return found;
}
for (const [name, dir] of [
  ["@modelcontextprotocol/sdk", SDK_ROOT],
  ["zod", packageDir("zod")],
  ["zod-to-json-schema", packageDir("zod-to-json-schema")],
]) {
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  if (file !== undefined) copyFileSync(join(dir, file), join(licenses, `${name.replace("/", "+")}-${file}`));
}

/** Every .js file under dist/ except the vendored ones. */
function compiledFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (path === join(DIST, "vendor")) return [];
    if (statSync(path).isDirectory()) return compiledFiles(path);
    return name.endsWith(".js") ? [path] : [];
  });
}

let rewritten = 0;
for (const file of compiledFiles(DIST)) {
  const text = readFileSync(file, "utf8");
  let next = text;
  for (const [specifier, [, name]] of Object.entries(ENTRIES)) {
    let target = relative(dirname(file), join(OUT, `${name}.js`))
      .split(sep)
      .join("/");
    if (!target.startsWith(".")) target = `./${target}`;
    next = next.replaceAll(`from "${specifier}"`, `from "${target}"`);
  }
  if (next !== text) {
    writeFileSync(file, next);
    rewritten += 1;
  }
}
if (rewritten === 0)
  throw new Error("bundle-sdk: no compiled file imports the SDK; is the build step in the wrong place?");
