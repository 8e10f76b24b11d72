/**
 * Security: the schemes of `components.securitySchemes` as model nodes, each operation's
 * requirements (its own, else the document's), and the `Authorization` header parameter that
 * OpenAPI says to ignore, turned into a credential the operator configures.
 */
import { createDiagnostic } from "../../model/diagnostics.js";
import { joinPointer } from "../../model/pointer.js";
import { isRecord } from "../../model/records.js";
import type {
  BridgeModel,
  Diagnostic,
  SecurityRequirementNode,
  SecuritySchemeNode,
} from "../../model/types.js";
import { resolveRefObject } from "./context.js";
import { toJson } from "./json-schema.js";

/**
 * Name of the security scheme the planner adds for an `Authorization` header parameter: OpenAPI
 * says such a parameter SHALL be ignored (3.0.3 §4.7.12, 3.1.0 §4.8.12), yet specs without a
 * security scheme use it to say the API needs credentials. The model must never handle them,
 * so the header becomes a credential the operator configures (`--auth authorizationHeader=...`,
 * `OPENAPI_MCP_AUTH_AUTHORIZATIONHEADER`) and the bridge sends.
 */
export const AUTHORIZATION_HEADER_SCHEME = "authorizationHeader";

/**
 * An operation without security requirements that declares an `Authorization` header
 * parameter: required → the header credential is required; optional → it is sent when
 * configured.
 */
export function withAuthorizationHeader(
  declared: { required: boolean } | undefined,
  security: SecurityRequirementNode[],
): SecurityRequirementNode[] {
  if (!declared || security.some((requirement) => Object.keys(requirement).length > 0)) return security;
  const scheme = { [AUTHORIZATION_HEADER_SCHEME]: [] };
  return declared.required ? [scheme] : [scheme, {}];
}

/** Registers the scheme `withAuthorizationHeader` asked for, unless the spec has one of that name. */
export function addAuthorizationHeaderScheme(model: BridgeModel, source: string): void {
  const users = model.tools.filter((tool) =>
    tool.http.security.some((requirement) => Object.hasOwn(requirement, AUTHORIZATION_HEADER_SCHEME)),
  );
  if (users.length === 0 || Object.hasOwn(model.securitySchemes, AUTHORIZATION_HEADER_SCHEME)) return;
  model.securitySchemes[AUTHORIZATION_HEADER_SCHEME] = {
    type: "apiKey",
    in: "header",
    name: "Authorization",
    description:
      "The Authorization header the spec declares as a parameter; sent as a credential the operator configures, never as a tool argument.",
  };
  model.diagnostics.push(
    createDiagnostic(
      "OMB_AUTHORIZATION_HEADER",
      `${users.length} operation(s) declare an Authorization header parameter and no security scheme; it is a credential: configure it with --auth ${AUTHORIZATION_HEADER_SCHEME}=VALUE or OPENAPI_MCP_AUTH_AUTHORIZATIONHEADER`,
      { file: source },
    ),
  );
}

export function planSecurity(raw: unknown): SecurityRequirementNode[] {
  if (!Array.isArray(raw)) return [];
  const result: SecurityRequirementNode[] = [];
  for (const entry of raw) {
    if (!isRecord(entry)) continue;
    const requirement: SecurityRequirementNode = {};
    for (const [scheme, scopes] of Object.entries(entry)) {
      requirement[scheme] = Array.isArray(scopes) ? scopes.map(String) : [];
    }
    result.push(requirement);
  }
  return result;
}

/** Whether a scheme's credential travels in the `Authorization` header. */
function isAuthorizationScheme(scheme: SecuritySchemeNode | undefined): boolean {
  if (scheme === undefined) return false;
  if (scheme.type === "apiKey")
    return scheme.in === "header" && scheme.name.toLowerCase() === "authorization";
  return scheme.type === "http" || scheme.type === "oauth2" || scheme.type === "openIdConnect";
}

/**
 * A requirement that asks for several schemes sent in the `Authorization` header at once
 * (every Google spec converted from its discovery document: `{Oauth2, Oauth2c}`, two flows of
 * one token) cannot be met as written: a request carries one such header. It becomes one
 * alternative per such scheme, each with the requirement's other schemes; before, an operator
 * who configured one of them sent no credential at all, and the start-up warning asked for both.
 */
export function splitSharedHeaderRequirements(
  security: SecurityRequirementNode[],
  schemes: Record<string, SecuritySchemeNode>,
): SecurityRequirementNode[] {
  const result: SecurityRequirementNode[] = [];
  const seen = new Set<string>();
  const add = (requirement: SecurityRequirementNode) => {
    const key = JSON.stringify(Object.entries(requirement).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (!seen.has(key)) {
      seen.add(key);
      result.push(requirement);
    }
  };
  for (const requirement of security) {
    const names = Object.keys(requirement);
    const shared = names.filter((name) => isAuthorizationScheme(schemes[name]));
    if (shared.length < 2) {
      add(requirement);
      continue;
    }
    const others = Object.fromEntries(Object.entries(requirement).filter(([name]) => !shared.includes(name)));
    for (const name of shared) add({ [name]: requirement[name]!, ...others });
  }
  return result;
}

export function planSecuritySchemes(
  document: Record<string, unknown>,
  diagnostics: Diagnostic[],
  source: string,
): Record<string, SecuritySchemeNode> {
  const components = isRecord(document.components) ? document.components : {};
  const schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  const result: Record<string, SecuritySchemeNode> = {};
  for (const [name, raw] of Object.entries(schemes)) {
    const scheme = resolveRefObject(document, raw);
    if (!isRecord(scheme)) continue;
    const description = typeof scheme.description === "string" ? { description: scheme.description } : {};
    switch (scheme.type) {
      case "apiKey":
        if (
          (scheme.in === "header" || scheme.in === "query" || scheme.in === "cookie") &&
          typeof scheme.name === "string"
        ) {
          result[name] = { type: "apiKey", in: scheme.in, name: scheme.name, ...description };
          continue;
        }
        break;
      case "http":
        if (typeof scheme.scheme === "string") {
          result[name] = {
            type: "http",
            scheme: scheme.scheme.toLowerCase(),
            ...(typeof scheme.bearerFormat === "string" ? { bearerFormat: scheme.bearerFormat } : {}),
            ...description,
          };
          continue;
        }
        break;
      case "oauth2":
        result[name] = { type: "oauth2", flows: toJson(scheme.flows ?? {}), ...description };
        continue;
      case "openIdConnect":
        result[name] = {
          type: "openIdConnect",
          openIdConnectUrl: String(scheme.openIdConnectUrl ?? ""),
          ...description,
        };
        continue;
      case "mutualTLS":
        result[name] = { type: "mutualTLS", ...description };
        continue;
    }
    diagnostics.push(
      createDiagnostic("OMB_SECURITY_SCHEME", `security scheme "${name}" is not usable and is ignored`, {
        file: source,
        pointer: joinPointer("components", "securitySchemes", name),
        hint: "give it a valid type (apiKey with in and name, http with scheme, oauth2, openIdConnect)",
      }),
    );
  }
  return result;
}
