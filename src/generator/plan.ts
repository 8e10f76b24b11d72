/**
 * Spec → BridgeModel. Reads a bundled, normalised OpenAPI 3.x document (Swagger 2.0 is
 * converted by the loader) and plans one tool per operation.
 */
import { createDiagnostic } from "../model/diagnostics.js";
import {
  chooseToolName,
  type NameOrigin,
  resolveNameCollisions,
  TOOL_NAME_PATTERN,
} from "../model/naming.js";
import { joinPointer, resolveLocalRef } from "../model/pointer.js";
import { isRecord } from "../model/records.js";
import {
  type BridgeModel,
  type Diagnostic,
  type HttpMethod,
  IR_VERSION,
  type JsonSchema,
  type ParameterBindingNode,
  type ResponseNode,
  type SecurityRequirementNode,
  type SecuritySchemeNode,
  type ServerNode,
  type ToolNode,
} from "../model/types.js";
import { planArguments } from "./arguments.js";
import { describeOperation, titleOperation } from "./describe.js";
import type { LoadedSpec } from "./load.js";
import { planOutput } from "./output.js";
import { collectOverrides, type McpOverride, type OverrideMap, reportUnusedOverrides } from "./overrides.js";
import { SchemaConverter, toJson } from "./schema.js";

export const HTTP_METHODS: HttpMethod[] = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];

export interface PlanOptions {
  /** Maximum characters of a tool description (default 200). */
  descriptionBudget?: number;
  /** Maximum characters of a parameter or property description (default 100). */
  argumentDescriptionBudget?: number;
  /**
   * Advertise an outline output schema per tool and return structuredContent (default: off; see
   * README, "Output schemas").
   */
  outputSchemas?: boolean;
  /**
   * Overrides by operationId or `METHOD /path` (an override file's map, see overrides.ts); they
   * win over the spec's `x-mcp`. An Overlay is applied to the document before planning instead.
   */
  overrides?: OverrideMap;
}

export interface OperationContext {
  document: Record<string, unknown>;
  converter: SchemaConverter;
  diagnostics: Diagnostic[];
  source: string;
  pointer: string;
  method: HttpMethod;
  path: string;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
}

