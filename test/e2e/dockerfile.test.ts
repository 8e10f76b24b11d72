/**
 * The Dockerfile. With a container runtime (`docker info` answers), the image is built and
 * run. Without one (this project's machines and CI have the docker CLI but no engine), its
 * commands are run here, stage by stage, each stage in its own folder standing for its file
 * system (container paths in the commands are rewritten to it):
 *
 *   build    the COPY sources are copied from the repository (each must exist and not be
 *            excluded by .dockerignore), `npm ci` is this checkout's own (node_modules linked:
 *            the same lockfile, installed by CI's `npm ci`), the rest of its RUN runs as written
 *            (`npm pack`). CI passes the tarball the packed-install check already made with the
 *            same command (OMB_PACKED_TARBALL) instead of packing twice.
 *   install  its RUN as written: the tarball installed without dev or optional dependencies
 *   final    the image's ENV, a non-root USER, its ENTRYPOINT + CMD started with the example
 *            spec where docs/serve.md mounts it (/spec), HEALTHCHECK's command, GET /healthz and
 *            an MCP session over Streamable HTTP calling the example API (options from -e
 *            variables, as `docker run -e` gives them; the port is a free one), and the
 *            Prometheus metrics (OPENAPI_MCP_METRICS_PORT) counting that call.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { isAbsolute, join, posix } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/bridge.js";

const run = promisify(execFile);

interface Instruction {
  op: string;
  text: string;
}
interface Stage {
  name: string;
  from: string;
  steps: Instruction[];
}

/** Stages and instructions of a Dockerfile: comments dropped, continuation lines joined, ARG defaults applied to FROM. */
function parseDockerfile(text: string): Stage[] {
  const logical = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op = "", rest = ""] = /^\s*(\w+)\s+(.*)$/.exec(line) ?? [];
    const upper = op.toUpperCase();
    if (upper === "ARG" && stages.length === 0) {
      const [name, value = ""] = rest.split("=");
      args[name!.trim()] = value.trim();
    } else if (upper === "FROM") {
      const [image = "", , name] = rest.replace(/\$\{(\w+)\}/g, (_, a: string) => args[a] ?? "").split(/\s+/);
      stages.push({ name: name ?? String(stages.length), from: image, steps: [] });
    } else {
      stages.at(-1)!.steps.push({ op: upper, text: rest.trim() });
    }
  }
  return stages;
}

/** `KEY=value KEY2=value2` (ENV's form) as an object. */
function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^"|"$/g, "")]),
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

