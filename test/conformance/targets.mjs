/**
 * The servers the conformance run judges, all over Streamable HTTP on 127.0.0.1 and all on the
 * Node that runs this script (the project's supported Node, not the suite's Node 22):
 * `serve` on examples/petstore (sessionful and --stateless), and the project
 * `generate` writes for the same spec, installed and built as its README says, then started the
 * same two ways.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { runCommand } from "./run-command.mjs";

/** Target id → how it is started. The ids are the `targets` of expected-failures.json. */
export const TARGETS = {
  serve: { kind: "serve", flags: [], label: "serve" },
  "serve-stateless": { kind: "serve", flags: ["--stateless"], label: "serve --stateless" },
  generated: { kind: "generated", flags: [], label: "generated project" },
  "generated-stateless": {
    kind: "generated",
    flags: ["--stateless"],
    label: "generated project --stateless",
  },
};

/**
 * `generate` of the spec into dir, then `npm install` (from npm's cache when it has every
 * package, as it does after this repository's own install) and `npm run build` there.
 * Returns how long each step took, in ms.
 */
export async function prepareGeneratedProject({ root, spec, dir }) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const steps = {};
  let started = Date.now();
  await runCommand(process.execPath, [join(root, "dist", "cli", "main.js"), "generate", spec, "-o", dir], {
    cwd: root,
  });
  steps.generate = Date.now() - started;
  started = Date.now();
  await runCommand(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    shell: process.platform === "win32",
  });
  steps.install = Date.now() - started;
  started = Date.now();
  await runCommand(npm, ["run", "build", "--silent"], { cwd: dir, shell: process.platform === "win32" });
  steps.build = Date.now() - started;
  return steps;
}

/** The command line of a target, listening on a port the OS picks (`--port 0`). */
export function commandOf(targetId, { root, spec, generatedDir, upstreamUrl }) {
  const target = TARGETS[targetId];
  const http = ["--transport", "http", "--port", "0", "--base-url", upstreamUrl, ...target.flags];
  const args =
    target.kind === "serve"
      ? [join(root, "dist", "cli", "main.js"), "serve", spec, ...http]
      : [join(generatedDir, "dist", "index.js"), ...http];
  return { command: process.execPath, args, cwd: target.kind === "serve" ? root : generatedDir };
}

/**
 * Starts a server and resolves once it answers: the start-up line on stderr names the endpoint
 * (the port the OS picked), then GET /healthz is polled until it says 200. Rejects with the
 * server's stderr if it exits first or is not ready within timeoutMs.
 */
export function startServer({ command, args, cwd, timeoutMs = 30_000 }) {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stdout.resume();
  child.stderr.setEncoding("utf8");
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const fail = (why) => {
    child.kill("SIGKILL");
    return new Error(`${why}: ${[command, ...args].join(" ")}\nits stderr:\n${stderr}`);
  };
  const announced = new Promise((resolve) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const match = /\bon (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(stderr);
      if (match) resolve(match[1].replace(/[;,.]$/, ""));
    });
  });
  let settled = false;
  const ready = (async () => {
    const endpoint = await announced;
    const health = new URL("/healthz", endpoint);
    while (!settled) {
      try {
        const res = await fetch(health, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return endpoint;
      } catch {
        // not listening yet: ask again
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return endpoint;
  })();
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(fail(`not ready within ${timeoutMs} ms`)), timeoutMs);
  });
  const early = exited.then((how) => {
    throw fail(`exited (${how}) before it was ready`);
  });
  return Promise.race([ready, deadline, early])
    .finally(() => {
      settled = true;
      clearTimeout(timer);
    })
    .then((endpoint) => ({
      endpoint,
      stderr: () => stderr,
      stop: async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGTERM");
        const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(kill);
      },
    }));
}
