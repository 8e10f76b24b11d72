/**
 * `openapi-mcp-bridge generate` as a command: the built CLI writes a project from a spec or a
 * saved model, says what it did on stderr only, refuses a non-empty directory and selects tools
 * like `serve` (the library function behind it: test/unit/codegen/write.test.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST, MARKER } from "../../src/generator/codegen/write-project.js";
import { fixture, runCli } from "../helpers/bridge.js";
import { listFiles, scratchDir } from "./generated-support.js";

const PETSTORE = fixture("petstore", "petstore.openapi30.yaml");
let scratch: string;

beforeAll(() => {
  scratch = scratchDir("omb-generate-cli");
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe("openapi-mcp-bridge generate", () => {
  it("generates from a spec, names the package, and prints what it did on stderr only", async () => {
    const dir = join(scratch, "cli");
    const run = await runCli(["generate", PETSTORE, "-o", dir, "--name", "My Pets!"], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/wrote \d+ files \(20 tools\)/);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg.name).toBe("my-pets");
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      // code mode's sandbox: QuickJS and its WebAssembly build
      "@jitl/quickjs-wasmfile-release-sync",
      // the MCP SDK (v2): the server, and the Node HTTP adapter
      "@modelcontextprotocol/node",
      "@modelcontextprotocol/server",
      // traces and metrics (--otlp-endpoint, --metrics-port), loaded only when one is on
      "@opentelemetry/api",
      "@opentelemetry/exporter-metrics-otlp-http",
      "@opentelemetry/exporter-metrics-otlp-proto",
      "@opentelemetry/exporter-prometheus",
      "@opentelemetry/exporter-trace-otlp-http",
      "@opentelemetry/exporter-trace-otlp-proto",
      "@opentelemetry/resources",
      "@opentelemetry/sdk-metrics",
      "@opentelemetry/sdk-trace-base",
      "ajv",
      "ajv-formats",
      // the OAuth front door's token checks (--auth-issuer), loaded only when it is on
      "jose",
      "quickjs-emscripten-core",
      "tldts",
      "undici",
      // the runtime's config/data-file.ts reads a YAML --auth-config
      "yaml",
    ]);
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(["build", "start", "dev"]));
  });

  it("refuses a non-empty directory with a diagnostic and exit code 1, --force overrides", async () => {
    const dir = join(scratch, "cli");
    const refused = await runCli(["generate", PETSTORE, "-o", dir], { timeoutMs: 60_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("OMB_OUTPUT_NOT_EMPTY");
    expect(refused.stderr).toContain("--force");
    const forced = await runCli(["generate", PETSTORE, "-o", dir, "--force"], { timeoutMs: 60_000 });
    expect(forced.code, forced.stderr).toBe(0);
  });

  it("an interrupted generation: the next run says so and refuses, --force completes it", async () => {
    const dir = join(scratch, "interrupted");
    // A folder where a file's temporary copy goes: the generation fails half-way, as a full
    // disk or a Ctrl-C would stop it.
    const obstacle = join(dir, "src", "tools", "index.ts.omb-partial");
    mkdirSync(obstacle, { recursive: true });
    const failed = await runCli(["generate", PETSTORE, "-o", dir, "--force"], { timeoutMs: 60_000 });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("OMB_OUTPUT_UNWRITABLE");
    rmSync(obstacle, { recursive: true });
    expect(existsSync(join(dir, MARKER))).toBe(true);

    const refused = await runCli(["generate", PETSTORE, "-o", dir], { timeoutMs: 60_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error OMB_OUTPUT_INTERRUPTED .*: the last generation into .* \(started [^)]+\) was interrupted before it finished: its files may be a mix of two generations; nothing was written\n {2}hint: run the same command again with --force to complete it/m,
    );

    const completed = await runCli(["generate", PETSTORE, "-o", dir, "--force"], { timeoutMs: 60_000 });
    expect(completed.code, completed.stderr).toBe(0);
    expect(completed.stderr).toContain(
      `openapi-mcp-bridge: the last generation into ${dir} had been interrupted; this one completed it\n`,
    );
    expect(existsSync(join(dir, MARKER))).toBe(false);
    expect(listFiles(dir).filter((f) => f.endsWith(".omb-partial"))).toEqual([]);
    const again = await runCli(["generate", PETSTORE, "-o", dir, "--force"], { timeoutMs: 60_000 });
    expect(again.stderr).not.toContain("had been interrupted");
    expect(again.stderr).toContain("is up to date");
  });

  it("selects tools like serve does: unselected operations get no module", async () => {
    const dir = join(scratch, "cli-selected");
    const run = await runCli(
      [
        "generate",
        PETSTORE,
        "-o",
        dir,
        "--include-tags",
        "pet",
        "--destructive",
        "refuse",
        "--exclude-tools",
        "*Form",
      ],
      { timeoutMs: 60_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const modules = listFiles(join(dir, "src", "tools")).filter((f) => f !== "index.ts");
    expect(modules).toEqual([
      "add-pet.ts",
      "find-pets-by-status.ts",
      "find-pets-by-tags.ts",
      "get-pet-by-id.ts",
      "upload-file.ts",
    ]);
    const typo = await runCli(["generate", PETSTORE, "-o", join(scratch, "cli-typo"), "--methods", "fetch"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("OMB_OPTION");
  });

  it("generates the same bytes from a saved model as from the spec", async () => {
    const modelFile = join(scratch, "petstore.model.json");
    expect((await runCli(["model", PETSTORE, "-o", modelFile])).code).toBe(0);
    const fromSpec = join(scratch, "cli-spec");
    const fromModel = join(scratch, "cli-model");
    const a = await runCli(["generate", PETSTORE, "-o", fromSpec], { timeoutMs: 60_000 });
    const b = await runCli(["generate", modelFile, "-o", fromModel], { timeoutMs: 60_000 });
    expect([a.code, b.code]).toEqual([0, 0]);
    // Client configurations and the README name the project's own path; the manifest hashes them.
    const samePath = (f: string) => !f.startsWith("mcp-clients/") && f !== "README.md" && f !== MANIFEST;
    const files = listFiles(fromSpec).filter(samePath);
    expect(listFiles(fromModel).filter(samePath)).toEqual(files);
    for (const file of files) {
      expect(readFileSync(join(fromModel, file), "utf8"), file).toBe(
        readFileSync(join(fromSpec, file), "utf8"),
      );
    }
  });
});
