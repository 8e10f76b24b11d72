/**
 * Adding and removing one server entry in a client's configuration: in its file (only that
 * entry and its VS Code inputs edited in the file's text, so every other byte, comments and
 * layout included, stays; a backup kept; nothing written when the entry is already as wanted),
 * or through `claude mcp` for Claude Code where that command exists.
 */
import type { ClientEntry, ClientInput, McpClient } from "../../generator/codegen/emit/client-entry.js";
import { failWith } from "../../model/diagnostics.js";
import { isRecord as isObject } from "../../model/records.js";
import { findClaudeCli, formatClaudeCommand, runClaude } from "./claude-cli.js";
import { type ClientPlace, locateClientConfig } from "./client-paths.js";
import { type ConfigDocument, readConfigDocument, readServers, writeConfigDocument } from "./config-file.js";
import { setJsoncMember } from "./jsonc.js";

export interface ClientTarget {
  client: McpClient;
  /** The server's name in the client. */
  name: string;
  /** `--config` or OPENAPI_MCP_CLIENT_CONFIG: this file instead of the client's own (and never its CLI). */
  configPath?: string;
  place: ClientPlace;
  dryRun: boolean;
}

/** What was done, for the lines `install`/`uninstall` print. */
export interface ConfigChange {
  /** The file written (or that would be), or the command run. */
  where: string;
  outcome: "added" | "replaced" | "unchanged" | "removed" | "dry-run";
  backup?: string;
  /** What would be written (--dry-run): the servers entry, VS Code's inputs, or the commands. */
  preview?: string;
}

const LABELS: Record<McpClient, string> = {
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  vscode: "VS Code",
  windsurf: "Windsurf",
};

export function labelClient(client: McpClient): string {
  return LABELS[client];
}

/** The file the target names, or the client's own. */
export function resolveConfigPath(target: ClientTarget): string {
  return target.configPath ?? locateClientConfig(target.client, target.place);
}

function claudeCliOf(target: ClientTarget): string | undefined {
  return target.client === "claude-code" && target.configPath === undefined
    ? findClaudeCli(target.place.env)
    : undefined;
}

/** Adds `wanted` under the target's name; refuses a different entry of that name unless `force`. */
export async function addClientEntry(
  target: ClientTarget,
  wanted: ClientEntry,
  force: boolean,
): Promise<ConfigChange> {
  const cli = claudeCliOf(target);
  if (cli !== undefined) return addThroughClaudeCli(cli, target, wanted, force);
  const doc = readConfigDocument(resolveConfigPath(target), { relaxed: target.client === "vscode" });
  const servers = readServers(doc, wanted.serversKey);
  const inputs = readInputs(doc);
  const existing = findEntry(servers, target.name);
  const mergedInputs = mergeInputs(inputs, wanted.inputs);
  const same = existing !== undefined && sameJson(existing, wanted.entry) && sameJson(inputs, mergedInputs);
  if (same) return { where: doc.path, outcome: "unchanged" };
  if (existing !== undefined && !force) failExists(target, doc.path);
  const preview = JSON.stringify(
    {
      ...(wanted.inputs.length > 0 ? { inputs: wanted.inputs } : {}),
      [wanted.serversKey]: { [target.name]: wanted.entry },
    },
    null,
    2,
  );
  if (target.dryRun) return { where: doc.path, outcome: "dry-run", preview };
  let content: Record<string, unknown> | string;
  if (doc.text === undefined || doc.text.trim() === "") {
    content = { [wanted.serversKey]: { [target.name]: wanted.entry } };
    if (mergedInputs.length > 0) content["inputs"] = mergedInputs;
  } else {
    let text = setJsoncMember(doc.text, [wanted.serversKey, target.name], wanted.entry);
    let count = inputs.length;
    for (const input of wanted.inputs) {
      const index = inputs.findIndex((i) => i.id === input.id);
      if (index === -1) text = setJsoncMember(text, ["inputs", count++], input);
      else if (!sameJson(inputs[index], input)) text = setJsoncMember(text, ["inputs", index], input);
    }
    content = text;
  }
  const backup = writeConfigDocument(doc, content);
  return {
    where: doc.path,
    outcome: existing === undefined ? "added" : "replaced",
    ...(backup !== undefined ? { backup } : {}),
  };
}

