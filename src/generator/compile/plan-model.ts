/**
 * Spec → BridgeModel. Reads a bundled, normalised OpenAPI 3.x document (Swagger 2.0 is
 * converted by the loader) and plans one tool per operation.
 */

import { createDiagnostic } from "../../model/diagnostics.js";
import { isRecord } from "../../model/records.js";
import {
  type BridgeModel,
  type Diagnostic,
  type HttpMethod,
  IR_VERSION,
  type ToolNode,
} from "../../model/types.js";
import type { LoadedSpec } from "../spec/load-spec.js";
import { planArguments } from "./arguments.js";
import { DEFAULT_ARGUMENT_DESCRIPTION_BUDGET, DEFAULT_DESCRIPTION_BUDGET } from "./budgets.js";
import { listOperations, type OperationContext } from "./context.js";
import { describeOperation, titleOperation } from "./describe.js";
import { toTemplatePath } from "./fixed-parameters.js";
import { checkInputSchemas } from "./input-schema-check.js";
import { SchemaConverter } from "./json-schema.js";
import {
  createLazyHttp,
  createLazyTool,
  type EagerFields,
  type HttpMiddleFields,
  nameTool,
} from "./lazy-fields.js";
import { planLongRunning } from "./long-running.js";
import { listSecretHeaders, markMcpHeaders } from "./mcp-headers.js";
import {
  chooseToolName,
  fitNames,
  type NameOrigin,
  resolveNameCollisions,
  TOOL_NAME_PATTERN,
} from "./naming.js";
import { planOutput, planResult } from "./output-schema.js";
import {
  type AnnotationHints,
  collectOverrides,
  limitAnnotationHints,
  type McpOverride,
  type OverrideMap,
  reportUnusedOverrides,
} from "./overrides.js";
import { surveyParameters } from "./parameter-survey.js";
import { planAccept, planResponses } from "./responses.js";
import { planResultFields } from "./result-fields.js";
import {
  addAuthorizationHeaderScheme,
  planSecurity,
  planSecuritySchemes,
  splitSharedHeaderRequirements,
  withAuthorizationHeader,
} from "./security.js";
import { planServers } from "./servers.js";
import { shareRepeatedSchemas } from "./shared-schemas.js";
import { planSuccessFlags } from "./success-flags.js";
import { cleanProse } from "./text.js";
import { planXmlLists } from "./xml-lists.js";

export interface PlanOptions {
  /** Maximum characters of a tool description (default DEFAULT_DESCRIPTION_BUDGET). */
  descriptionBudget?: number;
  /** Maximum characters of a parameter or property description (default DEFAULT_ARGUMENT_DESCRIPTION_BUDGET). */
  argumentDescriptionBudget?: number;
  /**
   * Advertise an outline output schema per tool and return structuredContent (default: off; see
   * README, "Output schemas").
   */
  outputSchemas?: boolean;
  /** Plan each operation's result outline, which code mode's signatures show (default: off). */
  resultSchemas?: boolean;
  /**
   * Fields an output outline names per object (default 12, see output-schema.ts); `catalog` and
   * `diff` ask for all of them (Infinity is not JSON: any number above the largest object does).
   */
  outlineFields?: number;
  /**
   * Overrides by operationId or `METHOD /path` (an override file's map, see overrides.ts); they
   * win over the spec's `x-mcp`. An Overlay is applied to the document before planning instead.
   */
  overrides?: OverrideMap;
  /**
   * Make each tool's description, result field names, input schema's sharing and the answer
   * side of its HTTP binding (responses, accept, xmlLists, successFlags) when first read rather
   * than now (lazy-fields.ts): `serve` in discovery and code mode, whose first answers read few
   * tools. The model is the same; it is not part of the model cache's key.
   */
  planLazily?: boolean;
}

