/**
 * The generated server introduces itself (MCP serverInfo) with its own package name and version,
 * not as openapi-mcp-bridge: the copied runtime's `version.ts` is written for the project.
 */
import { runInNewContext } from "node:vm";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { emitProject } from "../../../src/generator/codegen/generate.js";
import { buildModel } from "../../../src/index.js";
import type { BridgeModel } from "../../../src/model/types.js";
import { BRIDGE_NAME, BRIDGE_VERSION } from "../../../src/runtime/version.js";
import { fixture } from "../../helpers/bridge.js";

let model: BridgeModel;

beforeAll(async () => {
  model = await buildModel(fixture("petstore", "petstore.openapi30.yaml"));
});

/** The module's exports, run as the TypeScript compiler's CommonJS output in an empty context. */
function exportsOf(source: string): Record<string, unknown> {
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  const exports: Record<string, unknown> = {};
  runInNewContext(js, { exports }, { timeout: 1000 });
  return exports;
}

async function generated(
  name?: string,
): Promise<{ version: Record<string, unknown>; pkg: { name: string; version: string } }> {
  const files = await emitProject(model, { projectPath: "/p", ...(name !== undefined ? { name } : {}) });
  const text = (path: string) => files.find((f) => f.path === path)!.contents;
  return {
    version: exportsOf(text("src/runtime/version.ts")),
    pkg: JSON.parse(text("package.json")) as { name: string; version: string },
  };
}

describe("generated serverInfo", () => {
  it("is the project's package name and version", async () => {
    const { version, pkg } = await generated();
    expect(pkg.name).toBe("swagger-petstore");
    expect(version["BRIDGE_NAME"]).toBe(pkg.name);
    expect(version["BRIDGE_VERSION"]).toBe(pkg.version);
  });

  it("follows --name", async () => {
    const { version } = await generated('My Pets "quoted" </script>');
    expect(version["BRIDGE_NAME"]).toBe("my-pets-quoted-script");
  });

  it("leaves the live bridge's own name alone", () => {
    expect(BRIDGE_NAME).toBe("openapi-mcp-bridge");
    expect(BRIDGE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});
