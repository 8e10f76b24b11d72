/**
 * `server.json`: the MCP Registry's description of a server (what it is, the package to run,
 * its arguments and environment variables), for this package and for every generated project.
 * Its environment variables are the option table's (every OPENAPI_MCP_* variable a server
 * reads, with its help text and default) and, for a generated project, one secret per security
 * scheme. Checked against the registry's published schema (fixtures/mcp-registry) in
 * test/unit/codegen/server-json.test.ts.
 */
import type { BridgeModel } from "../../../model/types.js";
import { formatDefault, toPlainText } from "../../../runtime/config/help-text.js";
import { getOptionSpec, OPTION_KEYS } from "../../../runtime/config/option-table.js";
import { toJson } from "./project.js";

/** The registry schema the files name (and are tested against). */
export const SERVER_SCHEMA_URL =
  "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** A registry input: an environment variable or an argument. */
export interface RegistryInput {
  type?: "positional" | "named";
  name?: string;
  value?: string;
  valueHint?: string;
  description: string;
  isRequired?: boolean;
  isSecret?: boolean;
  default?: string;
}

export interface ServerJsonOptions {
  /** The registry name, `namespace/name` (io.github.USER/NAME). */
  name: string;
  title: string;
  /** At most 100 characters (the schema's limit): cut at a word when longer. */
  description: string;
  version: string;
  /** The npm package that runs the server. */
  packageName: string;
  packageArguments: RegistryInput[];
  /** Secrets first (credentials), then the option table's variables. */
  secrets: RegistryInput[];
}

/** Every OPENAPI_MCP_* variable of the option table (per-name ones such as OPENAPI_MCP_AUTH_<SCHEME> excepted). */
export function listOptionVariables(): RegistryInput[] {
  return OPTION_KEYS.flatMap((key) => {
    const spec = getOptionSpec(key);
    if (spec.env === undefined || spec.env.includes("<")) return [];
    const fallback = spec.default === undefined ? undefined : String(spec.default);
    return [
      {
        name: spec.env,
        description: toPlainText(spec.help) + (spec.envFormat !== undefined ? ` (${spec.envFormat})` : ""),
        ...(fallback !== undefined && formatDefault(spec) === fallback ? { default: fallback } : {}),
        ...(spec.secret === true ? { isSecret: true } : {}),
      },
    ];
  });
}

/** One secret variable per security scheme of the model. */
export function listCredentialInputs(
  model: BridgeModel,
  credentials: { scheme: string; env: string }[],
): RegistryInput[] {
  return credentials.map((c) => ({
    name: c.env,
    description: `Credential for the ${c.scheme} security scheme of ${model.info.title}`,
    isSecret: true,
  }));
}

/** `text` in at most `max` characters, cut at a word with an ellipsis when longer. */
function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 1))}…`;
}

export function emitServerJson(options: ServerJsonOptions): string {
  return toJson({
    $schema: SERVER_SCHEMA_URL,
    name: options.name,
    title: clip(options.title, 100),
    description: clip(options.description, 100),
    version: options.version,
    packages: [
      {
        registryType: "npm",
        identifier: options.packageName,
        version: options.version,
        transport: { type: "stdio" },
        packageArguments: options.packageArguments,
        environmentVariables: [...options.secrets, ...listOptionVariables()],
      },
    ],
  });
}

/** This package's own server.json (scripts/server-json.mjs writes it), from its package.json. */
export function emitPackageServerJson(pkg: { name: string; version: string; mcpName: string }): string {
  return emitServerJson({
    name: pkg.mcpName,
    title: "OpenAPI MCP Bridge",
    description:
      "Any OpenAPI description as MCP tools: a live bridge that validates arguments and calls the real API.",
    version: pkg.version,
    packageName: pkg.name,
    packageArguments: [
      { type: "positional", value: "serve", description: "serve a spec (the bridge's command)" },
      {
        type: "positional",
        valueHint: "spec",
        description:
          "the OpenAPI description to serve: a file path, an http(s) URL or a model saved by `model`",
        isRequired: true,
      },
    ],
    secrets: [],
  });
}
