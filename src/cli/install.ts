/**
 * `install SPEC --client C`: the bridge for a spec added to an MCP client's configuration, so
 * the client starts `serve` over stdio with the options given; `uninstall --client C --name N`
 * removes exactly that entry. The serve options are the option table's (those that mean
 * something over stdio), checked as `serve` checks them. Credentials never go into the file
 * unless asked (--inline-secrets): each security scheme of the spec gets its variable
 * (OPENAPI_MCP_AUTH_<SCHEME>) as the client's reference to the environment, or VS Code's
 * password prompt (client-entry.ts). The client starts the bridge as `node <this CLI>`, by
 * absolute paths, so it works whatever PATH the client has (GUI apps on macOS have little).
 */
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Command, Option } from "commander";
import {
  MCP_CLIENTS,
  type McpClient,
  type StdioServer,
  toClientEntry,
} from "../generator/codegen/emit/client-entry.js";
import { toPackageName } from "../generator/codegen/emit/names.js";
import { credentialVariables } from "../generator/codegen/emit/project.js";
import {
  formatPlanFlag,
  listPlanOptionKeys,
  PLAN_OPTIONS,
  type PlanOptionSpec,
} from "../generator/compile/plan-option-table.js";
import { type ClientProfile, DEFAULT_CLIENT_PROFILE, toolCountLimit } from "../generator/compile/profile.js";
import { failWith } from "../model/diagnostics.js";
import { selectToolsChecked } from "../runtime/access/select.js";
import { toClientEnvNames, toCredentialEnvName } from "../runtime/auth/credentials.js";
import { isCredentialHeader } from "../runtime/auth/secret-forms.js";
import { readAuthSettings } from "../runtime/config/auth-settings.js";
import { checkStart } from "../runtime/config/check-start.js";
import { getOptionSpec, OPTION_KEYS, OPTION_TABLE, type OptionKey } from "../runtime/config/option-table.js";
import { type RawFlags, readSettings } from "../runtime/config/read-settings.js";
import { readServerVariables, toToolSelection } from "../runtime/config/to-options.js";
import {
  addClientEntry,
  type ClientTarget,
  type ConfigChange,
  labelClient,
  removeClientEntry,
} from "./install/client-config.js";
import { addSpecOptions, readModelOrSpec, type SpecFlags } from "./options.js";
import { addTableOptions, readTableFlags } from "./table-options.js";

/** serve's options that mean something to a server a client starts over stdio. */
const INSTALL_KEYS: OptionKey[] = OPTION_KEYS.filter(
  (key) => key !== "transport" && OPTION_TABLE[key].transports !== "http",
);
const HELP = "`openapi-mcp-bridge install --help`";
/** serve's spec options (plan-option-table.ts): written onto the command line the client runs. */
const SPEC_KEYS = listPlanOptionKeys("load", "plan", "model");
/** This CLI, as the client will start it. */
const CLI_MAIN = fileURLToPath(new URL("./main.js", import.meta.url));
/** The client profile (names and schemas adapted to its limits) each client gets. */
const PROFILES: Partial<Record<McpClient, ClientProfile>> = {
  "claude-desktop": "claude",
  "claude-code": "claude",
  cursor: "cursor",
};

interface TargetFlags {
  client: McpClient;
  name?: string;
  config?: string;
  dryRun?: boolean;
}

interface InstallFlags extends TargetFlags, Omit<SpecFlags, "profile"> {
  profile?: string;
  watch?: boolean;
  force?: boolean;
  inlineSecrets?: boolean;
}

function addTargetOptions(command: Command): Command {
  return command
    .addOption(new Option("--client <client>", "the MCP client").choices(MCP_CLIENTS).makeOptionMandatory())
    .option(
      "--config <file>",
      "the client's configuration file instead of its user-wide one (also OPENAPI_MCP_CLIENT_CONFIG): a project's .mcp.json, .cursor/mcp.json or .vscode/mcp.json",
    )
    .option("--dry-run", "print what would be written and write nothing");
}

