/**
 * `node stdio-recorder.mjs LOG COMMAND [ARGS...]`: runs a stdio MCP server between a client and
 * itself, passing every byte through unchanged, and appends each line the client sends to LOG,
 * so a check can see which protocol era the client spoke (initialize, or per-request _meta).
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";

const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ["pipe", "inherit", "inherit"] });
let pending = "";
process.stdin.on("data", (chunk) => {
  pending += chunk.toString("utf8");
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  if (lines.length > 0) appendFileSync(log, `${lines.join("\n")}\n`);
  child.stdin.write(chunk);
});
process.stdin.on("end", () => child.stdin.end());
child.stdin.on("error", () => {
  // the server is gone: its exit ends this process
});
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
