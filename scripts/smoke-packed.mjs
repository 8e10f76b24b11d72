#!/usr/bin/env node
/**
 * The package as a user gets it (CI runs this from .ci/run): `npm pack`, then the tarball
 * installed into an empty folder with `npm install --omit=dev`, and from there:
 *
 *   - the tarball: no `prepare` script (npm would warn on every install), a LICENSE, no source
 *     maps, nothing outside package.json's `files`; npm's install prints no install-script warning
 *   - `openapi-mcp-bridge --help` and `tools` on the example spec the package ships
 *   - a stdio `serve` session driven by the SDK's Client (the one installed with the package)
 *     against the example pet store API on 127.0.0.1: tools/list, a call that reaches the API,
 *     a call with a bad argument
 *   - `generate` writes a project
 *   - a serve-only install (the optional packages removed, as `--omit=optional` leaves them
 *     out): `tools` and `generate` still work, `lint` stops with OMB_OPTIONAL_PACKAGE_MISSING
 *
 * Usage: node scripts/smoke-packed.mjs [--keep] (keeps the scratch folder and prints its path).
 * Prints one line per check and `packed: N passed, N failed`; exits 1 on any failure.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = mkdtempSync(join(tmpdir(), "omb-packed-"));
const results = [];

async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push(true);
    process.stdout.write(`ok   ${name} (${Date.now() - started} ms)\n`);
  } catch (error) {
    results.push(false);
    process.stdout.write(`FAIL ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** Runs a command; never throws: the caller checks the exit code and the output. */
async function exec(command, args, options = {}) {
  try {
    const { stdout, stderr } = await run(command, args, { maxBuffer: 64 * 1024 * 1024, ...options });
    return { code: 0, stdout, stderr };
  } catch (error) {
    return { code: error.code ?? 1, stdout: error.stdout ?? "", stderr: error.stderr ?? String(error) };
  }
}

const app = join(scratch, "app");
const installed = join(app, "node_modules", "openapi-mcp-bridge");
const bin = join(installed, "dist", "cli", "main.js");
const spec = join(installed, "examples", "petstore", "openapi.yaml");
let tarball;