function toTarget(flags: TargetFlags, name: string): ClientTarget {
  const configPath = flags.config ?? (process.env["OPENAPI_MCP_CLIENT_CONFIG"] || undefined);
  return {
    client: flags.client,
    name,
    ...(configPath !== undefined ? { configPath: resolve(configPath) } : {}),
    place: { platform: process.platform, env: process.env, home: homedir() },
    dryRun: flags.dryRun === true,
  };
}

export function createInstallCommand(): Command {
  const command = addTargetOptions(
    new Command("install")
      .description(
        "add the bridge for a spec to an MCP client's configuration (claude-desktop, claude-code, cursor, vscode, windsurf)",
      )
      .argument("<spec>", "spec file, http(s) URL, or a model file saved by `model`"),
  )
    .option("--name <name>", "the server's name in the client (default: from the spec's title)")
    .option("--force", "replace a different entry of the same name (a backup of the file is kept)")
    .option(
      "--inline-secrets",
      "write --auth values and credential --header values into the configuration file (by default the entry refers to environment variables or, in VS Code, asks for them)",
    );
  addTableOptions(command, INSTALL_KEYS, { env: false });
  addSpecOptions(command);
  command.option(
    "--watch",
    "the bridge reloads the spec when it changes and tells the client (see Hot reload)",
  );
  return command.action(async (spec: string, flags: InstallFlags) => {
    const raw = readTableFlags(flags, INSTALL_KEYS);
    const settings = readSettings(raw, {}, { help: HELP, keys: INSTALL_KEYS }); // a bad value fails here, as in serve
    if (spec === "-") {
      failWith(
        "OMB_STDIN_CONFLICT",
        "install -: the client starts the bridge later, with no spec on its standard input",
        {
          hint: "save the spec to a file and install that",
        },
      );
    }
    const source = /^https?:\/\//i.test(spec) || isAbsolute(spec) ? spec : resolve(spec);
    const { profile: _profile, ...specFlags } = flags;
    const model = await readModelOrSpec(source, specFlags as SpecFlags); // the spec must load now, not when the client starts it
    // What serve would refuse at start (a password in --base-url, a typo'd scheme...) is refused
    // now, before it is written into the client's configuration.
    checkStart({
      model,
      tools: model.tools,
      settings,
      auth: await readAuthSettings(settings, {}),
      env: {},
      serverVariables: { ...readServerVariables(model, {}), ...settings.serverVar },
    });
    const name = flags.name ?? toPackageName(model.info.title);
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
      failWith("OMB_OPTION_INVALID", `--name: "${name}" is not a server name`, {
        hint: "use 1 to 64 letters, digits, '_', '.' or '-'",
      });
    }
    const server = toStdioServer(source, raw, model, flags, name);
    const entry = toClientEntry(flags.client, server);
    const target = toTarget(flags, name);
    const change = await addClientEntry(target, entry, flags.force === true);
    report(change, target, `"${name}"`);
    warnToolCount(model, settings, givenProfile(flags) ?? PROFILES[flags.client]);
    if (change.outcome === "dry-run" || change.outcome === "unchanged") return;
    noteCredentials(flags.client, server, entry.omitted);
  });
}

export function createUninstallCommand(): Command {
  return addTargetOptions(
    new Command("uninstall").description(
      "remove a server that `install` added from an MCP client's configuration",
    ),
  )
    .requiredOption("--name <name>", "the server's name in the client")
    .action(async (flags: TargetFlags & { name: string }) => {
      const target = toTarget(flags, flags.name);
      const change = await removeClientEntry(target, flags.client === "vscode" ? "servers" : "mcpServers");
      report(change, target, `"${flags.name}"`);
    });
}

