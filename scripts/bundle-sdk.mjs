/**
 * Build step, after tsc: the MCP SDK (v2: @modelcontextprotocol/server with its stdio entry and
 * Ajv provider, @modelcontextprotocol/node for HTTP, the private @modelcontextprotocol/core they
 * are built on, and the zod they are written in) and Ajv with ajv-formats as a few ES modules in
 * dist/vendor/mcp-sdk/, and the compiled runtime's imports of them pointed there. All entries
 * come from one build, so they share one copy of the SDK (one core, one zod): the server entry,
 * the stdio entry, the HTTP adapter (which imports the server package by name) and the Ajv
 * provider never load a second copy. Loaded from the packages, they are some 150 ES modules
 * (zod alone is over 100) and 60 CommonJS ones, and resolving and linking them took about a
 * third of a start from a saved model. Only dist/ changes: src/runtime, which generated
 * projects copy, still imports the packages, and dist's .d.ts files still name the packages'
 * types.
 *
 * @modelcontextprotocol/node's HTTP adapter (@hono/node-server, with the bit of hono it imports)
 * is bundled too, so nothing of the SDK needs to be resolvable from dist/ at run time. The
 * generator still requires Ajv from the package (its validators never meet the runtime's). The
 * licences of everything bundled are copied beside the files.
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
/** The SDK's packages, found from here (the server package brings core). */
const SERVER_ROOT = packageRoot("@modelcontextprotocol/server", ROOT);
const NODE_ROOT = packageRoot("@modelcontextprotocol/node", ROOT);
const CORE_ROOT = packageRoot("@modelcontextprotocol/core", SERVER_ROOT);
/** Prefix of the entries made here (WRAPPERS). */
const VIRTUAL = "\0omb-entry:";

/** Specifier the compiled runtime uses → entry file of the SDK → name of the vendored module. */
const ENTRIES = {
  "@modelcontextprotocol/server": [`${VIRTUAL}server`, "server"],
  "@modelcontextprotocol/server/stdio": [join(SERVER_ROOT, "dist/stdio.mjs"), "server-stdio"],
  "@modelcontextprotocol/server/validators/ajv": [`${VIRTUAL}server-validators-ajv`, "server-validators-ajv"],
  "@modelcontextprotocol/node": [join(NODE_ROOT, "dist/index.mjs"), "node"],
  // Ajv and ajv-formats (CommonJS, some 60 files) with the SDK, one copy for the SDK and the
  // runtime: ajv-formats adds keywords built with Ajv's own code generator, so both must come
  // from the same copy. Each entry exports what the compiled runtime imports from it.
  ajv: [`${VIRTUAL}ajv`, "ajv"],
  "ajv/dist/2020.js": [`${VIRTUAL}ajv-2020`, "ajv-2020"],
  "ajv-formats": [`${VIRTUAL}ajv-formats`, "ajv-formats"],
  "ajv-formats/dist/formats.js": [`${VIRTUAL}ajv-full-formats`, "ajv-full-formats"],
};
/**
 * Ajv and ajv-formats as one CommonJS file beside the entries, loaded with Node's require on
 * first use: its code (some 300 kB) is then neither read nor compiled at a start that does not
 * use it, which an ES module imported statically would be, evaluated or not. Each module in it
 * is evaluated when its property is first read.
 */
const AJV_CJS = "ajv.cjs";
const AJV_CJS_ENTRY = `module.exports = {
  get ajv() { return require("ajv"); },
  get ajv2019() { return require("ajv/dist/2019.js"); },
  get ajv2020() { return require("ajv/dist/2020.js"); },
  get ajvFormats() { return require("ajv-formats"); },
  get formats() { return require("ajv-formats/dist/formats.js"); },
};
`;
/** The SDK's public Ajv provider module (AjvJsonSchemaValidator, Ajv, addFormats). */
const AJV_VALIDATOR = join(SERVER_ROOT, "dist/validators/ajv.mjs");
/**
 * Ajv (its CommonJS modules, ajv-formats, and the SDK's provider over them), read, compiled and
 * evaluated, cost some 20 ms of CPU at every start, and nothing before a start's first answer
 * uses it: the bridge checks arguments and answers with it on calls, and hands the SDK's Server
 * its own elicitation validator (runtime/server/mcp-server.ts), so the Server never makes the
 * default one. So every entry over Ajv exports stand-ins that load the module on first use (a
 * read, call or `new` of the binding): Ajv and ajv-formats from AJV_CJS, the provider by a
 * `require()` the bundler turns into a lazily run module. There is still one copy of Ajv: the
 * stand-ins and the provider all take it from AJV_CJS.
 */