/** Plans the model of every operation in a loaded spec. */
export function planModel(loaded: LoadedSpec, options: PlanOptions = {}): BridgeModel {
  const { document } = loaded;
  const diagnostics: Diagnostic[] = [...loaded.diagnostics];
  const sites = listOperations(document);
  const converter = new SchemaConverter({
    document,
    openapi30: loaded.specVersion !== "3.1",
    descriptionBudget: options.argumentDescriptionBudget ?? DEFAULT_ARGUMENT_DESCRIPTION_BUDGET,
    repeatedTexts: surveyParameters(document, sites).repeatedTexts,
  });
  // Checked here too: a spec loaded with validate: false may have any info.
  const info: Record<string, unknown> = isRecord(document.info) ? document.info : {};
  const planned: Omit<ToolNode, "name">[] = [];
  const names: { name: string; route: string; origin: NameOrigin; nameAt?: string; full?: string }[] = [];
  const usedOverrides = new Set<string>();

  for (const { path, pathPointer, method, pointer, pathItem, operation } of sites) {
    const context: OperationContext = {
      document,
      converter,
      diagnostics,
      source: loaded.source,
      pointer,
      method,
      path: toTemplatePath(path),
      operation,
      pathItem,
    };
    const { override, nameAt, hiddenAt, operatorHints } = collectOverrides({
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
      const tool = applyOverride(planOperation(context, options, override.mcpHeaders), override);
      limitAnnotations(tool, operatorHints, diagnostics, loaded.source);
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
          { file: loaded.source, pointer, hint: "fix the operation in the spec" },
        ),
      );
    }
  }

  if (options.overrides) reportUnusedOverrides(options.overrides, usedOverrides, diagnostics);
  // Long names are shortened together, so that each keeps the words that tell it from the others.
  const fitted = fitNames(names.map((entry) => entry.full ?? entry.name));
  names.forEach((entry, index) => {
    if (entry.full !== undefined) entry.name = fitted[index]!;
  });
  reportOverrideCollisions(names, diagnostics, loaded.source);
  const finalNames = resolveNameCollisions(names);
  const tools: ToolNode[] = planned.map((tool, index) => {
    const name = finalNames[index]!;
    if (name !== names[index]!.name) {
      diagnostics.push(
        createDiagnostic(
          "OMB_NAME_COLLISION",
          `tool name "${names[index]!.name}" is taken; ${names[index]!.route} is named "${name}"`,
          { file: loaded.source, pointer: tool.source.pointer },
        ),
      );
    }
    return nameTool(name, tool);
  });

  diagnostics.push(...checkInputSchemas(tools, loaded.source));
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
  for (const tool of tools)
    tool.http.security = splitSharedHeaderRequirements(tool.http.security, model.securitySchemes);
  // Cleaned here, like every text of the model: the server's instructions quote it to a model,
  // and specs write it for a docs page (HTML, markdown, links).
  const description = cleanProse(info.description);
  if (description !== "") model.info.description = description;
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

/** Undoes hints that make a write look safer than its method (see limitAnnotationHints), saying so. */
function limitAnnotations(
  tool: Omit<ToolNode, "name">,
  operatorHints: Partial<AnnotationHints>,
  diagnostics: Diagnostic[],
  source: string,
): void {
  const { method } = tool.http;
  const { title, ...hints } = tool.annotations;
  const limited = limitAnnotationHints(method, hints, deriveAnnotations(method), operatorHints);
  if (limited.undone.length === 0) return;
  tool.annotations = { title, ...limited.hints };
  diagnostics.push(
    createDiagnostic(
      "OMB_ANNOTATION_IGNORED",
      `${method.toUpperCase()} ${tool.http.path}: ${limited.undone.join(" and ")} ignored: a ${method.toUpperCase()} is ${
        method === "delete"
          ? "always destructive and never read-only"
          : "never read-only, and destructive unless the override file says otherwise"
      }`,
      {
        file: source,
        pointer: tool.source.pointer,
        hint: "the operator's --destructive and --read-only policies go by the method; an override file may mark a PUT or PATCH destructiveHint: false",
      },
    ),
  );
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
          file: source,
          hint: "give each operation its own name",
        },
      ),
    );
  }
}

