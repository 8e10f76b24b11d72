/**
 * The MCP Inspector's CLI mode (`inspector --cli`, non-interactive, one method per run, JSON
 * on stdout) against `serve` in each of its protocol eras (legacy, auto, modern), over stdio and
 * over Streamable HTTP (sessionful and --stateless): tools/list, then a tools/call that must
 * reach the recording upstream. What the Inspector sent is recorded on the way (a stdio
 * pass-through, an HTTP proxy), so each case also checks the protocol revision it spoke.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startHttpRecorder } from "./http-recorder.mjs";
import { startServer } from "./targets.mjs";

export const ERAS = ["legacy", "auto", "modern"];

/** The revision each era must end up speaking with the bridge, which serves both. */
const SPOKEN = { legacy: "2025-11-25", auto: "2026-07-28", modern: "2026-07-28" };

const TOOL_NAMES = ["createPet", "deletePet", "getPetById", "listPets"];

/** Runs the Inspector CLI once; resolves to { code, stdout, stderr, json }. */
function runInspector({ tools, home, args, timeoutMs = 60_000 }) {
  const env = {
    ...process.env,
    HOME: home,
    MCP_CATALOG_PATH: join(home, "mcp.json"),
    MCP_CLIENT_CONFIG_PATH: join(home, "client.json"),
    NO_COLOR: "1",
  };
  const child = spawn(tools.node, [tools.inspector, "--cli", ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      let json;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: signal ?? code, stdout, stderr, json });
    });
  });
}

/**
 * The revision a client spoke, from the messages it sent: a 2026-07-28 request carries it in
 * `_meta`; a 2025 session names it in `initialize` (and, over HTTP, in the header).
 */
function readSpokenRevision(messages) {
  const call = messages.find(
    ({ message }) => message?.method === "tools/call" || message?.method === "tools/list",
  );
  const perRequest = call?.message.params?._meta?.["io.modelcontextprotocol/protocolVersion"];
  if (perRequest) return { revision: perRequest, how: "per-request _meta" };
  const initialize = messages.find(({ message }) => message?.method === "initialize");
  if (initialize) return { revision: initialize.message.params?.protocolVersion, how: "initialize" };
  return { revision: undefined, how: "neither initialize nor _meta seen" };
}

/** Fails with the Inspector's own output when a condition does not hold. */
function expectThat(condition, what, result) {
  if (!condition) {
    const out = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${what}; the Inspector exited ${result.code}:\n${out}`);
  }
}

/**
 * One era over one transport: tools/list, then tools/call getPetById {petId: 1}. `connect()` gives
 * the Inspector's target arguments for one run and `recorded()`, what the client sent in it.
 */
async function checkEra({ tools, home, era, connect, upstream }) {
  const common = ["--protocol-era", era, "--format", "json", "--connect-timeout", "20000"];
  const listVia = connect();
  const list = await runInspector({
    tools,
    home,
    args: [...common, "--method", "tools/list", ...listVia.target],
  });
  expectThat(
    list.code === 0 && Array.isArray(list.json?.result?.tools),
    "tools/list gave no tool list",
    list,
  );
  const names = list.json.result.tools.map((tool) => tool.name).sort();
  expectThat(names.join() === TOOL_NAMES.join(), `tools/list listed ${names.join(", ")}`, list);
  const listSpoke = readSpokenRevision(listVia.recorded());

  const before = upstream.received.length;
  const callVia = connect();
  const callArgs = ["--method", "tools/call", "--tool-name", "getPetById", "--tool-args-json", '{"petId":1}'];
  const call = await runInspector({ tools, home, args: [...common, ...callArgs, ...callVia.target] });
  const result = call.json?.result;
  expectThat(call.code === 0 && result && !result.isError, "tools/call getPetById did not succeed", call);
  expectThat(
    JSON.stringify(result).includes('"Rex"'),
    "tools/call getPetById did not return pet 1 (Rex)",
    call,
  );
  const reached = upstream.received.slice(before);
  expectThat(reached.includes("GET /pets/1"), `the upstream got ${reached.join(", ") || "nothing"}`, call);
  const callSpoke = readSpokenRevision(callVia.recorded());
  for (const spoke of [listSpoke, callSpoke]) {
    if (spoke.revision !== SPOKEN[era]) {
      throw new Error(
        `--protocol-era ${era} spoke ${spoke.revision ?? "?"} (${spoke.how}), expected ${SPOKEN[era]}`,
      );
    }
  }
  return `tools/list: ${names.length} tools; tools/call reached GET /pets/1; spoke ${callSpoke.revision} (${callSpoke.how})`;
}

/**
 * Every era over stdio, HTTP and HTTP --stateless against `serve` on spec. Resolves to one
 * { name, ok, detail, ms } per case; never throws for a failed case.
 */
export async function checkInspector({ tools, root, spec, upstream, scratch }) {
  const home = join(scratch, "inspector-home");
  mkdirSync(home, { recursive: true });
  const cli = join(root, "dist", "cli", "main.js");
  const cases = [];
  const runCase = async (name, body) => {
    const started = Date.now();
    try {
      cases.push({ name, ok: true, detail: await body(), ms: Date.now() - started });
    } catch (error) {
      cases.push({
        name,
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
        ms: Date.now() - started,
      });
    }
  };

  let runs = 0;
  for (const era of ERAS) {
    const connect = () => {
      runs += 1;
      const log = join(scratch, `inspector-stdio-${runs}.jsonl`);
      const recorder = join(root, "test", "conformance", "stdio-recorder.mjs");
      const bridge = [cli, "serve", spec, "--base-url", upstream.url];
      return {
        target: ["--", process.execPath, recorder, log, process.execPath, ...bridge],
        recorded: () => readRecordedLines(log),
      };
    };
    await runCase(`inspector --protocol-era ${era}, stdio`, () =>
      checkEra({ tools, home, era, upstream, connect }),
    );
  }

  for (const flags of [[], ["--stateless"]]) {
    const label = flags.length > 0 ? "HTTP --stateless" : "HTTP";
    let server;
    let proxy;
    try {
      server = await startServer({
        command: process.execPath,
        args: [
          cli,
          "serve",
          spec,
          "--transport",
          "http",
          "--port",
          "0",
          "--base-url",
          upstream.url,
          ...flags,
        ],
        cwd: root,
      });
      proxy = await startHttpRecorder(server.endpoint);
      for (const era of ERAS) {
        await runCase(`inspector --protocol-era ${era}, ${label}`, () =>
          checkEra({
            tools,
            home,
            era,
            upstream,
            connect: () => {
              proxy.messages.splice(0);
              return { target: [proxy.endpoint], recorded: () => proxy.messages.splice(0) };
            },
          }),
        );
      }
    } catch (error) {
      cases.push({ name: `inspector, ${label}`, ok: false, detail: String(error), ms: 0 });
    } finally {
      await proxy?.close();
      await server?.stop();
    }
  }
  return cases;
}

/** The messages a stdio client sent, as stdio-recorder.mjs wrote them (none if it never ran). */
function readRecordedLines(log) {
  let text = "";
  try {
    text = readFileSync(log, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      try {
        return { message: JSON.parse(line) };
      } catch {
        return { message: null };
      }
    });
}
