/**
 * `install` and `uninstall` on copies of real-looking client configuration files
 * (fixtures/client-configs), one table row per client: the entry merges with what is there
 * (other servers and settings kept), a backup keeps the previous bytes, a second install of the
 * same entry changes nothing, a different entry of the same name needs --force, uninstall
 * removes exactly that entry (and VS Code inputs only it used), a malformed file is refused
 * with OMB_CLIENT_CONFIG_INVALID and left byte for byte as it was. Claude Code through its
 * command line is tested with a stand-in `claude` that records what it is asked.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { locateClientConfig } from "../../../src/cli/install/client-paths.js";
import { parseJsonc } from "../../../src/cli/install/jsonc.js";
import { createInstallCommand, createUninstallCommand } from "../../../src/cli/install.js";
import type { McpClient } from "../../../src/generator/codegen/emit/client-entry.js";
import { BridgeError } from "../../../src/model/diagnostics.js";
import { fixture } from "../../helpers/bridge.js";
import { specOfGets } from "../../helpers/many-operations.js";

const SPEC = fixture("..", "examples", "petstore", "openapi.yaml");
const scratch = mkdtempSync(join(tmpdir(), "omb-install-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Outcome {
  error?: BridgeError;
  stdout: string;
  stderr: string;
}

const saved = { ...process.env };
beforeEach(() => {
  process.env["OPENAPI_MCP_CACHE"] = "0";
  delete process.env["OPENAPI_MCP_CLIENT_CONFIG"];
  delete process.env["OPENAPI_MCP_CLAUDE_CLI"];
  process.env["PATH"] = "/usr/bin:/bin"; // a `claude` installed elsewhere on this machine is not used
});
afterEach(() => {
  // The same object, changed back (a new one would no longer be the environment libuv reads HOME from).
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  vi.restoreAllMocks();
});

async function run(make: () => Command, args: string[]): Promise<Outcome> {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    await make().exitOverride().parseAsync(args, { from: "user" });
    return { stdout, stderr };
  } catch (error) {
    if (!(error instanceof BridgeError)) throw error;
    return { error, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

const install = (...args: string[]) => run(createInstallCommand, args);
const uninstall = (...args: string[]) => run(createUninstallCommand, args);

function copyFixture(name: string, as = name): string {
  const dir = mkdtempSync(join(scratch, "case-"));
  const path = join(dir, as);
  copyFileSync(fixture("client-configs", name), path);
  chmodSync(path, 0o640);
  return path;
}

/** `${inner}`: a client's reference to a variable, as it stands in the file. */
const ref = (inner: string) => `\${${inner}}`;

// biome-ignore lint/suspicious/noExplicitAny: the parsed files are read by path in the assertions
function readJson(path: string): Record<string, any> {
  return parseJsonc(readFileSync(path, "utf8")).value as ReturnType<typeof readJson>;
}

function backupsOf(path: string): string[] {
  const dir = join(path, "..");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".bak"))
    .map((f) => join(dir, f));
}

const CLIENTS: {
  client: McpClient;
  file: string;
  key: string;
  type?: string;
  reference?: string;
  profile?: string;
}[] = [
  { client: "claude-desktop", file: "claude-desktop.json", key: "mcpServers", profile: "claude" },
  {
    client: "claude-code",
    file: "claude-code.json",
    key: "mcpServers",
    type: "stdio",
    reference: ref("OPENAPI_MCP_AUTH_APIKEY:-"),
    profile: "claude",
  },
  {
    client: "cursor",
    file: "cursor.json",
    key: "mcpServers",
    reference: ref("env:OPENAPI_MCP_AUTH_APIKEY"),
    profile: "cursor",
  },
  {
    client: "vscode",
    file: "vscode.jsonc",
    key: "servers",
    type: "stdio",
    reference: ref("input:openapi_mcp_auth_apikey"),
  },
  {
    client: "windsurf",
    file: "windsurf.json",
    key: "mcpServers",
    reference: ref("env:OPENAPI_MCP_AUTH_APIKEY"),
  },
];