const WRAPPERS = {
  lazy: `import { createRequire } from "node:module";

let ajvModules;
/** Ajv's modules (${AJV_CJS}, built beside this file; each evaluated when first read), loaded on first use. */
export function loadAjv() {
  return (ajvModules ??= createRequire(import.meta.url)("./${AJV_CJS}"));
}

/** A stand-in for a binding of a module loaded on first use ("function": callable and constructible). */
export function lazyBinding(load, kind) {
  let value;
  const real = () => (value ??= load());
  // Callable and constructible, and without an own \`prototype\` (a function's is not configurable) to clash with the real one's.
  const target = kind === "function" ? function () {}.bind(null) : {};
  const standIn = new Proxy(target, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, next) => Reflect.set(real(), key, next),
    has: (_, key) => Reflect.has(real(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // A proxy may not report a property the stand-in lacks as non-configurable.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    apply: (_, self, args) => Reflect.apply(real(), self, args),
    // \`new\` of the stand-in itself makes what \`new\` of the real class makes (a subclass keeps its own new.target).
    construct: (_, args, newTarget) => Reflect.construct(real(), args, newTarget === standIn ? real() : newTarget),
  });
  return standIn;
}
`,
  ajv: lazyEntry("loadAjv().ajv", { default: ["", "function"], Ajv: ["Ajv", "function"] }),
  "ajv-2020": lazyEntry("loadAjv().ajv2020", {
    default: ["", "function"],
    Ajv2020: ["Ajv2020", "function"],
  }),
  "ajv-formats": lazyEntry("loadAjv().ajvFormats", { default: ["", "function"] }),
  "ajv-full-formats": lazyEntry("loadAjv().formats", { fullFormats: ["fullFormats", "object"] }),
  "server-validators-ajv": lazyEntry(`require(${JSON.stringify(AJV_VALIDATOR)})`, {
    AjvJsonSchemaValidator: ["AjvJsonSchemaValidator", "function"],
    Ajv: ["Ajv", "function"],
    addFormats: ["addFormats", "function"],
  }),
};

/**
 * An entry whose exports stand for bindings of `module`, loaded on first use: export name →
 * [the module's export ("" for the module itself, what a default import of CommonJS gives),
 * kind of value].
 */
function lazyEntry(module, bindings) {
  const lines = [
    `import { lazyBinding, loadAjv } from ${JSON.stringify(`${VIRTUAL}lazy`)};`,
    `const load = () => ${module};`,
  ];
  for (const [name, [from, kind]] of Object.entries(bindings)) {
    const value = from === "" ? "load()" : `load()[${JSON.stringify(from)}]`;
    const binding = `lazyBinding(() => ${value}, ${JSON.stringify(kind)})`;
    lines.push(name === "default" ? `export default ${binding};` : `export const ${name} = ${binding};`);
  }
  return `${lines.join("\n")}\n`;
}
/**
 * The server package's index exports some 300 names (every schema, McpServer, the auth helpers,
 * the web-standard HTTP transport); the runtime imports a handful. Its entries re-export only
 * those, as the compiled files import them: `server` for every file, and `server-http` for the
 * files that use the HTTP adapter (@modelcontextprotocol/node), so stdio never loads the
 * package's HTTP handler, and what no entry reaches is left out of the bundle. Both re-export
 * from the one index module: one copy.
 */
const SERVER_INDEX = join(SERVER_ROOT, "dist/index.mjs");
/**
 * The index only declares (functions, classes, constants from no calls) and re-exports: marked
 * free of side effects, a name taken from it links to where it is defined, and loading `server`
 * does not run the index's own module, which lives with the HTTP handler.
 */
const SERVER_INDEX_FILE = /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]index\.mjs$/;
const SERVER_IMPORT = /import \{([^}]*)\} from "@modelcontextprotocol\/server";/g;
const SERVER_HTTP = "server-http";