try {
  await check("npm pack", async () => {
    const packed = await exec("npm", ["pack", "--silent", "--pack-destination", scratch], { cwd: ROOT });
    expect(packed.code === 0, `npm pack failed:\n${packed.stderr}`);
    tarball = join(
      scratch,
      readdirSync(scratch).find((name) => name.endsWith(".tgz")),
    );
    const listing = await exec("tar", ["tzf", tarball]);
    const files = listing.stdout.split("\n").filter(Boolean);
    expect(files.includes("package/LICENSE"), "no LICENSE in the tarball");
    expect(!files.some((f) => f.endsWith(".map")), "source maps in the tarball");
    expect(!files.some((f) => /^package\/(test|bench|scripts|fixtures)\//.test(f)), "files outside `files`");
    const manifest = JSON.parse((await exec("tar", ["xzf", tarball, "-O", "package/package.json"])).stdout);
    expect(manifest.scripts?.prepare === undefined, "the packed package.json has a prepare script");
    const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(
      own.scripts?.prepare !== undefined,
      "package.json lost its prepare script (postpack did not restore it)",
    );
    process.stdout.write(
      `     ${files.length} files, ${(readFileSync(tarball).length / 1024).toFixed(0)} KiB\n`,
    );
  });

  await check("npm install --omit=dev of the tarball into an empty folder", async () => {
    expect(tarball !== undefined, "no tarball");
    rmSync(app, { recursive: true, force: true });
    await exec("mkdir", ["-p", app]);
    writeFileSync(join(app, "package.json"), '{ "name": "smoke", "private": true }\n');
    const install = await exec("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", tarball], {
      cwd: app,
    });
    expect(install.code === 0, `npm install failed:\n${install.stderr}`);
    expect(!/install-scripts|prepare/.test(install.stderr), `npm warned about scripts:\n${install.stderr}`);
    expect(existsSync(bin), `no ${bin}`);
  });

  await check("openapi-mcp-bridge --help", async () => {
    const help = await exec(join(app, "node_modules", ".bin", "openapi-mcp-bridge"), ["--help"], {
      cwd: app,
    });
    expect(help.code === 0, `exit ${help.code}: ${help.stderr}`);
    for (const command of ["serve", "tools", "generate", "install", "uninstall"]) {
      expect(
        new RegExp(`^\\s+${command}\\b`, "m").test(help.stderr + help.stdout),
        `--help lists no ${command}`,
      );
    }
  });

  await check("openapi-mcp-bridge tools (the example spec)", async () => {
    const tools = await exec(process.execPath, [bin, "tools", spec], { cwd: app });
    expect(tools.code === 0, `exit ${tools.code}: ${tools.stderr}`);
    expect(
      /getPetById/.test(tools.stdout) && /listPets/.test(tools.stdout),
      `unexpected output:\n${tools.stdout}`,
    );
  });

  await check("a stdio serve session through the SDK client", async () => {
    // The example API comes from the installed folder; the client is this repository's (a user's
    // client is not part of the package: it depends on the server side only).
    const { Client } = await import("@modelcontextprotocol/client");
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const { DEMO_API_KEY, startPetstore } = await import(
      pathToFileURL(join(installed, "examples", "petstore", "server.mjs")).href
    );
    const api = await startPetstore();
    const client = new Client({ name: "smoke", version: "1.0.0" });
    try {
      const env = { PATH: process.env.PATH ?? "", HOME: scratch, OPENAPI_MCP_CACHE: "0" };
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [bin, "serve", spec, "--base-url", api.url, "--auth", `apiKey=${DEMO_API_KEY}`],
          cwd: app,
          env,
          stderr: "pipe",
        }),
      );
      const { tools } = await client.listTools();
      expect(
        tools.some((t) => t.name === "getPetById"),
        `tools/list: ${tools.map((t) => t.name).join(", ")}`,
      );
      const found = await client.callTool({ name: "getPetById", arguments: { petId: 1 } });
      expect(
        !found.isError && JSON.stringify(found.content).includes("Rex"),
        `getPetById: ${JSON.stringify(found)}`,
      );
      const bad = await client.callTool({ name: "getPetById", arguments: { petId: "one" } });
      expect(
        bad.isError === true && JSON.stringify(bad.content).includes("petId"),
        `bad argument: ${JSON.stringify(bad)}`,
      );
    } finally {
      await client.close();
      await api.close();
    }
  });

  await check("generate", async () => {
    const out = join(scratch, "generated");
    const generated = await exec(process.execPath, [bin, "generate", spec, "-o", out], { cwd: app });
    expect(generated.code === 0, `exit ${generated.code}: ${generated.stderr}`);
    expect(
      existsSync(join(out, "src", "tools", "index.ts")) && existsSync(join(out, "server.json")),
      "files missing",
    );
  });

  await check("a serve-only install: tools and generate work, lint says what to install", async () => {
    for (const name of ["typescript", "js-tiktoken"]) {
      rmSync(join(app, "node_modules", name), { recursive: true, force: true });
    }
    const tools = await exec(process.execPath, [bin, "tools", spec], { cwd: app });
    expect(tools.code === 0, `tools: exit ${tools.code}: ${tools.stderr}`);
    // A cache of its own: the generation above planned the spec into the shared one.
    const lean = join(scratch, "lean");
    const generated = await exec(process.execPath, [bin, "generate", spec, "-o", lean], {
      cwd: app,
      env: { ...process.env, OPENAPI_MCP_CACHE_DIR: join(scratch, "cold-cache") },
    });
    expect(generated.code === 0, `generate: exit ${generated.code}: ${generated.stderr}`);
    expect(
      readFileSync(join(lean, "src", "tools", "index.ts"), "utf8") ===
        readFileSync(join(scratch, "generated", "src", "tools", "index.ts"), "utf8"),
      "generate printed another project without the optional packages",
    );
    const lint = await exec(process.execPath, [bin, "lint", spec], { cwd: app });
    expect(
      lint.code === 1 && /OMB_OPTIONAL_PACKAGE_MISSING lint needs the js-tiktoken package/.test(lint.stderr),
      lint.stderr,
    );
    expect(/npm install js-tiktoken@\S+/.test(lint.stderr), lint.stderr);
    expect(!/\n\s+at /.test(generated.stderr + lint.stderr), "a stack trace was printed");
  });
} finally {
  if (process.argv.includes("--keep")) process.stdout.write(`scratch folder kept: ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
}

const failed = results.filter((ok) => !ok).length;
process.stdout.write(`packed: ${results.length - failed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
