/**
 * Prism (`@stoplight/prism-cli` 5.14.x), the independent judge: `prism mock SPEC -h 127.0.0.1
 * -p PORT --errors` validates every request against the spec and answers a violation with an
 * `application/problem+json` error whose `type` is `https://stoplight.io/prism/errors#...` (422
 * UNPROCESSABLE_ENTITY with a `validation` list, 404 NO_PATH_MATCHED_ERROR, 401 UNAUTHORIZED...).
 *
 * Prism serves every path relative to the root, whatever the spec's server URL: with
 * `servers: [{url: https://api.example.com/v1}]`, `GET /pets` matches `/pets` and `/v1/pets` is a
 * 404 NO_PATH_MATCHED_ERROR (checked with 5.14.2). So the bridge's base URL is Prism's origin
 * alone, and `--base-url` replacing the server URL with its path is exactly what is needed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { connect, createServer } from "node:net";
import { dirname, join } from "node:path";

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

export const PRISM_ERROR_PREFIX = "https://stoplight.io/prism/errors#";

export interface RunningPrism {
  url: string;
  process: ChildProcess;
  /** The last lines Prism wrote (stdout and stderr), for diagnostics. */
  log(): string;
  stop(): Promise<void>;
}

function prismCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts Prism on a free loopback port and waits until it says it is listening. */
export async function startPrism(spec: string, timeoutMs: number): Promise<RunningPrism> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      return await startOn(spec, port, timeoutMs);
    } catch (error) {
      lastError = error as Error;
      if (!/EADDRINUSE/.test(lastError.message)) throw lastError;
    }
  }
  throw lastError ?? new Error("Prism did not start");
}

function startOn(spec: string, port: number, timeoutMs: number): Promise<RunningPrism> {
  const child = spawn(
    process.execPath,
    // `-v warn`: Prism's info log (one line per operation at start, six per request, each repaired
    // and parsed as JSON) costs more than the mock itself; violations still come back in answers.
    [prismCli(), "mock", spec, "-h", "127.0.0.1", "-p", String(port), "--errors", "-v", "warn"],
    // No colours, and no update notices.
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", CI: "1" } },
  );
  const lines: string[] = [];
  let pending = "";
  const keep = (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const line of parts) {
      lines.push(line);
      if (lines.length > 200) lines.splice(0, lines.length - 100);
    }
  };
  const log = () => [...lines, pending].join("\n").replace(ANSI_COLOUR, "");
  let exited = false;
  const exit = new Promise<void>((resolveExit) =>
    child.once("exit", () => {
      exited = true;
      resolveExit();
    }),
  );
  const stop = async () => {
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exit;
      clearTimeout(timer);
    }
  };
  return new Promise((resolveStart, reject) => {
    const deadline = Date.now() + timeoutMs;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      if (error) {
        void stop();
        reject(error);
      } else resolveStart({ url: `http://127.0.0.1:${port}`, process: child, log, stop });
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    void exit.then(() => finish(new Error(`Prism exited before listening\n${tail(log())}`)));
    // Prism says nothing at warn level when it listens: poll the port.
    const poll = () => {
      if (done) return;
      if (Date.now() > deadline) {
        finish(new Error(`Prism did not start within ${timeoutMs} ms\n${tail(log())}`));
        return;
      }
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        finish();
      });
      socket.once("error", () => {
        socket.destroy();
        setTimeout(poll, 50);
      });
    };
    setTimeout(poll, 200);
  });
}

function tail(text: string): string {
  return text.split("\n").slice(-15).join("\n");
}
