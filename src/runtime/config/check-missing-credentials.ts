/**
 * Credentials the served operations need and nobody configured: without this, each shows only as
 * a 401 when the model calls a tool. One line per security scheme (never one per operation),
 * naming the tools that need it and how to configure it; an operation with alternatives counts
 * only when none of them is configured, and one that also allows anonymous calls never.
 * Alternatives of one scheme each share a line, which says one of them is enough.
 */
import { type CodedDiagnostic, createDiagnostic } from "../../model/diagnostics.js";
import type { BridgeModel, SecuritySchemeNode, ToolNode } from "../../model/types.js";
import { listConfiguredSchemes } from "../auth/credential-provider.js";
import { isAlternativeMet, toClientEnvNames, toCredentialEnvName } from "../auth/credentials.js";
import type { BridgeOptions } from "../engine/bridge-options.js";
import { type Audience, nameOption } from "./library-options.js";

export interface MissingCredentialInputs {
  model: BridgeModel;
  /** The tools served (the selection applied). */
  tools: readonly ToolNode[];
  options: Pick<BridgeOptions, "auth" | "env" | "oauth" | "passThroughHeaders">;
  audience?: Audience;
  /**
   * The start of this API's variables in a bridge of several (`OPENAPI_MCP_ERP__`), for the
   * variable names the line gives; default `OPENAPI_MCP_`.
   */
  envPrefix?: string;
}

/** Tools named in a line, at most. */
const NAMED_TOOLS = 3;

export function checkMissingCredentials(inputs: MissingCredentialInputs): CodedDiagnostic[] {
  const { model, tools, options, audience = "cli", envPrefix } = inputs;
  const variableOf = (name: string) =>
    envPrefix === undefined ? name : name.replace(/^OPENAPI_MCP_/, envPrefix);
  const configured = listConfiguredSchemes(model, { ...options, env: options.env ?? process.env });
  // Keyed by the schemes a line names: one scheme, or the alternatives of which one would do.
  const needing = new Map<string, { schemes: string[]; tools: string[] }>();
  const add = (schemes: string[], tool: string) => {
    const key = schemes.join("\n");
    const entry = needing.get(key) ?? { schemes, tools: [] };
    entry.tools.push(tool);
    needing.set(key, entry);
  };
  for (const tool of tools) {
    const alternatives = tool.http.security;
    // No security asks for nothing (Graph beta's 22,361 tools): nothing to look at.
    if (alternatives.length === 0) continue;
    // An alternative whose schemes all have a credential (`{}`: anonymous calls) is used.
    if (alternatives.some((alt) => isAlternativeMet(alt, configured))) continue;
    const missing = (alt: Record<string, unknown>) =>
      Object.keys(alt).filter((name) => !configured.has(name) && isConfigurable(model.securitySchemes[name]));
    // Alternatives of one scheme each (GitLab's token in a header or in the query): one line
    // naming them all, since any one of them is enough. Schemes needed together keep a line each.
    const single = alternatives.length > 1 && alternatives.every((alt) => Object.keys(alt).length === 1);
    if (single) {
      const schemes = [...new Set(alternatives.flatMap(missing))];
      if (schemes.length > 1) {
        add(schemes, tool.name);
        continue;
      }
    }
    for (const name of new Set(alternatives.flatMap(missing))) add([name], tool.name);
  }
  return [...needing.values()].map(({ schemes, tools: names }) => {
    const refused = `the API will refuse ${names.length === 1 ? "its" : "their"} calls`;
    if (schemes.length === 1) {
      const name = schemes[0]!;
      return createDiagnostic(
        "OMB_CREDENTIAL_MISSING",
        `no credential for the security scheme "${name}", which ${describeTools(names)}: ${refused}; ${describeSetting(name, model.securitySchemes[name]!, audience, variableOf)}`,
      );
    }
    const listed = schemes.map((name) => `"${name}"`).join(", ");
    const settings = schemes
      .map((name) => describeSetting(name, model.securitySchemes[name]!, audience, variableOf))
      .join("; or ");
    return createDiagnostic(
      "OMB_CREDENTIAL_MISSING",
      `no credential for any of the security schemes ${listed} (one is enough), which ${describeTools(names)}: ${refused}; ${settings}`,
    );
  });
}

/** A scheme a credential can be configured for (a mutual-TLS one cannot; an undeclared one is reported by the loader). */
function isConfigurable(scheme: SecuritySchemeNode | undefined): scheme is SecuritySchemeNode {
  return scheme !== undefined && scheme.type !== "mutualTLS";
}

function describeTools(names: string[]): string {
  const shown = names.slice(0, NAMED_TOOLS).join(", ");
  const more = names.length > NAMED_TOOLS ? `, and ${names.length - NAMED_TOOLS} more` : "";
  return names.length === 1 ? `the tool ${shown} needs` : `${names.length} tools need (${shown}${more})`;
}

/** How to configure the scheme: the flag and the variable, or the library's option and the variable. */
function describeSetting(
  name: string,
  scheme: SecuritySchemeNode,
  audience: Audience,
  variableOf: (name: string) => string,
): string {
  const variable = variableOf(toCredentialEnvName(name));
  const isOAuth = scheme.type === "oauth2" || scheme.type === "openIdConnect";
  const names = toClientEnvNames(name);
  const client = { id: variableOf(names.id), secret: variableOf(names.secret) };
  if (audience === "library") {
    const oauth = isOAuth ? `, or an OAuth2 client in ${nameOption(audience, "oauthClient", name)}` : "";
    return `give it in ${nameOption(audience, "auth", name)} or the environment variable ${variable}${oauth}`;
  }
  const oauth = isOAuth
    ? `, or an OAuth2 client with --oauth-client ${name}=ID (or ${client.id}) and ${client.secret}`
    : "";
  return `configure it with --auth ${name}=VALUE or ${variable}${oauth}`;
}