/** Whether a compiled file is HTTP-only: it imports the HTTP adapter. */
function isHttpOnly(text) {
  return text.includes('from "@modelcontextprotocol/node"');
}

/** The names the compiled files import from the server package: all files', and the HTTP-only files'. */
function serverImports() {
  const names = { server: new Set(), [SERVER_HTTP]: new Set() };
  for (const file of compiledFiles(DIST)) {
    const text = readFileSync(file, "utf8");
    const into = names[isHttpOnly(text) ? SERVER_HTTP : "server"];
    for (const [, list] of text.matchAll(SERVER_IMPORT))
      for (const name of list.split(",")) if (name.trim() !== "") into.add(name.trim().split(/\s+as\s+/)[0]);
  }
  return names;
}

const SERVER_NAMES = serverImports();
if (SERVER_NAMES.server.size === 0)
  throw new Error("bundle-sdk: no compiled file imports the server package");
for (const [name, names] of Object.entries(SERVER_NAMES)) {
  if (names.size > 0)
    WRAPPERS[name] = `export { ${[...names].sort().join(", ")} } from ${JSON.stringify(SERVER_INDEX)};\n`;
}

/** Bundled: the SDK, zod, Ajv and the HTTP adapter. Any other package stays an import (none is left). */
const BUNDLED_NAMES = [
  "@modelcontextprotocol/server",
  "@modelcontextprotocol/node",
  "@modelcontextprotocol/core",
  "@hono/node-server",
  "hono",
  "zod",
  "ajv",
  "ajv-formats",
  "fast-deep-equal",
  "fast-uri",
  "json-schema-traverse",
  "require-from-string",
];
const BUNDLED_PACKAGES = new RegExp(
  `^(?:${BUNDLED_NAMES.map((n) => n.replace(/[/.-]/g, "\\$&")).join("|")})(?:/|$)`,
);

/**
 * The server package's Ajv provider (AjvJsonSchemaValidator, the SDK's default validator) carries
 * an inlined copy of Ajv, Ajv2019, Ajv2020 and ajv-formats, and evaluates all of it when the
 * package is imported, at every start, although the runtime loads its own Ajv as well: two
 * Ajvs per process, the SDK's costing some 9 ms of CPU per start (of the 25 ms the v2 port
 * added). Its four eager requires are pointed at the Ajv bundled here (the SDK asks for
 * ajv ^8.17.1, the runtime's satisfies it), so the inlined copy is never referenced and falls
 * out of the bundle. A provider that no longer has these lines fails the build rather than
 * quietly keeping two copies.
 */
const AJV_PROVIDER = /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]ajvProvider-[^\\/]+\.mjs$/;
const AJV_PROVIDER_REQUIRES = [
  ["var import_ajv = require_ajv();", "var import_ajv = ombLoadAjv().ajv;"],
  ["var import__2019 = require__2019();", "var import__2019 = ombLoadAjv().ajv2019;"],
  ["var import__2020 = require__2020();", "var import__2020 = ombLoadAjv().ajv2020;"],
  [
    "var import_dist = /* @__PURE__ */ __toESM(require_dist(), 1);",
    "var import_dist = { default: ombLoadAjv().ajvFormats };",
  ],
];

/** The Ajv provider's code with its inlined Ajv replaced by imports of the one bundled copy. */
function shareAjv(code, id) {
  let next = code;
  for (const [eager, shared] of AJV_PROVIDER_REQUIRES) {
    if (!next.includes(eager))
      throw new Error(`bundle-sdk: ${id} no longer has \`${eager}\`; see shareAjv in scripts/bundle-sdk.mjs`);
    next = next.replace(eager, shared);
  }
  transformed.add("provider");
  // The provider is only required (by the stand-ins), so these lines run when it is first used.
  return `import { loadAjv as ombLoadAjv } from ${JSON.stringify(`${VIRTUAL}lazy`)};\n${next}`;
}

/**
 * The server package's Node shims give the SDK its default validator (DefaultJsonSchemaValidator,
 * which the Server makes when it is given none) by importing the Ajv provider, so loading the
 * SDK evaluated all of Ajv. The import is replaced by a stand-in that requires the provider on
 * first use (see WRAPPERS). A shims module without that import fails the build.
 */
