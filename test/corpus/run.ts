/**
 * The corpus run: every spec of the CI sample (default) or of the whole collection (`--all`),
 * each in its own child process with a time limit, on every core; then a markdown summary,
 * written to test/corpus/results/<name>.md and printed, and the acceptance verdict.
 *
 *   npm run corpus                       the CI sample (test/corpus/sample.txt), fails on a miss
 *   npm run corpus -- --all              all specs of the three packages (installed on first use)
 *   npm run corpus -- --select           re-draw the sample from the packages (see select.ts)
 *   options: --only TEXT[,TEXT...] (ids containing one of them), --jobs N, --max-calls N (0: every tool),
 *            --no-calls, --name NAME (results file), --strict (--all: fail on a miss too),
 *            --prism-cli (start `prism mock` per spec instead of the Prism host, prism-host.ts),
 *            --report-only (the report of results/<name>.jsonl, written as specs finish),
 *            --resume (go on with a run cut short, from results/<name>.jsonl),
 *            --batch N (N specs one after another in each child process, same time limits each;
 *            a crash or time-out ends the child and the rest of its batch goes to a new one)
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Allowlist, evaluate, loadAllowlist } from "./evaluate.js";
import { renderReport } from "./report.js";
import { selectSample } from "./select.js";
import {
  corpusDir,
  ensureInstalled,
  fileSize,
  findRoot,
  listAllSpecs,
  listSampleSpecs,
  type SpecEntry,
} from "./sources.js";
import type { SpecJob, SpecResult } from "./types.js";

const HERE = dirname(fileURLToPath(import.meta.url));

interface Options {
  all: boolean;
  select: boolean;
  only?: string;
  jobs: number;
  maxCalls: number;
  calls: boolean;
  name: string;
  strict: boolean;
  prismCli: boolean;
  /** Render the report from a results/<name>.jsonl of an earlier (perhaps cut short) run. */
  reportOnly: boolean;
  /** Go on with a run cut short: skip the specs results/<name>.jsonl has, report them all. */
  resume: boolean;
  /** Specs per child process (1: one process per spec). */
  batch: number;
}

function parseOptions(argv: string[]): Options {
  const options: Options = {
    all: false,
    select: false,
    jobs: availableParallelism(),
    maxCalls: -1,
    calls: true,
    name: "",
    strict: false,
    prismCli: false,
    reportOnly: false,
    resume: false,
    batch: 1,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--all") options.all = true;
    else if (arg === "--select") options.select = true;
    else if (arg === "--only") options.only = value();
    else if (arg === "--jobs") options.jobs = Math.max(1, Number(value()));
    else if (arg === "--max-calls") options.maxCalls = Number(value());
    else if (arg === "--no-calls") options.calls = false;
    else if (arg === "--name") options.name = value();
    else if (arg === "--strict") options.strict = true;
    else if (arg === "--prism-cli") options.prismCli = true;
    else if (arg === "--report-only") options.reportOnly = true;
    else if (arg === "--resume") options.resume = true;
    else if (arg === "--batch") options.batch = Math.max(1, Number(value()));
    else throw new Error(`unknown option ${arg}`);
  }
  // The CI sample calls at most 30 tools a spec (evenly spaced), to stay in CI's time budget.
  if (options.maxCalls < 0) options.maxCalls = options.all ? 0 : SAMPLE_MAX_CALLS;
  if (options.name === "") options.name = options.all ? "all" : "sample";
  return options;
}

