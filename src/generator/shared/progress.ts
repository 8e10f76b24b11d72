/**
 * Progress of long work on stderr (`generate`, `model`, `lint`, `catalog` on large specs): one
 * line per step ("load", "validate", "plan", "print", "write"), with how long the previous one
 * took. Shown when stderr is a terminal (rewriting one line there) and quiet otherwise, so logs
 * and pipes get only the result; OPENAPI_MCP_PROGRESS=1 forces it on (one line per step, for
 * tests and CI logs), OPENAPI_MCP_PROGRESS=0 off. Steps are free words: a command says what it
 * is doing in its own terms.
 *
 *   const progress = createProgress("catalog");
 *   progress.step("load");  ...  progress.step("index");  ...  progress.done();
 */

export interface Progress {
  /** The work moves on to `name`. */
  step(name: string): void;
  /** The work is over: the last line is closed (a terminal's line is cleared). */
  done(): void;
}

export interface ProgressOptions {
  stream?: { isTTY?: boolean; write(text: string): unknown };
  env?: Readonly<Record<string, string | undefined>>;
  now?: () => number;
}

const QUIET: Progress = { step: () => undefined, done: () => undefined };

export function createProgress(command: string, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const setting = (options.env ?? process.env)["OPENAPI_MCP_PROGRESS"];
  const terminal = stream.isTTY === true && setting !== "1";
  if (setting === "0" || (setting !== "1" && stream.isTTY !== true)) return QUIET;
  const now = options.now ?? (() => performance.now());
  const started = now();
  let current: { name: string; at: number } | undefined;
  const took = (since: number) => {
    const ms = now() - since;
    return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
  };
  const show = (text: string) => {
    const line = `openapi-mcp-bridge ${command}: ${text}`;
    stream.write(terminal ? `\r\x1b[K${line}` : `${line}\n`);
  };
  return {
    step(name) {
      const previous = current === undefined ? "" : ` (${current.name}: ${took(current.at)})`;
      current = { name, at: now() };
      show(`${name}…${previous}`);
    },
    done() {
      if (current === undefined) return;
      if (terminal) stream.write("\r\x1b[K");
      else show(`done in ${took(started)} (${current.name}: ${took(current.at)})`);
      current = undefined;
    },
  };
}