/** The command line the client runs, and the secrets it needs, from the flags given. */
function toStdioServer(
  source: string,
  raw: RawFlags,
  model: Awaited<ReturnType<typeof readModelOrSpec>>,
  flags: InstallFlags,
  name: string,
): StdioServer {
  const args = [CLI_MAIN, "serve", source];
  const given = new Map<string, string>(); // credential variable → value from --auth
  const oauthSecrets: string[] = [];
  for (const key of INSTALL_KEYS) {
    const spec = getOptionSpec(key);
    for (const value of raw[spec.flag] ?? []) {
      if (key === "auth") {
        const at = value.indexOf("=");
        given.set(toCredentialEnvName(value.slice(0, at)), value.slice(at + 1));
        continue; // into the environment, never the command line
      }
      if (
        key === "header" &&
        isCredentialHeader(value.split(":")[0]!.trim()) &&
        flags.inlineSecrets !== true
      ) {
        refuseInline(`--header ${value.split(":")[0]!.trim()}`, flags.client);
      }
      if (key === "oauthClient")
        oauthSecrets.push(toClientEnvNames(value.slice(0, value.indexOf("="))).secret);
      args.push(`--${spec.flag}`, ...(spec.placeholder === undefined ? [] : [value]));
    }
  }
  if (given.size > 0 && flags.inlineSecrets !== true) refuseInline("--auth", flags.client);
  args.push(...toSpecArgs(flags));
  if (flags.watch === true) args.push("--watch");
  const profile = givenProfile(flags) ?? PROFILES[flags.client];
  if (profile !== undefined && profile !== DEFAULT_CLIENT_PROFILE)
    args.push("--profile", profile, ...(flags.serverName === undefined ? ["--server-name", name] : []));
  const asked = flags.client === "vscode" ? chooseSchemes(model, [...given.keys()]) : undefined;
  const variables = credentialVariables(model).filter(
    (c) => asked === undefined || asked.has(c.scheme) || given.has(c.env),
  );
  const secrets: StdioServer["secrets"] = variables.map((c) => ({
    env: c.env,
    description: `Credential for the ${c.scheme} security scheme of ${model.info.title}`,
    ...(given.has(c.env) ? { value: given.get(c.env)! } : {}),
  }));
  for (const [env, value] of given) {
    if (!secrets.some((s) => s.env === env)) secrets.push({ env, description: "Credential", value });
  }
  for (const env of oauthSecrets) secrets.push({ env, description: "OAuth2 client secret" });
  return { command: process.execPath, args, env: {}, secrets };
}

/** The spec options given (those that differ from their defaults), files as absolute paths. */
function toSpecArgs(flags: InstallFlags): string[] {
  const args: string[] = [];
  for (const key of SPEC_KEYS) {
    const spec: PlanOptionSpec = PLAN_OPTIONS[key];
    const value = (flags as unknown as Record<string, unknown>)[key];
    if (key === "profile" || value === undefined || value === spec.default) continue;
    const flag = formatPlanFlag(spec, () => "").trim();
    if (spec.value.kind === "switch") args.push(flag);
    else if (spec.value.kind === "paths")
      for (const path of value as string[]) args.push(flag, resolve(path));
    else if (spec.value.kind === "path") args.push(flag, resolve(String(value)));
    else args.push(flag, String(value));
  }
  return args;
}

/**
 * A warning when the client offers its model fewer tools than the entry serves (Cursor: about
 * 40) and `--mode tools` was asked for: auto switches to discovery there by itself.
 */
function warnToolCount(
  model: Awaited<ReturnType<typeof readModelOrSpec>>,
  settings: ReturnType<typeof readSettings>,
  profile: ClientProfile | undefined,
): void {
  const limit = profile === undefined ? undefined : toolCountLimit(profile);
  // Auto (the default) serves discovery past the profile's limit itself (runtime/discovery/mode.ts).
  if (limit === undefined || settings.mode !== "tools") return;
  const count = selectToolsChecked(model.tools, toToolSelection(settings), HELP).tools.length;
  if (count <= limit.limit) return;
  process.stderr.write(
    `openapi-mcp-bridge: warning: the entry serves ${count} tools, more than ${limit.limit} (${limit.why}): add --mode discovery (three tools that search, describe and call them), or select fewer (--include-tags, --include-tools, --methods, --read-only)\n`,
  );
}