/** Plans the model of every operation in a loaded spec. */
export function planModel(loaded: LoadedSpec, options: PlanOptions = {}): BridgeModel {
  const document = loaded.document as unknown as Record<string, unknown>;
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  const converter = new SchemaConverter({
    document,
    openapi30: loaded.specVersion !== "3.1",
    descriptionBudget: options.argumentDescriptionBudget ?? 100,
  });
  const info = isRecord(document.info) ? document.info : {};
  const paths = isRecord(document.paths) ? document.paths : {};
  const planned: Omit<ToolNode, "name">[] = [];
  const names: { name: string; route: string; origin: NameOrigin; nameAt?: string }[] = [];
  const usedOverrides = new Set<string>();

  for (const [path, rawPathItem] of Object.entries(paths)) {
    const pathPointer = joinPointer("paths", path);
    const pathItem = resolveRefObject(document, rawPathItem);
    if (!isRecord(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      const pointer = `${pathPointer}/${method}`;
      const context: OperationContext = {
        document,
        converter,
        diagnostics,
        source: loaded.source,
        pointer,
        method,
        path,
        operation,
        pathItem,
      };
      const { override, nameAt, hiddenAt } = collectOverrides({
        pathItem,
        operation,
        pathPointer,
        pointer,
        method,
        path,
        source: loaded.source,
        map: options.overrides,
        used: usedOverrides,
        diagnostics,
      });
      if (override.hidden === true) {
        // The same code as any skipped operation, so every operation stays accounted for.
        const by = hiddenAt
          ? `${hiddenAt.file === loaded.source ? "" : hiddenAt.file}#${hiddenAt.pointer}`
          : "";
        diagnostics.push(
          createDiagnostic(
            "OMB_OPERATION_SKIPPED",
            `operation ${method.toUpperCase()} ${path} was skipped: it is hidden by an override (hidden: true at ${by})`,
            { severity: "info", file: loaded.source, pointer },
          ),
        );
        continue;
      }
      try {
        const tool = applyOverride(planOperation(context, options), override);
        planned.push(tool);
        const derived = chooseToolName({ operationId: tool.source.operationId, method, path });
        const route = `${method.toUpperCase()} ${path}`;
        const at = nameAt ? `${nameAt.file === loaded.source ? "" : nameAt.file}#${nameAt.pointer}` : "";
        if (override.name !== undefined && TOOL_NAME_PATTERN.test(override.name)) {
          names.push({ name: override.name, origin: "override", route, nameAt: at });
        } else {
          if (override.name !== undefined) {
            diagnostics.push(
              createDiagnostic(
                "OMB_OVERRIDE_NAME_INVALID",
                `override name "${override.name}" for ${route} is not a valid MCP tool name (^[a-zA-Z0-9_-]{1,64}$); the tool is named "${derived.name}"`,
                {
                  severity: "warning",
                  file: nameAt!.file,
                  pointer: nameAt!.pointer,
                  hint: "use only letters, digits, _ and -, at most 64 characters",
                },
              ),
            );
          }
          names.push({ ...derived, route });
        }
      } catch (error) {
        diagnostics.push(
          createDiagnostic(
            "OMB_OPERATION_SKIPPED",
            `operation ${method.toUpperCase()} ${path} was skipped: ${(error as Error).message}`,
            { severity: "warning", file: loaded.source, pointer, hint: "fix the operation in the spec" },
          ),
        );
      }
    }
  }

  if (options.overrides) reportUnusedOverrides(options.overrides, usedOverrides, diagnostics);
  reportOverrideCollisions(names, diagnostics, loaded.source);
  const finalNames = resolveNameCollisions(names);
  const tools: ToolNode[] = planned.map((tool, index) => {
    const name = finalNames[index]!;
    if (name !== names[index]!.name) {
      diagnostics.push(
        createDiagnostic(
          "OMB_NAME_COLLISION",
          `tool name "${names[index]!.name}" is taken; ${names[index]!.route} is named "${name}"`,
          { severity: "info", file: loaded.source, pointer: tool.source.pointer },
        ),
      );
    }
    return { name, ...tool };
  });

  const model: BridgeModel = {
    irVersion: IR_VERSION,
    info: {
      title: typeof info.title === "string" && info.title.trim() !== "" ? info.title : "API",
      version: typeof info.version === "string" ? info.version : String(info.version ?? ""),
      specVersion: loaded.specVersion,
      source: loaded.source,
    },
    servers: planServers(document.servers, loaded.source),
    securitySchemes: planSecuritySchemes(document, diagnostics, loaded.source),
    tools,
    diagnostics,
  };
  addAuthorizationHeaderScheme(model, loaded.source);
  if (typeof info.description === "string" && info.description.trim() !== "") {
    model.info.description = info.description;
  }
  return model;
}

/** An override's fields on a planned tool: the title also titles the annotations. */
function applyOverride(tool: Omit<ToolNode, "name">, override: McpOverride): Omit<ToolNode, "name"> {
  if (override.description !== undefined) tool.description = override.description;
  if (override.title !== undefined) {
    tool.title = override.title;
    tool.annotations.title = override.title;
  }
  if (override.annotations) tool.annotations = { ...tool.annotations, ...override.annotations };
  return tool;
}

/** Two overrides that ask for one name (without regard to case): an error naming both. */
function reportOverrideCollisions(
  names: { name: string; origin: NameOrigin; route: string; nameAt?: string }[],
  diagnostics: Diagnostic[],
  source: string,
): void {
  const first = new Map<string, { route: string; nameAt?: string }>();
  for (const entry of names) {
    if (entry.origin !== "override") continue;
    const key = entry.name.toLowerCase();
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, entry);
      continue;
    }
    diagnostics.push(
      createDiagnostic(
        "OMB_OVERRIDE_NAME_COLLISION",
        `override name "${entry.name}" is given to both ${earlier.route} (${earlier.nameAt}) and ${entry.route} (${entry.nameAt}); the second gets a suffix`,
        {
          severity: "error",
          file: source,
          hint: "give each operation its own name",
        },
      ),
    );
  }
}

function planOperation(context: OperationContext, options: PlanOptions): Omit<ToolNode, "name"> {
  const { operation, method, path, document } = context;
  const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
  const args = planArguments(context);
  const responses = planResponses(context);
  const output = options.outputSchemas === true ? planOutput(context) : undefined;
  const tags = Array.isArray(operation.tags)
    ? operation.tags.filter((t): t is string => typeof t === "string")
    : [];
  const deprecated = operation.deprecated === true;
  const security = withAuthorizationHeader(
    args.authorizationHeader,
    planSecurity(operation.security ?? document.security),
  );
  const title = titleOperation(context);
  const tool: Omit<ToolNode, "name"> = {
    title,
    description: describeOperation(context, {
      budget: options.descriptionBudget ?? 200,
      hasOutputSchema: output !== undefined,
    }),
    inputSchema: args.inputSchema,
    annotations: { title, ...deriveAnnotations(method) },
    http: {
      method,
      path,
      parameters: args.parameters,
      security,
      responses,
      accept: planAccept(context),
    },
    source:
      operationId !== undefined ? { pointer: context.pointer, operationId } : { pointer: context.pointer },
    tags,
    deprecated,
  };
  if (args.body) tool.http.body = args.body;
  const servers = operation.servers ?? context.pathItem.servers;
  if (Array.isArray(servers) && servers.length > 0) tool.http.servers = planServers(servers, context.source);
  if (output) {
    tool.outputSchema = output.schema;
    if (output.wrapped) tool.outputWrapped = true;
  }
  return tool;
}