describe.each(CLIENTS)(
  "install and uninstall for $client",
  ({ client, file, key, type, reference, profile }) => {
    it("merges the entry, keeps a backup, changes nothing the second time, and uninstall takes exactly it out", async () => {
      const path = copyFixture(file);
      const before = readFileSync(path, "utf8");
      const original = readJson(path);

      const first = await install(
        SPEC,
        "--client",
        client,
        "--config",
        path,
        "--read-only",
        "--timeout",
        "5000",
      );
      expect(first.error).toBeUndefined();
      expect(first.stderr).toContain(`added "demo-pet-store"`);
      const written = readJson(path);
      const entry = written[key]["demo-pet-store"];
      expect(entry).toMatchObject({
        ...(type !== undefined ? { type } : {}),
        command: process.execPath,
        args: [
          expect.stringMatching(/cli[/\\]main\.js$/),
          "serve",
          SPEC,
          "--timeout",
          "5000",
          "--read-only",
          ...(profile !== undefined ? ["--profile", profile, "--server-name", "demo-pet-store"] : []),
        ],
      });
      // The credential: the client's reference to the environment, or (Claude Desktop) nothing.
      expect(entry.env).toEqual(reference !== undefined ? { OPENAPI_MCP_AUTH_APIKEY: reference } : {});
      expect(JSON.stringify(written)).not.toContain("demo-secret-key");
      // What was there is still there.
      for (const [name, value] of Object.entries(original[key])) expect(written[key][name]).toEqual(value);
      for (const other of Object.keys(original).filter((k) => k !== key && k !== "inputs")) {
        expect(written[other]).toEqual(original[other]);
      }
      if (client === "vscode") {
        expect(written["inputs"]).toEqual([
          ...original["inputs"],
          expect.objectContaining({ id: "openapi_mcp_auth_apikey", type: "promptString", password: true }),
        ]);
        // Only the entry and its input were added: the comments and the rest stay as they were.
        const text = readFileSync(path, "utf8");
        expect(text).toContain("// Added by hand: the fetch server.");
        expect(text).toContain("/* the token is asked once */");
      }
      if (client === "claude-desktop")
        expect(first.stderr).toContain("Claude Desktop cannot refer to a secret");
      const [backup] = backupsOf(path);
      expect(readFileSync(backup!, "utf8")).toBe(before);
      expect(statSync(path).mode & 0o777).toBe(0o640);

      const again = await install(
        SPEC,
        "--client",
        client,
        "--config",
        path,
        "--read-only",
        "--timeout",
        "5000",
      );
      expect(again.error).toBeUndefined();
      expect(again.stderr).toContain("nothing changed");
      expect(backupsOf(path)).toHaveLength(1);

      const removed = await uninstall("--client", client, "--config", path, "--name", "demo-pet-store");
      expect(removed.error).toBeUndefined();
      expect(readJson(path)).toEqual(original);
      // The file is back to what it was, byte for byte: the edits touched only the entry.
      expect(readFileSync(path, "utf8")).toBe(before);
    });

    it.each(["malformed.json", "servers-not-object.json"])(
      "refuses %s and leaves it untouched",
      async (bad) => {
        const path = copyFixture(bad);
        const before = readFileSync(path);
        for (const outcome of [
          await install(SPEC, "--client", client, "--config", path),
          await uninstall("--client", client, "--config", path, "--name", "memory"),
        ]) {
          expect(outcome.error?.code).toBe("OMB_CLIENT_CONFIG_INVALID");
          expect(outcome.error?.diagnostics[0]?.file).toBe(path);
        }
        if (bad === "malformed.json" && client !== "vscode") {
          const outcome = await install(SPEC, "--client", client, "--config", path);
          expect(outcome.error?.message).toMatch(/not valid JSON at line 3, column \d+/);
        }
        expect(readFileSync(path)).toEqual(before);
        expect(backupsOf(path)).toEqual([]);
      },
    );
  },
);