/**
 * The schemes VS Code asks for: of each operation's alternatives (any one is enough), the first
 * that uses a scheme given with --auth, else its first; undefined when no operation needs one.
 */
function chooseSchemes(
  model: Awaited<ReturnType<typeof readModelOrSpec>>,
  givenEnv: string[],
): Set<string> | undefined {
  const chosen = new Set<string>();
  for (const tool of model.tools) {
    const alternatives = tool.http.security.filter((a) => Object.keys(a).length > 0);
    if (alternatives.length === 0 || tool.http.security.some((a) => Object.keys(a).length === 0)) continue;
    const pick =
      alternatives.find((a) =>
        Object.keys(a).some((scheme) => givenEnv.includes(toCredentialEnvName(scheme))),
      ) ?? alternatives[0]!;
    for (const scheme of Object.keys(pick)) chosen.add(scheme);
  }
  return chosen.size === 0 ? undefined : chosen;
}

/** `--profile` when given (commander fills in the default otherwise). */
function givenProfile(flags: InstallFlags): ClientProfile | undefined {
  return flags.profile === undefined || flags.profile === DEFAULT_CLIENT_PROFILE
    ? undefined
    : (flags.profile as ClientProfile);
}

function refuseInline(what: string, client: McpClient): never {
  return failWith(
    "OMB_CLIENT_INLINE_SECRET",
    `${what} would write a credential into ${labelClient(client)}'s configuration file in plain text`,
    {
      hint: "leave it out: the entry refers to OPENAPI_MCP_AUTH_<SCHEME> in the environment (VS Code asks for it); or pass --inline-secrets to write it anyway",
    },
  );
}

function report(change: ConfigChange, target: ClientTarget, what: string): void {
  const client = labelClient(target.client);
  const lines: string[] = [];
  switch (change.outcome) {
    case "dry-run":
      process.stdout.write(`${change.preview}\n`);
      lines.push(`dry run: nothing written; this is what ${change.where} would get`);
      break;
    case "unchanged":
      lines.push(`${client} already has ${what} as asked (${change.where}); nothing changed`);
      break;
    default:
      lines.push(
        `${change.outcome} ${what} ${change.outcome === "removed" ? "from" : "in"} ${client}'s configuration: ${change.where}`,
      );
      if (change.backup !== undefined) lines.push(`backup of the previous file: ${change.backup}`);
      if (change.outcome !== "removed")
        lines.push(`restart ${client} (or reload its MCP servers) to start it`);
  }
  process.stderr.write(lines.map((line) => `openapi-mcp-bridge: ${line}\n`).join(""));
}

/** Where each credential the entry does not hold will come from. */
function noteCredentials(client: McpClient, server: StdioServer, omitted: string[]): void {
  const referred = server.secrets
    .filter((s) => s.value === undefined && !omitted.includes(s.env))
    .map((s) => s.env);
  const lines: string[] = [];
  if (referred.length > 0) {
    lines.push(
      client === "vscode"
        ? `VS Code asks for ${referred.join(", ")} when it first starts the server, and keeps the answers`
        : `the entry reads ${referred.join(", ")} from the environment ${labelClient(client)} starts in: set ${referred.length === 1 ? "it" : "them"} there (e.g. in your shell profile)`,
    );
  }
  if (omitted.length > 0) {
    lines.push(
      `Claude Desktop cannot refer to a secret, so the entry has no ${omitted.join(", ")}: add --auth SCHEME=VALUE --inline-secrets --force to write it into the file, or --auth-config FILE to read it from a file of yours`,
    );
  }
  process.stderr.write(lines.map((line) => `openapi-mcp-bridge: ${line}\n`).join(""));
}