const NODE_SHIMS = /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]shimsNode\.mjs$/;
const SHIMS_PROVIDER_IMPORT =
  /^import \{ \w+ as AjvJsonSchemaValidator \} from "\.\/ajvProvider-[\w-]+\.mjs";$/m;
/** The modules the transforms below must have met: a renamed file fails the build, not its laziness. */
const transformed = new Set();

/** The Node shims with their provider import replaced by a stand-in loading it on first use. */
function deferDefaultValidator(code, id) {
  if (!SHIMS_PROVIDER_IMPORT.test(code))
    throw new Error(
      `bundle-sdk: ${id} no longer imports the Ajv provider as expected; see deferDefaultValidator in scripts/bundle-sdk.mjs`,
    );
  transformed.add("shims");
  return code.replace(
    SHIMS_PROVIDER_IMPORT,
    `import { lazyBinding as ombLazyBinding } from ${JSON.stringify(`${VIRTUAL}lazy`)};\n` +
      `const AjvJsonSchemaValidator = ombLazyBinding(() => require(${JSON.stringify(AJV_VALIDATOR)}).AjvJsonSchemaValidator, "function");`,
  );
}

/**
 * The SDK's Protocol routes every inbound message by trying its zod guards in turn: a result
 * response, an error response, then a request. A request, nearly every message a server gets,
 * so first failed two strict-object parses (some 25 µs of a call's ~450 µs of CPU over stdio,
 * more before the code is optimised: failing parses build their issues). The guards are asked in
 * the order request, responses, notification instead. The verdicts are the same: all four schemas
 * are strict objects, a request requires `method`, which neither response schema allows, and
 * a notification has no `id`, which a request requires; so a message that passes the request
 * guard fails both response guards, and one that fails it is routed by the same checks in the
 * same order as before. A Protocol module without these lines fails the build.
 */
const PROTOCOL_MODULE = /[\\/]@modelcontextprotocol[\\/]server[\\/]dist[\\/]src-[^\\/]+\.mjs$/;
const PROTOCOL_ROUTING = [
  "\t\t\tif (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this._onresponse(message);",
  "\t\t\telse if (isJSONRPCRequest(message)) this._onrequest(message, extra);",
  "\t\t\telse if (isJSONRPCNotification(message)) this._onnotification(message, extra);",
].join("\n");
const PROTOCOL_ROUTING_REQUEST_FIRST = [
  "\t\t\tif (isJSONRPCRequest(message)) this._onrequest(message, extra);",
  "\t\t\telse if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this._onresponse(message);",
  "\t\t\telse if (isJSONRPCNotification(message)) this._onnotification(message, extra);",
].join("\n");

/** The Protocol's inbound routing with the request guard asked first (see PROTOCOL_ROUTING). */
function routeRequestsFirst(code, id) {
  if (!code.includes(PROTOCOL_ROUTING)) {
    // Other chunks of the package have no Protocol class; the one that does must have the lines.
    if (!code.includes("this._onresponse(message)")) return undefined;
    throw new Error(
      `bundle-sdk: ${id} no longer routes inbound messages as expected; see routeRequestsFirst in scripts/bundle-sdk.mjs`,
    );
  }
  transformed.add("routing");
  return code.replace(PROTOCOL_ROUTING, PROTOCOL_ROUTING_REQUEST_FIRST);
}

/** The folder of an installed package as `from` finds it (not every package exports its package.json). */
function packageRoot(name, from) {
  const paths = createRequire(join(from, "package.json")).resolve.paths(name) ?? [];
  const found = paths.map((p) => join(p, name)).find((dir) => existsSync(join(dir, "package.json")));
  if (found === undefined) throw new Error(`bundle-sdk: ${name} not found from ${from}`);
  return found;
}