function planOperation(
  context: OperationContext,
  options: PlanOptions,
  mcpHeaders: McpOverride["mcpHeaders"],
): Omit<ToolNode, "name"> {
  const { operation, method, path, document } = context;
  const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
  const args = planArguments(context);
  // Shared on first use when planning lazily, unless Mcp-Param headers are to be marked (they
  // read the shared schema, and may warn now).
  const lazy = options.planLazily === true;
  const deferred = lazy && args.declaredMcpHeaders.length === 0 && mcpHeaders === undefined;
  const inputSchema = markMcpHeaders({
    inputSchema: deferred ? args.inputSchema : shareRepeatedSchemas(args.inputSchema),
    parameters: args.parameters,
    declared: args.declaredMcpHeaders,
    override: mcpHeaders,
    secretHeaders: listSecretHeaders(document),
    diagnostics: context.diagnostics,
    source: context.source,
    pointer: context.pointer,
  });
  const output = options.outputSchemas === true ? planOutput(context, options.outlineFields) : undefined;
  const result = options.resultSchemas === true ? planResult(context) : undefined;
  const tags = Array.isArray(operation.tags)
    ? operation.tags.filter((t): t is string => typeof t === "string")
    : [];
  const deprecated = operation.deprecated === true;
  const security = withAuthorizationHeader(
    args.authorizationHeader,
    planSecurity(operation.security ?? document.security),
  );
  const title = titleOperation(context);
  const describe = () =>
    describeOperation(context, {
      budget: options.descriptionBudget ?? DEFAULT_DESCRIPTION_BUDGET,
      hasOutputSchema: output !== undefined,
    });
  const middle: HttpMiddleFields = {};
  if (args.body) middle.body = args.body;
  const servers = operation.servers ?? context.pathItem.servers;
  if (Array.isArray(servers) && servers.length > 0) middle.servers = planServers(servers, context.source);
  const longRunning = planLongRunning(context);
  if (longRunning) middle.longRunning = longRunning;
  const http = lazy
    ? createLazyHttp({ method, path, parameters: args.parameters, security }, middle, {
        responses: () => planResponses(context),
        accept: () => planAccept(context),
        xmlLists: () => planXmlLists(context),
        successFlags: () => planSuccessFlags(context),
      })
    : planHttp({ method, path, parameters: args.parameters, security }, middle, context);
  const fields: EagerFields = {
    title,
    annotations: { title, ...deriveAnnotations(method) },
    http,
    source:
      operationId !== undefined ? { pointer: context.pointer, operationId } : { pointer: context.pointer },
    tags,
    deprecated,
  };
  if (lazy) {
    // The same keys in the same order (lazy-fields.ts), three of them made on first use.
    return createLazyTool(fields, {
      describe,
      inputSchema: deferred ? { unshared: inputSchema } : { shared: inputSchema },
      ...(output !== undefined ? { output } : {}),
      ...(result !== undefined ? { result } : {}),
      planResultFields: () => planResultFields(context),
    });
  }
  const tool: Omit<ToolNode, "name"> = {
    title,
    description: describe(),
    inputSchema,
    annotations: fields.annotations,
    http,
    source: fields.source,
    tags,
    deprecated,
  };
  if (output) {
    tool.outputSchema = output.schema;
    if (output.wrapped) tool.outputWrapped = true;
  }
  if (result) tool.resultSchema = result;
  const resultFields = planResultFields(context);
  if (resultFields) tool.resultFields = resultFields;
  return tool;
}

/** The `http` binding planned now (eager planning; createLazyHttp makes the same one on demand). */
function planHttp(
  eager: Pick<ToolNode["http"], "method" | "path" | "parameters" | "security">,
  middle: HttpMiddleFields,
  context: OperationContext,
): ToolNode["http"] {
  const http: ToolNode["http"] = {
    ...eager,
    responses: planResponses(context),
    accept: planAccept(context),
    ...middle,
  };
  const xmlLists = planXmlLists(context);
  if (xmlLists) http.xmlLists = xmlLists;
  const successFlags = planSuccessFlags(context);
  if (successFlags) http.successFlags = successFlags;
  return http;
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