async function hasContainerRuntime(): Promise<boolean> {
  try {
    await run("docker", ["info"], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const stages = parseDockerfile(dockerfile);
const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8").split("\n").filter(Boolean);
const scratch = mkdtempSync(join(tmpdir(), "omb-dockerfile-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  rmSync(scratch, { recursive: true, force: true }); // the symlinked node_modules is unlinked, not followed
}, 180_000);

interface Petstore {
  DEMO_API_KEY: string;
  startPetstore(): Promise<{ url: string; close(): Promise<void> }>;
}

/**
 * GET /healthz, then an MCP session that lists the tools and calls the example API, then the
 * Prometheus metrics (OPENAPI_MCP_METRICS_PORT, bound to 0.0.0.0 by the image) count that call.
 */
async function checkServing(port: number, api: { url: string }, metricsPort: number): Promise<void> {
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(health.status).toBe(200);
  const client = new Client({ name: "dockerfile-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("getPetById");
    const result = await client.callTool({ name: "getPetById", arguments: { petId: 1 } });
    expect(JSON.stringify(result.content)).toContain("Rex");
  } finally {
    await client.close();
  }
  const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  expect(metrics).toMatch(/^omb_tool_calls_total\{tool="getPetById",mode="tools",outcome="ok"[^}]*\} 1$/m);
  void api;
}

async function waitForHealth(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no /healthz answer: ${output()}`);
}

describe("the Dockerfile", () => {
  it("has a build, an install and a small non-root runtime stage that serves over HTTP", () => {
    expect(stages.map((s) => s.name)).toEqual(["build", "install", "2"]);
    const final = stages.at(-1)!;
    const user = final.steps.find((s) => s.op === "USER")?.text;
    expect(user).toBeDefined();
    expect(["root", "0"]).not.toContain(user);
    const env = parseEnv(
      final.steps
        .filter((s) => s.op === "ENV")
        .map((s) => s.text)
        .join(" "),
    );
    expect(env).toMatchObject({ OPENAPI_MCP_TRANSPORT: "http", OPENAPI_MCP_HOST: "0.0.0.0" });
    expect(final.steps.find((s) => s.op === "EXPOSE")?.text).toBe(env["OPENAPI_MCP_PORT"]);
    // The runtime stage copies only the installed packages: no sources, no npm cache, no compiler.
    expect(final.steps.filter((s) => s.op === "COPY").map((s) => s.text)).toEqual([
      "--from=install /opt/openapi-mcp-bridge/node_modules /opt/openapi-mcp-bridge/node_modules",
    ]);
    expect(stages[1]!.steps.find((s) => s.op === "RUN")?.text).toMatch(/--omit=dev --omit=optional/);
  });

  it("builds and serves the example spec (an image when a runtime exists, else its commands here)", async () => {
    const { DEMO_API_KEY, startPetstore } = (await import(
      pathToFileURL(join(ROOT, "examples", "petstore", "server.mjs")).href
    )) as Petstore;
    const api = await startPetstore();
    try {
      if (await hasContainerRuntime()) await buildAndRunImage(api.url, DEMO_API_KEY);
      else {
        process.stderr.write(
          "dockerfile.test: no container runtime (docker info failed): running the Dockerfile's commands here\n",
        );
        await runStagesHere(api.url, DEMO_API_KEY);
      }
    } finally {
      await api.close();
    }
  }, 600_000);
});

async function buildAndRunImage(apiUrl: string, apiKey: string): Promise<void> {
  const tag = `omb-dockerfile-test:${process.pid}`;
  await run("docker", ["build", "-t", tag, ROOT], { timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
  const port = await freePort();
  const metricsPort = await freePort();
  const upstream = apiUrl.replace("127.0.0.1", "host.docker.internal");
  const { stdout } = await run("docker", [
    "run",
    "-d",
    "--rm",
    "--add-host",
    "host.docker.internal:host-gateway",
    "-p",
    `127.0.0.1:${port}:3000`,
    "-p",
    `127.0.0.1:${metricsPort}:9464`,
    "-e",
    "OPENAPI_MCP_METRICS_PORT=9464",
    "-v",
    `${join(ROOT, "examples", "petstore")}:/spec:ro`,
    "-e",
    `OPENAPI_MCP_BASE_URL=${upstream}`,
    "-e",
    `OPENAPI_MCP_AUTH_APIKEY=${apiKey}`,
    tag,
  ]);
  const id = stdout.trim();
  try {
    const user = await run("docker", ["exec", id, "id", "-u"]);
    expect(user.stdout.trim()).not.toBe("0");
    for (let i = 0; i < 150; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 200));
    }
    await checkServing(port, { url: upstream }, metricsPort);
  } finally {
    await run("docker", ["rm", "-f", id]).catch(() => undefined);
    await run("docker", ["rmi", "-f", tag]).catch(() => undefined);
  }
}

async function runStagesHere(apiUrl: string, apiKey: string): Promise<void> {
  const roots = new Map(stages.map((s) => [s.name, join(scratch, `stage-${s.name}`)]));
  // Every absolute container path the Dockerfile names, longest first, to rewrite into a stage's folder.
  const containerPaths = [
    ...new Set(
      stages.flatMap((s) =>
        s.steps.flatMap((step) =>
          step.op === "WORKDIR"
            ? [step.text]
            : step.op === "COPY"
              ? step.text.split(/\s+/).filter((p) => p.startsWith("/"))
              : [],
        ),
      ),
    ),
  ].sort((a, b) => b.length - a.length);
  const inStage = (stage: string, path: string) => join(roots.get(stage)!, path);
  const pattern = new RegExp(
    containerPaths.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
    "g",
  );
  // One pass, longest path first, so a rewritten path is never rewritten again.
  const rewrite = (stage: string, command: string) => command.replace(pattern, (p) => inStage(stage, p));
  const packed = process.env["OMB_PACKED_TARBALL"];
  const reuse = packed !== undefined && existsSync(packed);

  for (const stage of stages) {
    const root = roots.get(stage.name)!;
    mkdirSync(root, { recursive: true });
    let workdir = "/";
    const env: Record<string, string> = {};
    for (const step of stage.steps) {
      const cwd = inStage(stage.name, workdir);
      if (step.op === "WORKDIR") {
        workdir = step.text;
        mkdirSync(inStage(stage.name, workdir), { recursive: true });
      } else if (step.op === "ENV") {
        Object.assign(env, parseEnv(step.text));
      } else if (step.op === "COPY") {
        const parts = step.text.split(/\s+/);
        const from = parts[0]!.startsWith("--from=") ? parts.shift()!.slice("--from=".length) : undefined;
        const destination = parts.pop()!;
        const target = isAbsolute(destination) ? inStage(stage.name, destination) : join(cwd, destination);
        for (const source of parts) {
          const origin = from !== undefined ? inStage(from, source) : join(ROOT, source);
          if (from === undefined) {
            expect(existsSync(origin), `COPY ${source}: not in the build context`).toBe(true);
            expect(ignored, `COPY ${source}: excluded by .dockerignore`).not.toContain(
              posix.normalize(source),
            );
          }
          if (from === "build" && reuse) continue; // copied below from the tarball CI made
          const single = parts.length === 1 && !destination.endsWith("/");
          cpSync(origin, single ? target : join(target, posix.basename(source)), { recursive: true });
        }
        if (from === "build" && reuse) {
          mkdirSync(target, { recursive: true });
          cpSync(packed!, join(target, posix.basename(packed!)));
        }
      } else if (step.op === "RUN") {
        if (reuse && stage.name === "build") continue; // its output is the tarball CI packed with the same command
        let command = step.text;
        if (stage.name === "build" && /^npm ci\b/.test(command)) {
          symlinkSync(join(ROOT, "node_modules"), join(cwd, "node_modules"));
          continue;
        }
        command = rewrite(stage.name, command);
        const result = await run("sh", ["-c", command], {
          cwd,
          env: { ...process.env, ...env },
          timeout: 540_000,
          maxBuffer: 64 * 1024 * 1024,
        }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(
            `RUN ${step.text} (stage ${stage.name}) failed: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`,
          );
        });
        void result;
      }
    }
  }

  const final = stages.at(-1)!;
  const finalRoot = final.name;
  const installed = inStage(finalRoot, "/opt/openapi-mcp-bridge/node_modules");
  expect(readdirSync(installed)).not.toContain("typescript");
  expect(readdirSync(installed)).not.toContain("js-tiktoken");
  const env = parseEnv(
    final.steps
      .filter((s) => s.op === "ENV")
      .map((s) => s.text)
      .join(" "),
  );
  const entrypoint = JSON.parse(final.steps.find((s) => s.op === "ENTRYPOINT")!.text) as string[];
  const cmd = JSON.parse(final.steps.find((s) => s.op === "CMD")!.text) as string[];
  // docs/serve.md's `-v "$PWD/examples/petstore:/spec:ro"`.
  const spec = cmd[0]!.replace(/^\/spec\//, `${join(ROOT, "examples", "petstore")}/`);
  const [program, ...args] = [...entrypoint, spec].map((a) => rewrite(finalRoot, a));
  const port = await freePort();
  const metricsPort = await freePort();
  const childEnv = {
    PATH: process.env["PATH"] ?? "",
    HOME: scratch,
    ...env,
    OPENAPI_MCP_PORT: String(port),
    OPENAPI_MCP_METRICS_PORT: String(metricsPort),
    OPENAPI_MCP_BASE_URL: apiUrl,
    OPENAPI_MCP_AUTH_APIKEY: apiKey,
  };
  const child = spawn(program === "node" ? process.execPath : program!, args, {
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  await waitForHealth(port, child, () => output);
  const healthcheck = JSON.parse(
    final.steps.find((s) => s.op === "HEALTHCHECK")!.text.replace(/^.*?CMD\s+/, ""),
  ) as string[];
  const probe = await run(process.execPath, healthcheck.slice(1), { env: childEnv });
  expect(probe.stderr).toBe("");
  await checkServing(port, { url: apiUrl }, metricsPort);
  expect(output).toContain("OMB_HTTP_EXPOSED"); // 0.0.0.0 without a token is said loudly
  child.kill();
}
