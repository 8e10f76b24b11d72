/**
 * Build step, after tsc: the parts of the MCP SDK that every start loads (its low-level Server,
 * types.js and the Ajv provider, with the zod they are written in) and Ajv with ajv-formats as
 * a few ES modules in dist/vendor/mcp-sdk/, and the compiled runtime's imports of them pointed
 * there. Loaded from the packages, they are some 150 ES modules (zod alone is over 100) and 60
 * CommonJS ones, and resolving and linking them took about a third of a start from a saved
 * model; bundled, the SDK loads in about a third of the time and Ajv in less than half. Only dist/ changes: src/runtime, which generated projects copy,
 * still imports the package, and dist's .d.ts files still name the package's types.
 *
 * Left out: server/streamableHttp.js (HTTP mode only; it imports packages of the SDK's own,
 * such as @hono/node-server, which need not be resolvable from here), so HTTP mode loads it from
 * the package as before (with its own Ajv and zod). The generator still requires Ajv from the
 * package (its validators never meet the runtime's). The licences of everything bundled are
 * copied beside the files.
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
/** Prefix of the entries made here (WRAPPERS). */
const VIRTUAL = "\0omb-entry:";

/** Specifier the compiled runtime uses → entry file of the SDK → name of the vendored module. */
const ENTRIES = {
  "@modelcontextprotocol/sdk/server/index.js": [join(SDK_ESM, "server/index.js"), "server"],
  "@modelcontextprotocol/sdk/types.js": [join(SDK_ESM, "types.js"), "types"],
  "@modelcontextprotocol/sdk/validation/ajv": [join(SDK_ESM, "validation/ajv-provider.js"), "validation-ajv"],
  // Ajv and ajv-formats (CommonJS, some 60 files) with the SDK, one copy for the SDK and the
  // runtime: ajv-formats adds keywords built with Ajv's own code generator, so both must come
  // from the same copy. Each entry exports what the compiled runtime imports from it.
  ajv: [`${VIRTUAL}ajv`, "ajv"],
  "ajv/dist/2020.js": [`${VIRTUAL}ajv-2020`, "ajv-2020"],
  "ajv-formats": [`${VIRTUAL}ajv-formats`, "ajv-formats"],
  "ajv-formats/dist/formats.js": [`${VIRTUAL}ajv-full-formats`, "ajv-full-formats"],
};
/** The ES module entries over Ajv's CommonJS modules (their names are what the runtime imports). */
const WRAPPERS = {
  ajv: 'import m from "ajv";\nexport default m;\nexport const Ajv = m.Ajv;\n',
  "ajv-2020": 'import m from "ajv/dist/2020.js";\nexport default m;\nexport const Ajv2020 = m.Ajv2020;\n',
  "ajv-formats": 'import m from "ajv-formats";\nexport default m;\n',
  "ajv-full-formats":
    'import m from "ajv-formats/dist/formats.js";\nexport const fullFormats = m.fullFormats;\n',
};
/** Bundled: zod (what the SDK's schemas are made of) and Ajv. Any other package stays an import. */
const BUNDLED_PACKAGES =
  /^(?:zod|zod-to-json-schema|ajv|ajv-formats|fast-deep-equal|fast-uri|json-schema-traverse|require-from-string)(?:\/|$)/;

rmSync(OUT, { recursive: true, force: true });
await build({
  input: Object.fromEntries(Object.values(ENTRIES).map(([file, name]) => [name, file])),
  cwd: ROOT,
  platform: "node",
  plugins: [
    {
      name: "omb-entries",
      resolveId: (id) => (id.startsWith(VIRTUAL) ? id : undefined),
      load: (id) => (id.startsWith(VIRTUAL) ? WRAPPERS[id.slice(VIRTUAL.length)] : undefined),
    },
  ],
  external: (id) =>
    !id.startsWith(".") && !id.startsWith("/") && !id.startsWith(VIRTUAL) && !BUNDLED_PACKAGES.test(id),
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
  ...[
    "zod",
    "zod-to-json-schema",
    "ajv",
    "ajv-formats",
    "fast-deep-equal",
    "fast-uri",
    "json-schema-traverse",
    "require-from-string",
  ].map((n) => [n, packageDir(n)]),
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
