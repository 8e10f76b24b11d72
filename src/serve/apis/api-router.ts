/**
 * Several APIs behind one MCP server: each API has its own bridge runtime (its own
 * credentials, trusted origins, connection pool, circuit breaker, limits, tool selection and
 * audit identity) serving its tools under its namespace, and the router puts their tools
 * behind one tool surface. A call goes to the runtime whose tool it names, and to no other:
 * nothing of one API (a credential, a header, a request) is ever given to another. In
 * discovery mode the three tools search and describe the operations of every API, and
 * call_operation reaches any of them by its namespaced name.
 *
 * A router is a value: hot reload of one API makes a new router with that API's new runtime
 * and the others' as they are (withApi).
 */

import type { CallToolResult } from "@modelcontextprotocol/server";
import { type BridgeModel, IR_VERSION, type ToolNode } from "../../model/types.js";
import { selectModel } from "../../runtime/access/select.js";
import type { AuditLog } from "../../runtime/audit/audit-log.js";
import { createCallAuditor } from "../../runtime/audit/audited-call.js";
import { joinLoginCallbacks, type LoginCallbacks } from "../../runtime/auth/user-login/user-login.js";
import type { SandboxLimits } from "../../runtime/code/sandbox/limits.js";
import { checkBridgeOptions, reportWarnings } from "../../runtime/config/check-bridge-options.js";
import type { RequestedMode } from "../../runtime/discovery/mode.js";
import {
  type BridgeOptions,
  type CallContext,
  resolveSurfaceOptions,
} from "../../runtime/engine/bridge-options.js";
import {
  assembleBridgeRuntime,
  type BridgeRuntime,
  type ToolRuntime,
} from "../../runtime/engine/bridge-runtime.js";
import { createToolSurface } from "../../runtime/engine/tool-surface.js";
import { redactSecrets } from "../../runtime/results/redact-secrets.js";
import type { ApiConnection } from "../../runtime/upstream/connection.js";
import { namespaceTools } from "./namespace.js";

/** One API of the bridge and its runtime (tools named `<namespace>__<tool>`). */
export interface ApiRuntime {
  namespace: string;
  runtime: BridgeRuntime;
  /** `--destructive confirm` for this API: its destructive tools ask the user first. */
  confirmsDestructive: boolean;
}

export interface ApiRouterOptions {
  /** Tools, discovery or code mode over every API's tools together (default auto). */
  mode?: RequestedMode;
  pageBytes?: number;
  /** Code mode: the sandbox's limits (programs call any API's operations). */
  code?: Partial<SandboxLimits>;
  /** Code mode: characters of text in a program's result (0: no limit). */
  maxResultChars?: number;
  /** Audit of the discovery tools, whose search and describe span every API. */
  audit?: AuditLog;
}

/** The APIs' runtimes behind one tool surface: a ToolRuntime of its own kind. */
export interface ApiRouter extends ToolRuntime {
  readonly kind: "router";
  apis: readonly ApiRuntime[];
  /** A router with `api` in place of the API of the same namespace (the others shared). */
  withApi(api: ApiRuntime): ApiRouter;
  /** Stops what the router itself holds (code mode's sandbox), not its APIs' runtimes. */
  closeOwn(): Promise<void>;
}

/**
 * One API's runtime under its namespace: its tool selection applied to the tools' own names
 * (`--include-tools "order_*"`), then every tool renamed `<namespace>__<tool>`; its calls
 * audited under its namespace. The runtime serves tools mode: the router chooses the mode for
 * all APIs together.
 */
export function createApiRuntime(
  input: { namespace: string; model: BridgeModel; options: BridgeOptions },
  connection?: ApiConnection,
): ApiRuntime {
  // Checked on the tools' own names, as the CLI checks each API of a bridge.
  reportWarnings(input.options, checkBridgeOptions(input.model, input.options));
  return assembleApiRuntime(input, connection);
}

/** createApiRuntime without the start checks: for options config/prepare-api.ts checked already. */
export function assembleApiRuntime(
  input: { namespace: string; model: BridgeModel; options: BridgeOptions },
  connection?: ApiConnection,
): ApiRuntime {
  const { namespace, options } = input;
  const selected = selectModel(input.model, options.access);
  const model: BridgeModel = {
    ...selected,
    tools: namespaceTools(selected.tools, namespace),
  };
  delete model.searchIndex; // it indexes the tools' own names
  const confirmsDestructive = options.access?.destructive === "confirm";
  const runtime = assembleBridgeRuntime(
    model,
    {
      ...options,
      // The selection is applied above, on the tools' own names; what stays is the policy.
      access: { destructive: confirmsDestructive ? "confirm" : "allow" },
      mode: "tools",
      apiName: namespace,
    },
    connection,
  );
  return { namespace, runtime, confirmsDestructive };
}

export function createApiRouter(apis: readonly ApiRuntime[], options: ApiRouterOptions = {}): ApiRouter {
  const owner = new Map<string, ApiRuntime>();
  const byName = new Map<string, ToolNode>();
  for (const api of apis) {
    for (const tool of api.runtime.model.tools) {
      if (owner.has(tool.name)) throw new Error(`two APIs serve a tool named ${tool.name}`);
      owner.set(tool.name, api);
      byName.set(tool.name, tool);
    }
  }
  const tools = [...byName.values()];
  const first = apis[0]?.runtime.model;
  const model: BridgeModel = {
    irVersion: first?.irVersion ?? IR_VERSION,
    info: {
      title: apis.map((api) => api.namespace).join(" + "),
      version: "",
      specVersion: first?.info.specVersion ?? "3.1",
    },
    servers: [],
    securitySchemes: {},
    tools,
    diagnostics: [],
  };
  const secrets = () => apis.flatMap((api) => api.runtime.secrets());
  const audited = createCallAuditor({
    audit: options.audit,
    schemaOf: (name) => byName.get(name)?.inputSchema,
    secretsOf: (call) => [...secrets(), ...call.secrets],
  });
  const resolved = resolveSurfaceOptions(options);
  const surface = createToolSurface({
    model,
    mode: resolved.mode,
    pageBytes: resolved.pageBytes,
    confirms: (tool) => owner.get(tool.name)?.confirmsDestructive === true,
    code: { limits: resolved.code, maxTextChars: resolved.maxTextChars },
    audited,
    secrets,
    // Each API's runtime audits its own calls, under its namespace, and redacts its own
    // secrets; an answer may echo another API's (a value the model copied across), so every
    // API's are redacted before anyone (the client, a program in code mode) sees it.
    callOperation: async (name: string, args: unknown, context: CallContext): Promise<CallToolResult> =>
      redactSecrets(await owner.get(name)!.runtime.callTool(name, args, context), secrets()),
  });
  return {
    kind: "router",
    apis,
    model,
    mode: surface.mode,
    listTools: surface.listTools,
    callTool: surface.callTool,
    secrets,
    ...optionalLogins(joinLoginCallbacks(apis.map((api) => api.runtime.logins))),
    withApi: (api) =>
      createApiRouter(
        apis.map((current) => (current.namespace === api.namespace ? api : current)),
        options,
      ),
    closeOwn: () => surface.close(),
    close: async () => {
      await surface.close();
      await Promise.all(apis.map((api) => api.runtime.close()));
    },
  };
}

function optionalLogins(logins: LoginCallbacks | undefined): { logins?: LoginCallbacks } {
  return logins === undefined ? {} : { logins };
}