describe("install", () => {
  it("refuses a different entry of the same name without --force, replaces it with --force", async () => {
    const path = copyFixture("cursor.json");
    await install(SPEC, "--client", "cursor", "--config", path, "--name", "pets");
    const once = readFileSync(path, "utf8");
    const refused = await install(
      SPEC,
      "--client",
      "cursor",
      "--config",
      path,
      "--name",
      "pets",
      "--read-only",
    );
    expect(refused.error?.code).toBe("OMB_CLIENT_ENTRY_EXISTS");
    expect(refused.error?.message).toContain('Cursor already has a server named "pets"');
    expect(readFileSync(path, "utf8")).toBe(once);
    const forced = await install(
      SPEC,
      "--client",
      "cursor",
      "--config",
      path,
      "--name",
      "pets",
      "--read-only",
      "--force",
    );
    expect(forced.stderr).toContain('replaced "pets"');
    expect(readJson(path)["mcpServers"]["pets"].args).toContain("--read-only");
    expect(backupsOf(path).length).toBeGreaterThanOrEqual(1);
  });

  it.each(["constructor", "toString", "__proto__"])(
    "installs and uninstalls a server named %s (a name every object inherits is not 'already there')",
    async (name) => {
      const path = copyFixture("cursor.json", `cursor-${name}.json`);
      const added = await install(SPEC, "--client", "cursor", "--config", path, "--name", name);
      expect(added.error).toBeUndefined();
      expect(Object.hasOwn(readJson(path)["mcpServers"], name)).toBe(true);
      const removed = await uninstall("--client", "cursor", "--config", path, "--name", name);
      expect(removed.error).toBeUndefined();
      expect(Object.hasOwn(readJson(path)["mcpServers"], name)).toBe(false);
    },
  );

  it("writes a credential into the file only with --inline-secrets, and never on the command line", async () => {
    const path = join(mkdtempSync(join(scratch, "case-")), "mcp.json");
    const refused = await install(
      SPEC,
      "--client",
      "windsurf",
      "--config",
      path,
      "--auth",
      "apiKey=s3cr3t-value",
    );
    expect(refused.error?.code).toBe("OMB_CLIENT_INLINE_SECRET");
    expect(existsSync(path)).toBe(false);
    const header = await install(
      SPEC,
      "--client",
      "windsurf",
      "--config",
      path,
      "--header",
      "X-Api-Key: s3cr3t-value",
    );
    expect(header.error?.code).toBe("OMB_CLIENT_INLINE_SECRET");
    const inline = await install(
      SPEC,
      "--client",
      "windsurf",
      "--config",
      path,
      "--auth",
      "apiKey=s3cr3t-value",
      "--inline-secrets",
    );
    expect(inline.error).toBeUndefined();
    const entry = readJson(path)["mcpServers"]["demo-pet-store"];
    expect(entry.env).toEqual({ OPENAPI_MCP_AUTH_APIKEY: "s3cr3t-value" });
    expect(entry.args.join(" ")).not.toContain("s3cr3t");
    expect(statSync(path).mode & 0o777).toBe(0o600); // a new file that may hold a secret
  });

  it("--dry-run prints the entry and writes nothing", async () => {
    const path = join(mkdtempSync(join(scratch, "case-")), "mcp.json");
    const outcome = await install(
      SPEC,
      "--client",
      "vscode",
      "--config",
      path,
      "--dry-run",
      "--name",
      "pets",
    );
    expect(existsSync(path)).toBe(false);
    const preview = JSON.parse(outcome.stdout);
    expect(preview.servers.pets.type).toBe("stdio");
    expect(preview.inputs[0].id).toBe("openapi_mcp_auth_apikey");
    expect(outcome.stderr).toContain("dry run: nothing written");
  });

  it("checks serve options as serve does, and refuses stdin and bad names", async () => {
    const path = join(mkdtempSync(join(scratch, "case-")), "mcp.json");
    expect(
      (await install(SPEC, "--client", "cursor", "--config", path, "--timeout", "soon")).error?.code,
    ).toBe("OMB_OPTION_INVALID");
    expect((await install("-", "--client", "cursor", "--config", path)).error?.code).toBe(
      "OMB_STDIN_CONFLICT",
    );
    expect(
      (await install(SPEC, "--client", "cursor", "--config", path, "--name", "my pets")).error?.code,
    ).toBe("OMB_OPTION_INVALID");
    expect((await install(fixture("nope.yaml"), "--client", "cursor", "--config", path)).error?.code).toBe(
      "OMB_SPEC_NOT_FOUND",
    );
    // What serve refuses at its start is refused before it is written into the client's file.
    const withPassword = await install(
      SPEC,
      "--client",
      "cursor",
      "--config",
      path,
      "--base-url",
      "https://user:hunter2@api.example.test/v1",
    );
    expect(withPassword.error?.code).toBe("OMB_SERVER_URL");
    expect(withPassword.error?.message).toContain("credentials go in --auth, never in the URL");
    expect(withPassword.error?.message).not.toContain("hunter2");
    const typo = await install(SPEC, "--client", "cursor", "--config", path, "--auth", "nosuchscheme=x");
    expect(typo.error?.code).toBe("OMB_AUTH_SCHEME_UNKNOWN");
    expect(existsSync(path)).toBe(false);
  });

  it("takes the file from OPENAPI_MCP_CLIENT_CONFIG, and the user-wide file from HOME", async () => {
    const path = join(mkdtempSync(join(scratch, "case-")), "mcp.json");
    process.env["OPENAPI_MCP_CLIENT_CONFIG"] = path;
    await install(SPEC, "--client", "cursor");
    expect(Object.keys(readJson(path)["mcpServers"])).toEqual(["demo-pet-store"]);
    delete process.env["OPENAPI_MCP_CLIENT_CONFIG"];
    const home = mkdtempSync(join(scratch, "home-"));
    process.env["HOME"] = home;
    process.env["XDG_CONFIG_HOME"] = join(home, "xdg");
    expect((await install(SPEC, "--client", "windsurf")).error).toBeUndefined();
    expect((await install(SPEC, "--client", "vscode")).error).toBeUndefined();
    expect(readJson(join(home, ".codeium", "windsurf", "mcp_config.json"))["mcpServers"]).toHaveProperty(
      "demo-pet-store",
    );
    expect(readJson(join(home, "xdg", "Code", "User", "mcp.json"))["servers"]).toHaveProperty(
      "demo-pet-store",
    );
  });
});