/** Removes the target's entry (and VS Code inputs no other entry refers to). */
export async function removeClientEntry(target: ClientTarget, serversKey: string): Promise<ConfigChange> {
  const cli = claudeCliOf(target);
  if (cli !== undefined) {
    const found = await runClaude(cli, ["mcp", "get", target.name], { allowFailure: true });
    if (found.code !== 0) failNotFound(target, "claude mcp (user scope)", undefined);
    const args = ["mcp", "remove", target.name, "--scope", "user"];
    if (target.dryRun)
      return { where: formatClaudeCommand(args), outcome: "dry-run", preview: formatClaudeCommand(args) };
    await runClaude(cli, args);
    return { where: formatClaudeCommand(args), outcome: "removed" };
  }
  const doc = readConfigDocument(resolveConfigPath(target), { relaxed: target.client === "vscode" });
  const servers = readServers(doc, serversKey);
  if (findEntry(servers, target.name) === undefined) failNotFound(target, doc.path, Object.keys(servers));
  const { [target.name]: removed, ...others } = servers;
  let text = setJsoncMember(doc.text ?? "{}", [serversKey, target.name], undefined);
  if (Array.isArray(doc.data["inputs"])) {
    const stillUsed = JSON.stringify(others);
    const removedText = JSON.stringify(removed);
    const inputs = readInputs(doc);
    // From the last, so that each index still names the input it named.
    for (let index = inputs.length - 1; index >= 0; index--) {
      const reference = `\${input:${inputs[index]!.id}}`;
      if (removedText.includes(reference) && !stillUsed.includes(reference))
        text = setJsoncMember(text, ["inputs", index], undefined);
    }
  }
  if (target.dryRun) return { where: doc.path, outcome: "dry-run", preview: text };
  const backup = writeConfigDocument(doc, text);
  return {
    where: doc.path,
    outcome: "removed",
    ...(backup !== undefined ? { backup } : {}),
  };
}

async function addThroughClaudeCli(
  cli: string,
  target: ClientTarget,
  wanted: ClientEntry,
  force: boolean,
): Promise<ConfigChange> {
  const found = await runClaude(cli, ["mcp", "get", target.name], { allowFailure: true });
  const existing = found.code === 0 ? readClaudeUserEntry(target) : undefined;
  if (found.code === 0 && existing !== undefined && sameJson(existing, wanted.entry)) {
    return { where: "claude mcp (user scope)", outcome: "unchanged" };
  }
  if (found.code === 0 && !force) failExists(target, "claude mcp (user scope)");
  const commands = [
    ...(found.code === 0 ? [["mcp", "remove", target.name, "--scope", "user"]] : []),
    ["mcp", "add-json", target.name, JSON.stringify(wanted.entry), "--scope", "user"],
  ];
  const where = formatClaudeCommand(commands.at(-1)!);
  if (target.dryRun)
    return { where, outcome: "dry-run", preview: commands.map(formatClaudeCommand).join("\n") };
  for (const args of commands) await runClaude(cli, args);
  return { where, outcome: found.code === 0 ? "replaced" : "added" };
}

/** The user-scope entry in ~/.claude.json, to tell "already installed" from "another server"; undefined when unreadable. */
function readClaudeUserEntry(target: ClientTarget): unknown {
  try {
    const doc = readConfigDocument(locateClientConfig("claude-code", target.place), { relaxed: false });
    return findEntry(readServers(doc, "mcpServers"), target.name);
  } catch {
    return undefined;
  }
}

function readInputs(doc: ConfigDocument): ClientInput[] {
  const inputs = doc.data["inputs"] ?? [];
  if (!Array.isArray(inputs) || !inputs.every(isObject)) {
    return failWith(
      "OMB_CLIENT_CONFIG_INVALID",
      '"inputs" is not an array of objects: the file was left untouched',
      {
        file: doc.path,
        pointer: "/inputs",
        hint: 'make "inputs" an array of input objects, then run the command again',
      },
    );
  }
  return inputs as unknown as ClientInput[];
}

/** `current` with `wanted` in it: an input of the same id replaced, new ones appended. */
function mergeInputs(current: ClientInput[], wanted: ClientInput[]): ClientInput[] {
  const merged = current.map((input) => wanted.find((w) => w.id === input.id) ?? input);
  for (const input of wanted) if (!current.some((c) => c.id === input.id)) merged.push(input);
  return merged;
}

/** The server entry named `name`: its own key only (a name such as "constructor" is not inherited). */
function findEntry(servers: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(servers, name) ? servers[name] : undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function failExists(target: ClientTarget, where: string): never {
  return failWith(
    "OMB_CLIENT_ENTRY_EXISTS",
    `${labelClient(target.client)} already has a server named "${target.name}" that differs from this one; nothing was written`,
    {
      file: where,
      hint: `--dry-run shows the new entry; choose another --name, or pass --force to replace it${where.startsWith("claude mcp") ? "" : " (a backup of the file is kept)"}`,
    },
  );
}

function failNotFound(target: ClientTarget, where: string, names: string[] | undefined): never {
  return failWith(
    "OMB_CLIENT_ENTRY_NOT_FOUND",
    `${labelClient(target.client)} has no server named "${target.name}"; nothing was changed`,
    {
      file: where,
      hint:
        names === undefined
          ? "`claude mcp list` shows the names it has"
          : names.length > 0
            ? `the servers there: ${names.join(", ")}`
            : "it lists no server at all: check --client and --config",
    },
  );
}
