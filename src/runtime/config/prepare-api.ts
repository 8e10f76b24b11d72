/**
 * One API of a bridge made ready to serve from its settings: its tool selection checked
 * (criteria that match nothing noted, a selection that leaves nothing refused), its
 * credentials read, the mistakes check-start.ts knows refused or warned about, the schemes its
 * tools need and nobody configured noted (check-missing-credentials.ts), and its
 * BridgeOptions. A bridge of one API and each API of a bridge of several go through here, and
 * so does every reload of a watched spec (which then keeps serving the old tools when this
 * refuses the new ones).
 */
import { isAnnounced } from "../../model/diagnostic-codes.js";
import { BridgeError, failWith, formatDiagnostic } from "../../model/diagnostics.js";
import type { BridgeModel, Diagnostic } from "../../model/types.js";
import { describeUnmatched, selectToolsChecked } from "../access/select.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { AuthConfig } from "../auth/auth-config.js";
import type { BridgeOptions } from "../engine/bridge-options.js";
import { readAuthSettings } from "./auth-settings.js";
import { checkCredentialParameters } from "./check-credential-parameters.js";
import { checkMissingCredentials } from "./check-missing-credentials.js";
import { checkStart } from "./check-start.js";
import { OPTION_TABLE, type Settings } from "./option-table.js";
import type { Environment } from "./read-settings.js";
import { readServerVariables, toBridgeOptions, toToolSelection } from "./to-options.js";

export interface ApiInputs {
  model: BridgeModel;
  /** This API's settings: the bridge's, with the API's own over them. */
  settings: Settings;
  /** The environment as this API reads it (with several APIs: serve/config/api-settings.ts). */
  env: Environment;
}

export interface PreparedApi {
  model: BridgeModel;
  options: BridgeOptions;
  /** Notes and warnings to print (`note: ...` lines and diagnostics), already prefixed with the API. */
  notes: string[];
}

export interface PrepareContext {
  /** Where the options are described, for hints. */
  help: string;
  hooks?: BridgeOptions["hooks"];
  /** The audit log of the API's `--audit-log`, opened once per file by the caller. */
  openAudit(target: string): AuditLog;
  /** The auth settings read at start, which a reload uses again rather than reading the file anew. */
  auth?: AuthConfig;
  /** What every note and error of this API starts with, when the bridge serves several (`api erp: `). */
  label?: string;
  /** The start of this API's variables in a bridge of several (`OPENAPI_MCP_ERP__`), for hints. */
  envPrefix?: string;
}

/** Throws a BridgeError (every error at once) when the API cannot be served. */
export async function prepareApi(
  api: ApiInputs,
  context: PrepareContext,
): Promise<PreparedApi & { auth: AuthConfig }> {
  const { model, settings, env } = api;
  const label = context.label ?? "";
  const notes: string[] = [];
  try {
    const selected = selectToolsChecked(model.tools, toToolSelection(settings), `see ${context.help}`);
    for (const criterion of selected.unmatched)
      notes.push(`note: ${label}${describeUnmatched(criterion, selected.near)}`);
    if (selected.tools.length === 0 && model.tools.length > 0) {
      failWith(
        "OMB_SELECTION_EMPTY",
        `the tool selection leaves none of the spec's ${model.tools.length} tools to serve`,
        {
          hint: `loosen the selection (${describeSelection(settings)}); \`openapi-mcp-bridge tools SPEC\` lists the tools with their tags`,
        },
      );
    }
    const auth = context.auth ?? (await readAuthSettings(settings, env));
    const warnings = checkStart({
      model,
      tools: selected.tools,
      settings,
      auth,
      env,
      serverVariables: { ...readServerVariables(model, env), ...settings.serverVar },
    });
    const options = toBridgeOptions(settings, {
      model,
      env,
      auth,
      ...(context.hooks ? { hooks: context.hooks } : {}),
      ...(settings.auditLog !== undefined ? { audit: context.openAudit(settings.auditLog) } : {}),
    });
    warnings.push(
      ...checkMissingCredentials({
        model,
        tools: selected.tools,
        options,
        ...(context.envPrefix !== undefined ? { envPrefix: context.envPrefix } : {}),
      }),
      ...checkCredentialParameters({ model, tools: selected.tools, options }),
    );
    for (const warning of [...listAnnounced(model, selected.tools), ...warnings])
      notes.push(formatDiagnostic({ ...warning, message: `${label}${warning.message}` }));
    return { model, options, notes, auth };
  } catch (error) {
    if (!(error instanceof BridgeError) || label === "") throw error;
    throw new BridgeError(error.diagnostics.map((d) => ({ ...d, message: `${label}${d.message}` })));
  }
}

/**
 * The spec's warnings an operator hears of at start-up (what the lenient loader repaired or left
 * out), and the served tools that cannot be called.
 */
function listAnnounced(model: BridgeModel, served: readonly { name: string }[]): Diagnostic[] {
  const announced = model.diagnostics.filter(isAnnounced);
  // Only the tools the diagnostics name are looked for among the served (not a set of 22k names).
  const named = new Set(announced.flatMap((d) => (d.tool === undefined ? [] : [d.tool])));
  const servedNamed = new Set<string>();
  if (named.size > 0) for (const tool of served) if (named.has(tool.name)) servedNamed.add(tool.name);
  return announced.filter((d) => d.tool === undefined || servedNamed.has(d.tool));
}

/** The selection flags that were given, for the hint of a selection that leaves nothing. */
function describeSelection(settings: Settings): string {
  const given = (
    ["includeTools", "excludeTools", "includeTags", "excludeTags", "methods", "paths", "readOnly"] as const
  )
    .filter((key) => settings[key] !== undefined)
    .map((key) => `--${OPTION_TABLE[key].flag}`);
  if (settings.destructive === "refuse") given.push("--destructive refuse");
  return given.length > 0 ? given.join(", ") : "the selection options";
}