describe("uninstall", () => {
  it("names the servers the file has when the name is not there", async () => {
    const path = copyFixture("windsurf.json");
    const before = readFileSync(path);
    const outcome = await uninstall("--client", "windsurf", "--config", path, "--name", "fecth");
    expect(outcome.error?.code).toBe("OMB_CLIENT_ENTRY_NOT_FOUND");
    expect(outcome.error?.diagnostics[0]?.hint).toBe("the servers there: fetch");
    expect(readFileSync(path)).toEqual(before);
  });
});

describe("Claude Code through its command line", () => {
  function fakeClaude(): { log: string; home: string } {
    const dir = mkdtempSync(join(scratch, "claude-"));
    const log = join(dir, "calls.log");
    const script = join(dir, "claude");
    writeFileSync(
      script,
      [
        "#!/bin/sh",
        `printf '%s\\n' "$*" >> "${log}"`,
        'case "$2" in',
        `  get) [ -f "${dir}/server-$3" ] && exit 0; echo "No MCP server found with name: $3" >&2; exit 1 ;;`,
        `  add-json) printf '%s' "$4" > "${dir}/server-$3" ;;`,
        `  remove) rm "${dir}/server-$3" || exit 1 ;;`,
        "esac",
      ].join("\n"),
    );
    chmodSync(script, 0o755);
    process.env["OPENAPI_MCP_CLAUDE_CLI"] = script;
    const home = mkdtempSync(join(scratch, "home-"));
    process.env["HOME"] = home;
    return { log, home };
  }

  it("adds with `claude mcp add-json --scope user`, refuses a second without --force, removes with `claude mcp remove`", async () => {
    const { log, home } = fakeClaude();
    const added = await install(SPEC, "--client", "claude-code", "--name", "pets");
    expect(added.error).toBeUndefined();
    const calls = () => readFileSync(log, "utf8").trim().split("\n");
    expect(calls()[0]).toBe("mcp get pets");
    const add = calls()[1]!;
    expect(add).toMatch(/^mcp add-json pets \{.*\} --scope user$/);
    const entry = JSON.parse(add.slice("mcp add-json pets ".length, -" --scope user".length));
    expect(entry).toMatchObject({
      type: "stdio",
      command: process.execPath,
      env: { OPENAPI_MCP_AUTH_APIKEY: ref("OPENAPI_MCP_AUTH_APIKEY:-") },
    });
    expect(existsSync(join(home, ".claude.json"))).toBe(false); // the CLI owns that file

    const refused = await install(SPEC, "--client", "claude-code", "--name", "pets", "--read-only");
    expect(refused.error?.code).toBe("OMB_CLIENT_ENTRY_EXISTS");
    const forced = await install(SPEC, "--client", "claude-code", "--name", "pets", "--read-only", "--force");
    expect(forced.error).toBeUndefined();
    expect(calls().slice(3)).toEqual([
      "mcp get pets",
      "mcp remove pets --scope user",
      expect.stringMatching(/^mcp add-json pets .*--read-only.* --scope user$/),
    ]);

    const removed = await uninstall("--client", "claude-code", "--name", "pets");
    expect(removed.error).toBeUndefined();
    expect(calls().at(-1)).toBe("mcp remove pets --scope user");
    const missing = await uninstall("--client", "claude-code", "--name", "pets");
    expect(missing.error?.code).toBe("OMB_CLIENT_ENTRY_NOT_FOUND");
  });
});