/** Method → MCP annotations (RFC 9110 §9.2 safe and idempotent methods). */
export function deriveAnnotations(method: HttpMethod): Omit<ToolNode["annotations"], "title"> {
  const safe = method === "get" || method === "head" || method === "options" || method === "trace";
  const idempotent = safe || method === "put" || method === "delete";
  return {
    readOnlyHint: safe,
    destructiveHint: method === "delete" || method === "put" || method === "patch",
    idempotentHint: idempotent,
    openWorldHint: true,
  };
}

function planResponses(context: OperationContext): ResponseNode[] {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const result: ResponseNode[] = [];
  for (const [status, raw] of Object.entries(responses)) {
    if (status.startsWith("x-")) continue;
    const response = resolveRefObject(context.document, raw);
    if (!isRecord(response)) continue;
    const content = isRecord(response.content) ? Object.keys(response.content) : [];
    result.push({
      status: status.toUpperCase() === status ? status : status.toUpperCase(),
      description: typeof response.description === "string" ? response.description : "",
      mediaTypes: content,
    });
  }
  return result;
}

/** Accept: the media types of success responses, JSON first; `*\/*` is added by the runtime when empty. */
function planAccept(context: OperationContext): string[] {
  const responses = isRecord(context.operation.responses) ? context.operation.responses : {};
  const types: string[] = [];
  const successKeys = Object.keys(responses).filter((s) => /^2/.test(s));
  const keys = successKeys.length > 0 ? successKeys : Object.keys(responses).filter((s) => s === "default");
  for (const status of keys) {
    const response = resolveRefObject(context.document, responses[status]);
    if (!isRecord(response) || !isRecord(response.content)) continue;
    for (const mediaType of Object.keys(response.content))
      if (!types.includes(mediaType)) types.push(mediaType);
  }
  return types.sort((a, b) => rankJson(a) - rankJson(b));
}

function rankJson(mediaType: string): number {
  const base = mediaType.split(";")[0]!.trim().toLowerCase();
  if (base === "application/json") return 0;
  if (base.endsWith("+json")) return 1;
  return 2;
}

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
function withAuthorizationHeader(
  declared: { required: boolean } | undefined,
  security: SecurityRequirementNode[],
): SecurityRequirementNode[] {
  if (!declared || security.some((requirement) => Object.keys(requirement).length > 0)) return security;
  const scheme = { [AUTHORIZATION_HEADER_SCHEME]: [] };
  return declared.required ? [scheme] : [scheme, {}];
}

/** Registers the scheme `withAuthorizationHeader` asked for, unless the spec has one of that name. */
function addAuthorizationHeaderScheme(model: BridgeModel, source: string): void {
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
      { severity: "info", file: source },
    ),
  );
}

function planSecurity(raw: unknown): SecurityRequirementNode[] {
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

export function planServers(raw: unknown, source: string): ServerNode[] {
  const servers: ServerNode[] = [];
  if (Array.isArray(raw)) {
    for (const server of raw) {
      if (!isRecord(server) || typeof server.url !== "string") continue;
      const node: ServerNode = { url: resolveServerUrl(server.url, source), variables: {} };
      if (typeof server.description === "string") node.description = server.description;
      if (isRecord(server.variables)) {
        for (const [name, variable] of Object.entries(server.variables)) {
          if (!isRecord(variable)) continue;
          const v: ServerNode["variables"][string] = { default: String(variable.default ?? "") };
          if (Array.isArray(variable.enum)) v.enum = variable.enum.map(String);
          if (typeof variable.description === "string") v.description = variable.description;
          node.variables[name] = v;
        }
      }
      servers.push(node);
    }
  }
  if (servers.length === 0) servers.push({ url: resolveServerUrl("/", source), variables: {} });
  return servers;
}

/** A relative server URL is relative to where the spec was fetched from (OAS 3 §4.8.5). */
function resolveServerUrl(url: string, source: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith("{")) return url;
  if (/^https?:\/\//i.test(source)) {
    try {
      return new URL(url, source).href.replace(/\/$/, "");
    } catch {
      return url;
    }
  }
  return url;
}

function planSecuritySchemes(
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
        severity: "warning",
        file: source,
        pointer: joinPointer("components", "securitySchemes", name),
        hint: "give it a valid type (apiKey with in and name, http with scheme, oauth2, openIdConnect)",
      }),
    );
  }
  return result;
}

/** Resolves a `$ref` to a component (parameter, response, request body, path item). */
export function resolveRefObject(document: unknown, value: unknown): unknown {
  let node = value;
  for (let hops = 0; hops < 16; hops++) {
    if (!isRecord(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#")) return node;
    node = resolveLocalRef(document as object, node.$ref);
  }
  return node;
}

export type { JsonSchema, ParameterBindingNode };
