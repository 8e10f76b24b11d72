/**
 * What start-up says about parameters the model never gives (request/filled-parameters.ts
 * decides, with the same inputs the runtime uses): one line for those the configuration sends,
 * one for credentials nobody configured (not sent) on operations whose security is not met, and
 * one per scheme or parameter set that signs each request, which no static value satisfies. One line per API and kind, never one per
 * operation: Discourse's Api-Key is one line, not 21.
 */
import { type CodedDiagnostic, createDiagnostic } from "../../model/diagnostics.js";
import type { BridgeModel, SecuritySchemeNode, ToolNode } from "../../model/types.js";
import { listConfiguredSchemes } from "../auth/credential-provider.js";
import { isAlternativeMet } from "../auth/credentials.js";
import type { BridgeOptions } from "../engine/bridge-options.js";
import { type FilledParameter, fillServedParameters } from "../request/filled-parameters.js";

export interface CredentialParameterInputs {
  model: BridgeModel;
  /** The tools served (the selection applied). */
  tools: ToolNode[];
  options: Pick<
    BridgeOptions,
    "auth" | "env" | "oauth" | "passThroughHeaders" | "headers" | "allowCredentialArguments"
  >;
}

export function checkCredentialParameters(inputs: CredentialParameterInputs): CodedDiagnostic[] {
  const { model, tools, options } = inputs;
  const schemes = listConfiguredSchemes(model, { ...options, env: options.env ?? process.env });
  const { filled } = fillServedParameters(
    { ...model, tools },
    {
      headers: new Set(Object.keys(options.headers ?? {}).map((name) => name.toLowerCase())),
      schemes,
      allowed: new Set((options.allowCredentialArguments ?? []).map((name) => name.toLowerCase())),
    },
  );
  const found: CodedDiagnostic[] = [];
  const sent = filled.filter((entry) => entry.by !== "withheld");
  if (sent.length > 0) {
    found.push(
      createDiagnostic(
        "OMB_PARAMETER_FILLED",
        `${listParameters(sent, describeSource)} sent from the configuration; no tool takes ${sent.length === 1 ? "it" : "them"} as an argument`,
      ),
    );
  }
  // A credential parameter of an operation whose security the configuration satisfies is the
  // same secret in another place (Slack's `token`, Google's `access_token` and `key` beside their
  // OAuth): withheld all the same, but not worth a line that asks the operator for it.
  const authorised = new Set(
    tools
      .filter((tool) =>
        // Anonymous access (`{}`) is not a credential the configuration gives.
        tool.http.security.some(
          (alternative) => Object.keys(alternative).length > 0 && isAlternativeMet(alternative, schemes),
        ),
      )
      .map((tool) => tool.name),
  );
  const withheld = filled.filter(
    (entry) => entry.by === "withheld" && entry.kind !== "signature" && !authorised.has(entry.tool),
  );
  if (withheld.length > 0) {
    const names = unique(withheld.map((entry) => entry.name));
    found.push(
      createDiagnostic(
        "OMB_CREDENTIAL_PARAMETER",
        `${listParameters(withheld)} ${names.length === 1 ? "looks" : "look"} like ${names.length === 1 ? "a credential" : "credentials"} with no configured value: the model may not give ${names.length === 1 ? "it" : "them"}, so ${names.length === 1 ? "it is" : "they are"} not sent`,
        { hint: hintFor(withheld, model.securitySchemes) },
      ),
    );
  }
  found.push(...checkRequestSigning(model, tools, filled, schemes));
  return found;
}

/**
 * A scheme that signs each request (AWS Signature v4: its description says so, or its operations
 * declare the signature's parameters) cannot be satisfied by `--auth`; nor can the signature
 * parameters themselves by a `--header`.
 */
function checkRequestSigning(
  model: BridgeModel,
  tools: ToolNode[],
  filled: FilledParameter[],
  configured: ReadonlySet<string>,
): CodedDiagnostic[] {
  const signed = new Set(filled.filter((entry) => entry.kind === "signature").map((entry) => entry.tool));
  const found: CodedDiagnostic[] = [];
  for (const [name, scheme] of Object.entries(model.securitySchemes)) {
    const users = tools.filter((tool) =>
      tool.http.security.some((alternative) => Object.hasOwn(alternative, name)),
    );
    if (users.length === 0 || !isSigningScheme(scheme, users, signed)) continue;
    const given = configured.has(name)
      ? `a static value (--auth ${name}) is sent as is, which the API refuses`
      : "it is not configured";
    found.push(
      createDiagnostic(
        "OMB_REQUEST_SIGNING",
        `the security scheme "${name}" of ${count(users.length, "tool")} signs each request${scheme.description ? ` (${scheme.description})` : ""}: ${given}; the bridge does not sign requests`,
      ),
    );
  }
  const parameters = filled.filter((entry) => entry.kind === "signature");
  if (found.length === 0 && parameters.length > 0) {
    found.push(
      createDiagnostic(
        "OMB_REQUEST_SIGNING",
        `${listParameters(parameters)} carry a per-request signature: a static value cannot make one, and the bridge does not sign requests`,
      ),
    );
  }
  return found;
}

function isSigningScheme(
  scheme: SecuritySchemeNode,
  users: ToolNode[],
  signed: ReadonlySet<string>,
): boolean {
  if (scheme.description !== undefined && /\bsignature\b/i.test(scheme.description)) return true;
  return users.every((tool) => signed.has(tool.name));
}

/** `Api-Key (header, 21 tools), token (query, 1 tool)`: each parameter once, with its reach. */
function listParameters(entries: FilledParameter[], describe?: (entry: FilledParameter) => string): string {
  const groups = new Map<string, { entry: FilledParameter; tools: Set<string> }>();
  for (const entry of entries) {
    const key = `${entry.in}\u0000${entry.name}\u0000${describe?.(entry) ?? ""}`;
    const group = groups.get(key) ?? { entry, tools: new Set<string>() };
    group.tools.add(entry.tool);
    groups.set(key, group);
  }
  return [...groups.values()]
    .sort((a, b) => b.tools.size - a.tools.size || a.entry.name.localeCompare(b.entry.name))
    .map(({ entry, tools }) => {
      const source = describe ? ` from ${describe(entry)}` : "";
      return `${entry.name} (${entry.in}, ${count(tools.size, "tool")})${source}`;
    })
    .join(", ");
}

function describeSource(entry: FilledParameter): string {
  return entry.by === "header" ? "--header" : `the scheme "${entry.scheme}"`;
}

/** How to give each withheld parameter a value, or let the model give it. */
function hintFor(entries: FilledParameter[], schemes: Record<string, SecuritySchemeNode>): string {
  const ways = unique(
    entries.map((entry) => {
      if (entry.in === "header") return `--header "${entry.name}: VALUE"`;
      const scheme = Object.entries(schemes).find(
        ([, node]) => node.type === "apiKey" && node.in === entry.in && node.name === entry.name,
      );
      return scheme ? `--auth ${scheme[0]}=VALUE` : undefined;
    }),
  ).filter((way): way is string => way !== undefined);
  const names = unique(entries.map((entry) => entry.name)).sort((a, b) => {
    const reach = (name: string) => entries.filter((entry) => entry.name === name).length;
    return reach(b) - reach(a) || a.localeCompare(b);
  });
  const allow = `--allow-credential-arguments ${names.join(",")}`;
  return ways.length > 0
    ? `configure ${ways.join(", ")}; or let the model give them with ${allow}`
    : `let the model give them with ${allow}`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