describe("locateClientConfig", () => {
  const mac = { platform: "darwin" as const, env: {}, home: "/Users/me" };
  const windows = {
    platform: "win32" as const,
    env: { APPDATA: "C:\\Users\\me\\AppData\\Roaming" },
    home: "C:\\Users\\me",
  };
  const linux = { platform: "linux" as const, env: {}, home: "/home/me" };
  it.each([
    ["claude-desktop", mac, "/Users/me/Library/Application Support/Claude/claude_desktop_config.json"],
    ["claude-desktop", windows, "C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json"],
    ["claude-code", linux, "/home/me/.claude.json"],
    ["claude-code", { ...linux, env: { CLAUDE_CONFIG_DIR: "/cfg" } }, "/cfg/.claude.json"],
    ["claude-code", windows, "C:\\Users\\me\\.claude.json"],
    ["cursor", mac, "/Users/me/.cursor/mcp.json"],
    ["cursor", windows, "C:\\Users\\me\\.cursor\\mcp.json"],
    ["vscode", mac, "/Users/me/Library/Application Support/Code/User/mcp.json"],
    ["vscode", windows, "C:\\Users\\me\\AppData\\Roaming\\Code\\User\\mcp.json"],
    ["vscode", linux, "/home/me/.config/Code/User/mcp.json"],
    ["vscode", { ...linux, env: { XDG_CONFIG_HOME: "/xdg" } }, "/xdg/Code/User/mcp.json"],
    ["windsurf", linux, "/home/me/.codeium/windsurf/mcp_config.json"],
    ["windsurf", windows, "C:\\Users\\me\\.codeium\\windsurf\\mcp_config.json"],
  ] as const)("%s on %o", (client, place, want) => {
    expect(locateClientConfig(client, place)).toBe(want);
  });

  it("says Claude Desktop has no Linux version", () => {
    expect(() => locateClientConfig("claude-desktop", linux)).toThrow(/Claude Desktop has no Linux version/);
  });
});

