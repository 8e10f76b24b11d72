/**
 * Redis from the system's packages (`.ci/run` installs it), started by the tests on loopback
 * with no persistence. Without redis-server the suites that need it skip, saying why.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { freePort } from "./bridge.js";

/** True when redis-server can run here; otherwise a warning names what skips and how to install it. */
export function hasRedisServer(what: string): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    console.warn(`${what} skipped: redis-server is absent (apt-get install -y redis-server)`);
    return false;
  }
}

export interface RedisServer {
  port: number;
  url: string;
  stop(): void;
}

/** A fresh redis-server on a free loopback port (or `port`), resolved once it accepts connections. */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("Ready to accept connections")) resolve();
    });
  });
  return { port: chosen, url: `redis://127.0.0.1:${chosen}/0`, stop: () => child.kill() };
}