export const SAMPLE_MAX_CALLS = 30;

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const root = findRoot();
  if (options.select) {
    const dir = corpusDir();
    ensureInstalled(dir, log);
    selectSample(root, listAllSpecs(dir), log);
    return 0;
  }
  let specs: SpecEntry[];
  if (options.all) {
    const dir = corpusDir();
    ensureInstalled(dir, log);
    specs = listAllSpecs(dir);
  } else {
    specs = listSampleSpecs(root);
  }
  if (options.only !== undefined) {
    const parts = options.only.split(",");
    specs = specs.filter((s) => parts.some((part) => s.id.includes(part)));
  }
  if (specs.length === 0) {
    log("no specs to run");
    return 1;
  }
  const allowlist: Allowlist = loadAllowlist(join(root, "test", "corpus", "allowlist.json"));
  log(
    `corpus: ${specs.length} specs, ${options.jobs} at a time, ${options.calls ? (options.maxCalls > 0 ? `at most ${options.maxCalls} calls a spec` : "every tool called") : "no calls"}`,
  );
  const started = Date.now();
  let results: SpecResult[];
  let elapsedMs: number;
  if (options.reportOnly) {
    const lines = readFileSync(join(root, "test", "corpus", "results", `${options.name}.jsonl`), "utf8");
    results = lines
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as SpecResult)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    elapsedMs = Number(process.env.OMB_CORPUS_ELAPSED_MS ?? 0);
    log(`report from ${results.length} results of ${specs.length} specs`);
  } else {
    results = await runPool(specs, options, root);
    elapsedMs = Date.now() - started;
  }
  const verdict = evaluate(results, allowlist, { sample: !options.all });
  const markdown = renderReport({
    name: options.name,
    results,
    verdict,
    elapsedMs,
    jobs: options.jobs,
    maxCalls: options.calls ? options.maxCalls : undefined,
    commit: gitCommit(root),
    planned: specs.length,
  });
  const outDir = join(root, "test", "corpus", "results");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${options.name}.md`), markdown);
  writeFileSync(join(outDir, `${options.name}.json`), `${JSON.stringify(results, null, 1)}\n`);
  process.stdout.write(`${markdown}\n`);
  log(`wrote test/corpus/results/${options.name}.md (details in ${options.name}.json)`);
  const enforce = !options.all || options.strict;
  if (verdict.passed) log("corpus: PASSED");
  else log(`corpus: ${enforce ? "FAILED" : "thresholds missed (not enforced for --all)"}`);
  return verdict.passed || !enforce ? 0 : 1;
}

function gitCommit(root: string): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** Runs the specs `jobs` at a time, biggest first (so a big one does not finish last alone). */
async function runPool(specs: SpecEntry[], options: Options, root: string): Promise<SpecResult[]> {
  // The sample: biggest first, so that a big spec does not finish last alone. The whole
  // collection: smallest first, so that a run cut short has covered most specs.
  const queue = specs
    .map((spec) => ({ spec, size: fileSize(spec.file) }))
    .sort((a, b) => (options.all ? a.size - b.size : b.size - a.size));
  const outDir = join(root, "test", "corpus", "results");
  mkdirSync(outDir, { recursive: true });
  const progress = join(outDir, `${options.name}.jsonl`);
  const results: SpecResult[] = [];
  if (options.resume && existsSync(progress)) {
    for (const line of readFileSync(progress, "utf8").split("\n")) {
      if (line.trim() !== "") results.push(JSON.parse(line) as SpecResult);
    }
    const done = new Set(results.map((r) => r.id));
    for (let i = queue.length - 1; i >= 0; i--) if (done.has(queue[i]!.spec.id)) queue.splice(i, 1);
    log(`resuming: ${results.length} specs done, ${queue.length} to go`);
  } else writeFileSync(progress, "");
  let done = results.length;
  const worker = async () => {
    const slot: Slot = {};
    for (;;) {
      const batch = queue.splice(0, options.batch);
      if (batch.length === 0) {
        slot.host?.kill();
        return;
      }
      if (!options.prismCli && options.calls && (!slot.host?.alive || slot.host.served >= HOST_SPECS)) {
        slot.host?.kill();
        slot.host = new PrismHost();
      }
      const jobs: SpecJob[] = batch.map((next) => ({
        id: next.spec.id,
        file: next.spec.file,
        root,
        calls: options.calls,
        maxCalls: options.maxCalls,
        prismCli: options.prismCli,
        prismStartMs: options.all ? 45_000 : 180_000,
        callTimeoutMs: 10_000,
      }));
      const record = (result: SpecResult) => {
        results.push(result);
        appendFileSync(progress, `${JSON.stringify(result)}\n`);
        done++;
        const minimal = result.minimal;
        const calls =
          result.callsMade > 0
            ? ` calls ${result.callsAccepted}/${result.callsMade}${minimal ? `, minimal ${minimal.callsAccepted}/${minimal.callsMade}` : ""}`
            : "";
        const extra = result.prismError ? " (Prism did not start)" : "";
        log(
          `[${done}/${specs.length}] ${result.status.padEnd(9)} ${result.id} tools ${result.tools}${calls}${extra} ${(result.timings.total ?? 0) / 1000}s`,
        );
      };
      const hosted = options.prismCli || !options.calls ? undefined : slot;
      if (jobs.length === 1) record(await runChild(jobs[0]!, hosted));
      else {
        // Specs the child did not get to (it crashed or ran out of time) go back in the queue.
        const left = await runBatch(jobs, hosted, record);
        queue.unshift(...batch.filter((entry) => left.includes(entry.spec.id)));
      }
      if (slot.host && !slot.host.alive) slot.host = undefined;
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, specs.length) }, worker));
  return results.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Time limits: loading and checking, then Prism's start, then the calls (per call). */
const LOAD_LIMIT_MS = 240_000;
const PER_CALL_LIMIT_MS = 3_000;

/** Specs one Prism host serves before it is replaced (bounds what a long-lived process gathers). */
const HOST_SPECS = 40;

/** One prism-host.ts process: starts Prism for one spec at a time. */
class PrismHost {
  readonly child: ChildProcess;
  alive = true;
  served = 0;
  private waiting: ((message: Record<string, unknown>) => void) | undefined;

  constructor() {
    this.child = spawn(process.execPath, ["--max-old-space-size=6144", join(HERE, "prism-host.js")], {
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      detached: true,
    });
    // A send racing the host's death must not end the run (ERR_IPC_CHANNEL_CLOSED).
    this.child.on("error", () => {});
    this.child.on("message", (message: Record<string, unknown>) => {
      if (message.ready) return;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.(message);
    });
    this.child.once("exit", () => {
      this.alive = false;
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.({ failed: "the Prism host exited" });
    });
  }

  private ask(message: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolveAnswer) => {
      if (!this.alive || !this.child.connected) {
        resolveAnswer({ failed: "the Prism host is gone" });
        return;
      }
      const timer = setTimeout(() => {
        this.waiting = undefined;
        this.kill();
        resolveAnswer({ failed: `Prism did not start within ${timeoutMs} ms`, timeout: true });
      }, timeoutMs);
      this.waiting = (answer) => {
        clearTimeout(timer);
        resolveAnswer(answer);
      };
      this.child.send(message);
    });
  }

  async start(spec: string, timeoutMs: number): Promise<{ url?: string; error?: string }> {
    this.served++;
    // A port found free can be taken by another process (a parallel slot's Prism, a test's
    // server) before Prism listens on it: another free port is tried then, a few times.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const answer = await this.ask({ start: { spec, port } }, timeoutMs);
      if (typeof answer.started === "string") return { url: answer.started };
      const error = String(answer.failed);
      if (!error.includes("EADDRINUSE") || attempt >= 3) return { error };
    }
  }

  async stop(): Promise<void> {
    await this.ask({ stop: true }, 10_000);
  }

  kill(): void {
    if (!this.alive || this.child.pid === undefined) return;
    this.alive = false;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      this.child.kill("SIGKILL");
    }
  }
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

/**
 * Several specs in one child process, one after another, each with the same time limits as in
 * its own process (check-spec.ts announces each with `{ begin: id }`). Returns the ids it did
 * not get to.
 */
function runBatch(
  jobs: SpecJob[],
  slot: Slot | undefined,
  record: (result: SpecResult) => void,
): Promise<string[]> {
  return new Promise((resolveLeft) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ["--max-old-space-size=6144", join(HERE, "check-spec.js"), JSON.stringify(jobs)],
      {
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        detached: true,
        env: { ...process.env, OPENAPI_MCP_CACHE: "0" },
      },
    );
    child.on("error", () => {}); // a send racing the child's exit
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    const pending = new Set(jobs.map((j) => j.id));
    let current: SpecJob | undefined;
    let started = Date.now();
    let phase = "start";
    let deadline = Date.now() + LOAD_LIMIT_MS;
    let timedOut = false;
    // Host requests one at a time: a spec's Prism is stopped before the next one starts.
    let hostChain: Promise<unknown> = Promise.resolve();
    let prism: Promise<{ url?: string; error?: string } | undefined> = Promise.resolve(undefined);
    const startPrism = (job: SpecJob) => {
      prism = hostChain.then(async () => {
        // A host that died on an earlier spec of the batch is replaced.
        if (slot && !slot.host?.alive) slot.host = new PrismHost();
        const answer = await slot?.host?.start(job.file, job.prismStartMs);
        if (answer && child.connected) {
          child.send({
            prism: answer.url ? { id: job.id, url: answer.url } : { id: job.id, error: answer.error },
          });
        }
        return answer;
      });
      hostChain = prism;
    };
    const stopPrism = () => {
      const running = prism;
      hostChain = hostChain.then(async () => {
        const answer = await running;
        if (answer?.url && slot?.host?.alive) await slot.host.stop();
      });
    };
    child.on(
      "message",
      (message: {
        begin?: string;
        phase?: string;
        calls?: number;
        result?: SpecResult;
        restartPrism?: boolean;
      }) => {
        if (message.begin !== undefined) {
          current = jobs.find((j) => j.id === message.begin);
          started = Date.now();
          phase = "start";
          deadline = started + LOAD_LIMIT_MS;
          if (current && slot) startPrism(current);
        }
        if (message.result) {
          pending.delete(message.result.id);
          record(message.result);
          current = undefined;
          deadline = Date.now() + LOAD_LIMIT_MS;
          stopPrism();
        }
        if (message.restartPrism && slot && current) {
          slot.host?.kill();
          slot.host = new PrismHost();
          deadline += 20_000; // a new host loads Prism again
          startPrism(current);
        }
        if (message.phase) {
          phase = message.phase;
          if (phase === "prism") deadline = Date.now() + (current?.prismStartMs ?? 45_000) + 10_000;
          if (phase === "calls") deadline = Date.now() + 30_000 + (message.calls ?? 0) * PER_CALL_LIMIT_MS;
        }
      },
    );
    const timer = setInterval(() => {
      if (Date.now() > deadline && child.pid !== undefined) {
        timedOut = true;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }
    }, 250);
    child.once("exit", async (code, signal) => {
      clearInterval(timer);
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }
      if (timedOut) slot?.host?.kill();
      else await hostChain.catch(() => {});
      if (current && pending.has(current.id)) {
        pending.delete(current.id);
        const result = emptyResult(current);
        result.timings.total = Date.now() - started;
        if (timedOut) {
          result.status = "timeout";
          result.phase = phase;
        } else {
          result.status = "crashed";
          result.crash = `child exited with ${signal ?? code} in phase ${phase}\n${stderr.slice(-1500)}`;
        }
        record(result);
      }
      resolveLeft([...pending]);
    });
  });
}

function emptyResult(job: SpecJob): SpecResult {
  return {
    id: job.id,
    bytes: fileSize(job.file),
    declaredVersion: "?",
    origin: "?",
    status: "crashed",
    operations: 0,
    tools: 0,
    skipped: [],
    problems: [],
    callsPlanned: 0,
    callsMade: 0,
    callsAccepted: 0,
    acceptedNon2xx: 0,
    outputMismatches: [],
    failures: [],
    timings: {},
  };
}

/** One parallel slot's Prism host (replaced when it dies, hangs or has served enough specs). */
interface Slot {
  host?: PrismHost;
}

function runChild(job: SpecJob, slot: Slot | undefined): Promise<SpecResult> {
  return new Promise((resolveResult) => {
    const started = Date.now();
    const child: ChildProcess = spawn(
      process.execPath,
      ["--max-old-space-size=6144", join(HERE, "check-spec.js"), JSON.stringify(job)],
      // Its own process group, so that Prism goes too when the time limit kills it.
      {
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        detached: true,
        env: { ...process.env, OPENAPI_MCP_CACHE: "0" },
      },
    );
    // Prism starts while the bridge loads the spec; the child gets its URL when ready.
    const startPrism = () =>
      slot?.host?.start(job.file, job.prismStartMs).then((answer) => {
        if (child.connected)
          child.send({ prism: answer.url ? { url: answer.url } : { error: answer.error } });
        return answer;
      });
    let prism = startPrism();
    child.on("error", () => {}); // a send racing the child's exit
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    let phase = "start";
    let result: SpecResult | undefined;
    let deadline = started + LOAD_LIMIT_MS;
    let timedOut = false;
    child.on(
      "message",
      (message: { phase?: string; calls?: number; result?: SpecResult; restartPrism?: boolean }) => {
        if (message.result) result = message.result;
        if (message.restartPrism && slot) {
          // The last Prism crashed or hangs: a new host, the same spec.
          slot.host?.kill();
          slot.host = new PrismHost();
          deadline += 20_000; // a new host loads Prism again
          prism = startPrism();
        }
        if (message.phase) {
          phase = message.phase;
          if (phase === "prism") deadline = Date.now() + job.prismStartMs + 10_000;
          if (phase === "calls") deadline = Date.now() + 30_000 + (message.calls ?? 0) * PER_CALL_LIMIT_MS;
        }
      },
    );
    const timer = setInterval(() => {
      if (Date.now() > deadline && child.pid !== undefined) {
        timedOut = true;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      }
    }, 250);
    child.once("exit", async (code, signal) => {
      clearInterval(timer);
      const host = slot?.host;
      if (prism && host) {
        const answer = await prism;
        if (answer.url) {
          if (timedOut) host.kill();
          else await host.stop();
        }
      }
      // A Prism left behind by a crashed child: its group is ours to end.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }
      if (result && !timedOut) {
        resolveResult(result);
        return;
      }
      const base: SpecResult = result ?? {
        id: job.id,
        bytes: fileSize(job.file),
        declaredVersion: "?",
        origin: "?",
        status: "crashed",
        operations: 0,
        tools: 0,
        skipped: [],
        problems: [],
        callsPlanned: 0,
        callsMade: 0,
        callsAccepted: 0,
        acceptedNon2xx: 0,
        outputMismatches: [],
        failures: [],
        timings: {},
      };
      base.timings.total = Date.now() - started;
      if (timedOut) {
        base.status = "timeout";
        base.phase = phase;
      } else {
        base.status = "crashed";
        base.crash = `child exited with ${signal ?? code} in phase ${phase}\n${stderr.slice(-1500)}`;
      }
      resolveResult(base);
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    log(String((error as Error)?.stack ?? error));
    process.exit(2);
  },
);