describe("install takes serve's spec options", () => {
  it("writes --overrides (as an absolute path), --watch, --profile, --output-schemas and --no-validate into the command line", async () => {
    const dir = mkdtempSync(join(scratch, "case-"));
    const path = join(dir, "mcp.json");
    writeFileSync(join(dir, "overrides.yaml"), "listPets:\n  description: All the pets\n");
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const outcome = await install(
        SPEC,
        "--client",
        "vscode",
        "--config",
        path,
        "--overrides",
        "overrides.yaml",
        "--watch",
        "--profile",
        "openai",
        "--output-schemas",
        "--no-validate",
      );
      expect(outcome.error).toBeUndefined();
    } finally {
      process.chdir(cwd);
    }
    const args: string[] = readJson(path)["servers"]["demo-pet-store"].args;
    expect(args.slice(2)).toEqual([
      SPEC,
      "--no-validate",
      "--output-schemas",
      "--overrides",
      join(dir, "overrides.yaml"),
      "--watch",
      "--profile",
      "openai",
      "--server-name",
      "demo-pet-store",
    ]);
  });
});

describe("install warns when the client offers fewer tools than the entry serves", () => {
  it("warns for Cursor past 40 tools with --mode tools, not under auto (it switches), --mode discovery nor for a client without a limit", async () => {
    const dir = mkdtempSync(join(scratch, "case-"));
    const spec = join(dir, "big.json");
    writeFileSync(spec, JSON.stringify(specOfGets(45, "Big", "https://api.example.test")));
    const cursor = await install(
      spec,
      "--client",
      "cursor",
      "--config",
      join(dir, "a.json"),
      "--mode",
      "tools",
    );
    expect(cursor.error).toBeUndefined();
    expect(cursor.stderr).toContain("warning: the entry serves 45 tools, more than 40");
    expect(cursor.stderr).toContain("--mode discovery");
    // Auto (the default) serves discovery past the cursor profile's 40 by itself.
    const auto = await install(spec, "--client", "cursor", "--config", join(dir, "auto.json"));
    expect(auto.error).toBeUndefined();
    expect(auto.stderr).not.toContain("warning");
    const discovery = await install(
      spec,
      "--client",
      "cursor",
      "--config",
      join(dir, "b.json"),
      "--mode",
      "discovery",
    );
    expect(discovery.stderr).not.toContain("warning");
    const few = await install(
      spec,
      "--client",
      "cursor",
      "--config",
      join(dir, "c.json"),
      "--include-tools",
      "getThing1",
    );
    expect(few.stderr).not.toContain("warning");
    const windsurf = await install(spec, "--client", "windsurf", "--config", join(dir, "d.json"));
    expect(windsurf.stderr).not.toContain("warning");
  });
});

describe("VS Code asks for one alternative's credentials", () => {
  it("prompts for the first alternative's scheme only, or the one given with --auth", async () => {
    const dir = mkdtempSync(join(scratch, "case-"));
    const spec = join(dir, "alt.json");
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "Alt", version: "1" },
        servers: [{ url: "https://api.example.test" }],
        security: [{ key: [] }, { token: [] }, { basic: [] }],
        components: {
          securitySchemes: {
            key: { type: "apiKey", in: "header", name: "X-Key" },
            token: { type: "http", scheme: "bearer" },
            basic: { type: "http", scheme: "basic" },
          },
        },
        paths: { "/a": { get: { operationId: "getA", responses: { "200": { description: "ok" } } } } },
      }),
    );
    const first = await install(spec, "--client", "vscode", "--config", join(dir, "a.json"));
    expect(first.error).toBeUndefined();
    expect(readJson(join(dir, "a.json"))["inputs"].map((i: { id: string }) => i.id)).toEqual([
      "openapi_mcp_auth_key",
    ]);
    const chosen = await install(
      spec,
      ...["--client", "vscode", "--config", join(dir, "b.json"), "--auth", "token=t0k", "--inline-secrets"],
    );
    expect(chosen.error).toBeUndefined();
    const written = readJson(join(dir, "b.json"));
    expect(written["inputs"] ?? []).toEqual([]);
    expect(written["servers"]["alt"].env).toEqual({ OPENAPI_MCP_AUTH_TOKEN: "t0k" });
  });
});
