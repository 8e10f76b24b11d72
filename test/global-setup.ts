/**
 * Builds the package once (tsc to dist/) before any test runs, so the stdio, HTTP and CLI tests
 * can spawn `node dist/cli/main.js`. Set OMB_SKIP_BUILD=1 to reuse an existing dist/.
 */
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  if (process.env["OMB_SKIP_BUILD"] === "1") return;
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  try {
    execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed before the tests:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}
