/**
 * The generated project's JSON files: package.json, tsconfig.json and the MCP client
 * configurations. Each is built as an object and written with JSON.stringify, never as text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BridgeModel } from "../../../model/types.js";
import { toCredentialEnvName } from "../../../runtime/auth/credentials.js";
import { type McpClient, type StdioServer, toClientEntry } from "./client-entry.js";
import { PACKAGE_ROOT } from "./runtime.js";

/** Version of tsx the `dev` script runs (TypeScript without a build step). */
const TSX_VERSION = "4.23.15";

interface OwnPackage {
  version: string;
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

let ownPackage: OwnPackage | undefined;

/** This package's package.json: the generated project pins the versions this one is tested with. */
export function readOwnPackage(): OwnPackage {
  ownPackage ??= JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as OwnPackage;
  return ownPackage;
}

export function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function versionOf(name: string): string {
  const own = readOwnPackage();
  const version = own.dependencies[name] ?? own.optionalDependencies[name] ?? own.devDependencies[name];
  if (version === undefined)
    throw new Error(`the runtime imports ${name}, which is not a dependency of openapi-mcp-bridge`);
  return version;
}

/**
 * Packages the project builds with (devDependencies). The runtime may load one of them too, but
 * only lazily and optionally: code mode removes TypeScript annotations from programs where the
 * compiler is installed and says so where it is not (runtime/code/strip-types.ts).
 */
const BUILD_PACKAGES = ["@types/node", "tsx", "typescript"];

export function emitPackageJson(model: BridgeModel, name: string, runtimePackages: string[]): string {
  const dependencies: Record<string, string> = {};
  for (const pkg of runtimePackages) if (!BUILD_PACKAGES.includes(pkg)) dependencies[pkg] = versionOf(pkg);
  return toJson({
    name,
    version: "0.1.0",
    private: true,
    description: `MCP server for ${model.info.title} ${model.info.version}`.trim(),
    type: "module",
    bin: { [name]: "dist/index.js" },
    main: "dist/index.js",
    engines: { node: ">=20.18" },
    scripts: {
      build: "tsc -p tsconfig.json",
      start: "node dist/index.js",
      dev: "tsx src/index.ts",
      typecheck: "tsc -p tsconfig.json --noEmit",
    },
    dependencies,
    devDependencies: {
      "@types/node": versionOf("@types/node"),
      tsx: TSX_VERSION,
      typescript: versionOf("typescript"),
    },
    openapiMcpBridge: { generatorVersion: readOwnPackage().version },
  });
}

export function emitTsconfig(): string {
  return toJson({
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2023"],
      types: ["node"],
      strict: true,
      noUncheckedIndexedAccess: true,
      noImplicitOverride: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      sourceMap: true,
      rootDir: "src",
      outDir: "dist",
    },
    include: ["src"],
  });
}

/** The credential environment variables, one per security scheme the tools use. */
export function credentialVariables(model: BridgeModel): { scheme: string; env: string }[] {
  return Object.keys(model.securitySchemes)
    .filter((scheme) => model.securitySchemes[scheme]!.type !== "mutualTLS")
    .map((scheme) => ({ scheme, env: toCredentialEnvName(scheme) }));
}

export interface ClientConfigs {
  "claude-desktop.json": string;
  "claude-code.mcp.json": string;
  "cursor.mcp.json": string;
  "vscode.mcp.json": string;
}

/** The generated configuration files and the client each is for. */
const CLIENT_FILES: [keyof ClientConfigs, McpClient][] = [
  ["claude-desktop.json", "claude-desktop"],
  ["claude-code.mcp.json", "claude-code"],
  ["cursor.mcp.json", "cursor"],
  ["vscode.mcp.json", "vscode"],
];

/**
 * Ready-to-paste client configurations: the server started with `node <project>/dist/index.js`
 * over stdio, each credential variable as the client's reference to it (client-entry.ts): VS
 * Code prompts for it, Cursor and Claude Code read it from the environment, and Claude Desktop,
 * which cannot refer to one, gets an empty value to fill in.
 */
export function emitClientConfigs(model: BridgeModel, serverKey: string, projectPath: string): ClientConfigs {
  const server: StdioServer = {
    command: "node",
    args: [`${projectPath.replace(/\/+$/, "")}/dist/index.js`],
    env: {},
    secrets: credentialVariables(model).map((c) => ({
      env: c.env,
      description: `Credential for the ${c.scheme} security scheme`,
    })),
  };
  const configs: Partial<ClientConfigs> = {};
  for (const [file, client] of CLIENT_FILES) {
    const { serversKey, entry, inputs } = toClientEntry(client, server, "");
    configs[file] = toJson({
      ...(client === "vscode" ? { inputs } : {}),
      [serversKey]: { [serverKey]: entry },
    });
  }
  return configs as ClientConfigs;
}
