/**
 * Build step, after bundle-sdk.mjs: the `openapi-mcp-bridge` command (dist/cli/main.js) as a
 * handful of ES module chunks beside it instead of some 250 compiled modules. Resolving,
 * reading and linking each module is a fixed cost of every start; on the bundled petstore
 * example in stdio mode the chunks cut the CPU of a start to the first tools/list by about a
 * fifth (bench/results/startup.md). Code splitting is kept: what the program imports lazily
 * (the HTTP transport, the OAuth front door, telemetry, hot reload) stays in chunks loaded
 * only when used, and the compile cache is still switched on before the program's chunks load.
 *
 * The chunks are CommonJS (`.cjs`, main.js a stub that requires main.cjs): Node's ES module
 * loader costs each module an asynchronous resolve, read, link and, for each built-in it
 * imports, a facade of all its exports, where `require` is a synchronous read and compile. A
 * start from GitHub's saved model to the first tools/list took 0.88x the CPU and 0.91x the
 * time (bench/results/startup.md, "CommonJS chunks"). ES module semantics stay: every chunk
 * strict, lazy chunks loaded on first use (`import()` becomes a deferred `require`), packages
 * imported lazily with `import()` as before. A package the code imports statically, other than
 * the CommonJS ones in REQUIRED_PACKAGES (jose and OpenTelemetry's, whose ES builds the code
 * uses and which Node 20.18 cannot `require`), is still loaded with `import()`: before the lazy
 * chunk that needs it is required (loadEsmPackages), then handed over through a registry.
 *
 * Only the command changes. The library (dist/index.js), the worker entries (code mode's
 * sandbox, the spec checker, the printers) and src/runtime, which generated projects copy, stay
 * as compiled. A module that reads `import.meta.url` to find a file beside it (a worker entry,
 * the package root, precompiled validators) gets the address of its compiled file, so every
 * path it computes is the same as unbundled. Packages stay external; the SDK's vendored
 * chunks (relative imports) come in, still one copy per process.
 */
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "dist", "cli");
const ENTRY = join(CLI, "main.js");
const STAGING = join(ROOT, "dist", ".cli-bundle");
const CHUNK_PREFIX = "chunk-";
const BANNER = "// Bundled by scripts/bundle-cli.mjs from the compiled modules under dist/.";
/** Packages imported statically that are CommonJS, so `require` gives what `import` gave. */
const REQUIRED_PACKAGES = new Set(["commander"]);
/** Id prefix of the stand-in for a package imported statically that must be loaded by `import()`. */
const ESM_PACKAGE = "\0esm-package:";
/** Where loadEsmPackages leaves the packages it imported, for their stand-ins. */
const ESM_REGISTRY = 'globalThis[Symbol.for("openapi-mcp-bridge.esm-packages")]';

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

/** A package name, `@scope/name`, of an import specifier (`@scope/name/sub`). */
function packageOf(source) {
  const parts = source.split("/");
  return source.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * A package imported statically that `require` cannot load as `import` did becomes a stand-in
 * module that hands over what loadEsmPackages imported. Dynamic `import()` of packages stays.
 */
const esmPackages = {
  name: "esm-packages",
  resolveId(source, _importer, extra) {
    if (source.startsWith(".") || source.startsWith("/") || source.startsWith("\0")) return null;
    const required =
      source.startsWith("node:") ||
      builtinModules.includes(source) ||
      REQUIRED_PACKAGES.has(packageOf(source)) ||
      extra?.kind !== "import-statement";
    return required ? { id: source, external: true } : { id: `${ESM_PACKAGE}${source}` };
  },
  load(id) {
    if (!id.startsWith(ESM_PACKAGE)) return null;
    const source = JSON.stringify(id.slice(ESM_PACKAGE.length));
    return [
      `const loaded = ${ESM_REGISTRY}?.get(${source});`,
      `if (loaded === undefined) throw new Error("bundle-cli: " + ${source} + " was required before it was imported");`,
      "module.exports = loaded;",
    ].join("\n");
  },
};

/** The chunks `fileName` requires at load, itself included (the bundle's static closure). */
function readStaticChunks(bundle, fileName, seen = new Set()) {
  if (seen.has(fileName)) return seen;
  seen.add(fileName);
  for (const next of bundle[fileName].imports) if (bundle[next]) readStaticChunks(bundle, next, seen);
  return seen;
}

/** The packages loadEsmPackages must import before `fileName` is required. */
function findEsmPackages(bundle, fileName) {
  const packages = new Set();
  for (const name of readStaticChunks(bundle, fileName)) {
    for (const id of bundle[name].moduleIds) {
      if (id.startsWith(ESM_PACKAGE)) packages.add(id.slice(ESM_PACKAGE.length));
    }
  }
  return [...packages].sort();
}

/** `import()` of the packages into the registry, then the chunk required (rolldown's lazy load). */
function loadEsmPackages(packages, target) {
  const imports = packages.map((name) => `import(${JSON.stringify(name)})`).join(", ");
  const names = JSON.stringify(packages);
  return (
    `Promise.all([${imports}]).then((loaded) => { const registry = (${ESM_REGISTRY} ??= new Map()); ` +
    `${names}.forEach((name, i) => registry.set(name, loaded[i])); }).then(() => require(${JSON.stringify(target)}))`
  );
}

/** Lazy loads of chunks that need such packages import them first; none is needed at start. */
const esmPackageLoads = {
  name: "esm-package-loads",
  generateBundle(_options, bundle) {
    const entry = Object.values(bundle).find((chunk) => chunk.type === "chunk" && chunk.isEntry);
    const atStart = findEsmPackages(bundle, entry.fileName);
    if (atStart.length > 0) throw new Error(`bundle-cli: a start would require ${atStart.join(", ")}`);
    const lazyLoad = /Promise\.resolve\(\)\.then\(\(\) => require\("\.\/([^"]+\.cjs)"\)\)/g;
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== "chunk") continue;
      chunk.code = chunk.code.replace(lazyLoad, (load, target) => {
        const packages = findEsmPackages(bundle, target);
        return packages.length === 0 ? load : loadEsmPackages(packages, `./${target}`);
      });
    }
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === "chunk" && chunk.code.includes(ESM_PACKAGE))
        throw new Error(`bundle-cli: ${chunk.fileName} names a package stand-in by its id`);
    }
  },
};

await build({
  input: ENTRY,
  platform: "node",
  plugins: [{ name: "pin-import-meta-url", transform: pinImportMetaUrl }, esmPackages, esmPackageLoads],
  logLevel: "warn",
  output: {
    dir: STAGING,
    format: "cjs",
    // Every chunk strict, as the ES modules it holds were.
    strict: true,
    entryFileNames: "main.cjs",
    chunkFileNames: `${CHUNK_PREFIX}[name]-[hash].cjs`,
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
// The command's file stays main.js (package.json's bin, `install`'s entries): an ES module, as
// the package's type says, that requires the bundle.
writeFileSync(
  ENTRY,
  `#!/usr/bin/env node\n${BANNER}\nimport { createRequire } from "node:module";\n\ncreateRequire(import.meta.url)("./main.cjs");\n`,
);