rmSync(OUT, { recursive: true, force: true });
await build({
  input: {
    ...Object.fromEntries(Object.values(ENTRIES).map(([file, name]) => [name, file])),
    ...(WRAPPERS[SERVER_HTTP] ? { [SERVER_HTTP]: `${VIRTUAL}${SERVER_HTTP}` } : {}),
  },
  cwd: ROOT,
  platform: "node",
  plugins: [
    {
      name: "omb-entries",
      resolveId: (id) => (id.startsWith(VIRTUAL) ? id : undefined),
      load: (id) => (id.startsWith(VIRTUAL) ? WRAPPERS[id.slice(VIRTUAL.length)] : undefined),
    },
    {
      name: "omb-server-index",
      transform: (code, id) => (SERVER_INDEX_FILE.test(id) ? { code, moduleSideEffects: false } : undefined),
    },
    {
      name: "omb-one-ajv",
      transform: (code, id) => (AJV_PROVIDER.test(id) ? shareAjv(code, id) : undefined),
    },
    {
      name: "omb-lazy-default-validator",
      transform: (code, id) => (NODE_SHIMS.test(id) ? deferDefaultValidator(code, id) : undefined),
    },
    {
      name: "omb-requests-first",
      transform: (code, id) => (PROTOCOL_MODULE.test(id) ? routeRequestsFirst(code, id) : undefined),
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
      "// Bundled by scripts/bundle-sdk.mjs from the MCP SDK (@modelcontextprotocol/*), zod and Ajv (licences: ./licenses).",
  },
});

// Ajv's CommonJS file: the same modules the provider's inlined copy held, from the installed packages.
await build({
  input: { ajv: `${VIRTUAL}ajv-cjs` },
  cwd: ROOT,
  platform: "node",
  plugins: [
    {
      name: "omb-ajv-cjs",
      resolveId: (id) => (id === `${VIRTUAL}ajv-cjs` ? id : undefined),
      load: (id) => (id === `${VIRTUAL}ajv-cjs` ? AJV_CJS_ENTRY : undefined),
    },
  ],
  external: (id) =>
    !id.startsWith(".") && !id.startsWith("/") && !id.startsWith(VIRTUAL) && !BUNDLED_PACKAGES.test(id),
  logLevel: "warn",
  output: {
    dir: OUT,
    format: "cjs",
    entryFileNames: AJV_CJS,
    banner: "// Bundled by scripts/bundle-sdk.mjs from Ajv and ajv-formats (licences: ./licenses).",
  },
});

for (const step of ["provider", "shims"])
  if (!transformed.has(step))
    throw new Error(
      `bundle-sdk: the SDK's Ajv ${step} module was not found; see AJV_PROVIDER and NODE_SHIMS in scripts/bundle-sdk.mjs`,
    );
if (!transformed.has("routing"))
  throw new Error(
    "bundle-sdk: the SDK's Protocol module was not found; see PROTOCOL_MODULE in scripts/bundle-sdk.mjs",
  );
// A require() the bundler could not resolve stays a call of Node's require, which an ES module lacks.
for (const name of readdirSync(OUT).filter((n) => n.endsWith(".js") || n.endsWith(".cjs"))) {
  if (/\b__require\b/.test(readFileSync(join(OUT, name), "utf8")))
    throw new Error(`bundle-sdk: ${name} still calls require(); a lazily loaded module was not bundled`);
}

const licenses = join(OUT, "licenses");
mkdirSync(licenses, { recursive: true });
for (const name of BUNDLED_NAMES) {
  const dir =
    name === "@modelcontextprotocol/server"
      ? SERVER_ROOT
      : name === "@modelcontextprotocol/node"
        ? NODE_ROOT
        : name === "@modelcontextprotocol/core"
          ? CORE_ROOT
          : packageRoot(name, existsSync(join(NODE_ROOT, "node_modules", name)) ? NODE_ROOT : SERVER_ROOT);
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
  const vendored = (name) => {
    const target = relative(dirname(file), join(OUT, `${name}.js`))
      .split(sep)
      .join("/");
    return target.startsWith(".") ? target : `./${target}`;
  };
  let next = isHttpOnly(text)
    ? text.replaceAll('from "@modelcontextprotocol/server";', `from "${vendored(SERVER_HTTP)}";`)
    : text;
  for (const [specifier, [, name]] of Object.entries(ENTRIES)) {
    const target = vendored(name);
    next = next
      .replaceAll(`from "${specifier}"`, `from "${target}"`)
      .replaceAll(`import("${specifier}")`, `import("${target}")`);
  }
  if (next !== text) {
    writeFileSync(file, next);
    rewritten += 1;
  }
}
if (rewritten === 0)
  throw new Error("bundle-sdk: no compiled file imports the SDK; is the build step in the wrong place?");
