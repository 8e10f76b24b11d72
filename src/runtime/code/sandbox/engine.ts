/**
 * Runs one program in a fresh QuickJS runtime (quickjs-emscripten, release-sync WebAssembly
 * build): no file system, network, process, environment, module loader or timers exist in it;
 * the prelude (prelude.ts) gives it `api` and `console`, both made of two host functions that
 * take and give strings only.
 *
 * The sync build cannot wait for a host promise inside a call, so `api.<name>(args)` returns a
 * QuickJS promise (context.newPromise) that the host settles when the real call comes back,
 * after which the pending jobs run. The loop below alternates between running jobs and waiting
 * for the next answer, until the program's promise settles or a limit stops it:
 *
 * - wall time: the interrupt handler (polled by the interpreter) stops running code, and a
 *   timer ends the wait for answers;
 * - memory (setMemoryLimit) and stack (setMaxStackSize): QuickJS throws; an uncaught
 *   "out of memory" or "stack overflow" is reported as that limit;
 * - API calls and console output: past their limit the host stops the program through the
 *   interrupt handler, whose interruption the program cannot catch.
 *
 * This file runs wherever it is called: in a worker thread (pool.ts, the normal case, so a
 * busy program never blocks the bridge) or in the calling thread.
 */
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { refuseCallBytes } from "./call-bytes.js";
import type { LimitName, SandboxLimits } from "./limits.js";
import { PRELUDE } from "./prelude.js";

/** What a program's thrown value says (an ApiError's facts included). */
export interface ThrownFacts {
  name: string;
  message: string;
  /** Line of the program (1 = its first line). */
  line?: number;
  operation?: string;
  status?: number;
  category?: string;
  retryable?: boolean;
  apiMessage?: string;
}

interface OutcomeBase {
  /** console output, one entry per call (`[warn] ...` for levels other than log). */
  logs: string[];
  /** API calls the program made (the refused one past the limit included). */
  calls: number;
  /** Bytes the QuickJS runtime had allocated when the program ended. */
  memoryUsed?: number;
  /** The program ran after its TypeScript annotations were removed. */
  strippedTypes?: boolean;
}

export type ProgramOutcome = OutcomeBase &
  (
    | { kind: "returned" /** JSON text; absent when the program returned undefined. */; json?: string }
    | { kind: "threw"; error: ThrownFacts }
    | { kind: "syntax"; error: ThrownFacts }
    | { kind: "stopped"; limit: LimitName }
    /** The thread running it died (pool.ts), for a reason none of the limits names. */
    | { kind: "crashed"; message: string }
    /** It never started: the pool refused it or it waited too long (pool.ts, program-queue.ts). */
    | { kind: "busy"; message: string }
  );

/** The host side of a program: its API calls. Answers are JSON text of an ApiOutcome. */
export interface ProgramHost {
  /** Arguments over the per-call byte cap never reach it (call-bytes.ts). */
  call(name: string, argsJson: string): Promise<string>;
}

/**
 * Removes TypeScript syntax from the wrapped program (strip-types.ts): the JavaScript and a map
 * of its lines to the lines as written; undefined when it is not TypeScript either.
 */
export type TypeStripper = (
  wrapped: string,
) =>
  | { program: string; lineOf(line: number): number }
  | { unavailable: string }
  | undefined
  | Promise<{ program: string; lineOf(line: number): number } | { unavailable: string } | undefined>;

export interface RunRequest {
  source: string;
  limits: SandboxLimits;
  /** Tried when the program is not valid JavaScript: TypeScript annotations are removed. */
  stripTypes?: TypeStripper;
  /** The clock the wall-time limit is measured on (default `Date.now`; tests pass their own). */
  now?: () => number;
}

/** The program between the lines of an async function: its `return` is the result. */
function wrap(source: string): string {
  return `(async () => {\n${source}\n})()`;
}

/** The WebAssembly memory QuickJS starts with (its heap, stack and data): 16 MiB. */
const BASE_MEMORY_BYTES = 16 * 1024 * 1024;
const PAGE_BYTES = 64 * 1024;

const modules = new Map<number, Promise<QuickJSWASMModule>>();
const memories = new WeakMap<QuickJSWASMModule, { buffer: ArrayBuffer }>();

/** The WebAssembly global, which the ES2023 lib and Node 20's types leave undeclared. */
declare const WebAssembly: {
  Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer };
};

/**
 * A QuickJS WebAssembly module for programs of `memoryBytes`, loaded once per thread and size
 * (about 60 ms): every program gets a fresh runtime and context in it, which cost well under a
 * millisecond. Its WebAssembly memory may grow by `memoryBytes` and no more: that, not QuickJS's
 * own memory limit, is what bounds a memory bomb, because this build cannot measure the size of
 * its allocations (QuickJS then counts only their number) and the memory would otherwise grow
 * to 2 GB. One module runs one program at a time (a worker thread each, normally).
 */
export function loadQuickJs(memoryBytes: number): Promise<QuickJSWASMModule> {
  let loading = modules.get(memoryBytes);
  if (loading === undefined) {
    loading = (async () => {
      const [{ newQuickJSWASMModuleFromVariant, newVariant }, imported] = await Promise.all([
        import("quickjs-emscripten-core"),
        import("@jitl/quickjs-wasmfile-release-sync"),
      ]);
      // The variant is the ESM build's default export; a CommonJS reading of its types (or of
      // the package) puts it one `default` deeper.
      const loaded = imported as unknown as { default: QuickJSSyncVariant | { default: QuickJSSyncVariant } };
      const variant = "type" in loaded.default ? loaded.default : loaded.default.default;
      const wasmMemory = new WebAssembly.Memory({
        initial: BASE_MEMORY_BYTES / PAGE_BYTES,
        maximum: Math.ceil((BASE_MEMORY_BYTES + memoryBytes) / PAGE_BYTES),
      });
      const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory }));
      memories.set(module, wasmMemory);
      return module;
    })();
    modules.set(memoryBytes, loading);
  }
  return loading;
}

/** Bytes of WebAssembly memory the module holds now (it never gives memory back). */
export function measureModuleMemory(module: QuickJSWASMModule): number {
  return memories.get(module)?.buffer.byteLength ?? 0;
}

/** Forgets the module after it failed, so that the next program gets a new one. */
export function discardQuickJs(memoryBytes: number): void {
  modules.delete(memoryBytes);
}

/** "out of memory", and the lengths QuickJS refuses to allocate at all (a 1 GB string). */
const OUT_OF_MEMORY = /out of memory|string too long|invalid string length|invalid array length/i;
const STACK_OVERFLOW = /stack overflow|too much recursion/i;

/**
 * Runs `request.source` in a new runtime of `module` and answers how it ended. Never throws for
 * anything the program does; throws only when the module itself fails (then it is unusable).
 */
export async function runProgram(
  module: QuickJSWASMModule,
  request: RunRequest,
  host: ProgramHost,
): Promise<ProgramOutcome> {
  const { limits } = request;
  const now = request.now ?? Date.now;
  const started = now();
  const deadline = started + limits.timeoutMs;
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.maxStackBytes);
  let stop: LimitName | undefined;
  runtime.setInterruptHandler(() => {
    if (stop !== undefined) return true;
    if (now() > deadline) {
      stop = "time";
      return true;
    }
    return false;
  });
  const context = runtime.newContext();
  const logs: string[] = [];
  let logChars = 0;
  let calls = 0;
  let finished = false;
  const pending = new Set<QuickJSDeferredPromise>();
  let wake: (() => void) | undefined;
  const base = (): OutcomeBase => ({ logs, calls });
  /** Maps a line of the program as run to the line as written (they differ once types are stripped). */
  let lineOf = (line: number) => line;

  try {
    const hostCall = context.newFunction("call", (nameHandle, argsHandle) => {
      calls++;
      if (calls > limits.maxCalls) {
        stop = "calls";
        throw new Error(`the program made more than ${limits.maxCalls} API calls`);
      }
      const name = context.getString(nameHandle);
      const args = context.getString(argsHandle);
      const deferred = context.newPromise();
      pending.add(deferred);
      const settle = (answer: string) => {
        if (finished || !deferred.alive) return;
        const text = context.newString(answer);
        deferred.resolve(text);
        text.dispose();
        deferred.dispose();
        pending.delete(deferred);
        wake?.();
      };
      // Measured here, off the main thread: an oversized call is never sent to it.
      const refused = refuseCallBytes(name, Buffer.byteLength(args, "utf8"), limits);
      (refused !== undefined ? Promise.resolve(refused) : host.call(name, args)).then(
        settle,
        (error: unknown) =>
          settle(JSON.stringify({ ok: false, error: { message: String(error), category: "internal" } })),
      );
      return deferred.handle;
    });
    const hostLog = context.newFunction("log", (levelHandle, textHandle) => {
      const level = context.getString(levelHandle);
      const text = context.getString(textHandle);
      const entry = level === "log" ? text : `[${level}] ${text}`;
      logChars += entry.length + 1;
      if (logChars > limits.maxLogChars) {
        stop = "logs";
        throw new Error(`the program wrote more than ${limits.maxLogChars} characters of console output`);
      }
      logs.push(entry);
    });
    const helpers = installPrelude(context, hostCall, hostLog);
    hostCall.dispose();
    hostLog.dispose();
    try {
      let strippedTypes = false;
      let evaluated = context.evalCode(wrap(request.source), "program.js");
      if (evaluated.error) {
        const facts = describeThrown(context, helpers, evaluated.error);
        evaluated.error.dispose();
        if (facts.name !== "SyntaxError") return finish(classify(facts));
        const stripped = await request.stripTypes?.(wrap(request.source));
        if (stripped === undefined) return finish({ kind: "syntax", error: facts });
        if ("unavailable" in stripped) {
          return finish({
            kind: "syntax",
            error: { ...facts, message: `${facts.message} (${stripped.unavailable})` },
          });
        }
        // Program lines are the wrapped program's less the wrapper's first line.
        lineOf = (line) => stripped.lineOf(line + 1) - 1;
        strippedTypes = true;
        evaluated = context.evalCode(stripped.program, "program.js");
        if (evaluated.error) {
          const again = describeThrown(context, helpers, evaluated.error);
          evaluated.error.dispose();
          return finish(
            again.name === "SyntaxError" ? { kind: "syntax", error: again } : classify(again),
            strippedTypes,
          );
        }
      }
      const promise = evaluated.value;
      try {
        for (;;) {
          const jobs = runtime.executePendingJobs();
          if (jobs.error) {
            const facts = describeThrown(context, helpers, jobs.error);
            jobs.error.dispose();
            if (stop === undefined) return finish(classify(facts), strippedTypes);
          }
          if (stop !== undefined) return finish({ kind: "stopped", limit: stop }, strippedTypes);
          const state = context.getPromiseState(promise);
          if (state.type === "fulfilled") {
            const json = readJson(context, helpers, state.value);
            state.value.dispose();
            if (stop !== undefined) return finish({ kind: "stopped", limit: stop }, strippedTypes);
            if (typeof json === "object") return finish(classify(json.error), strippedTypes);
            return finish({ kind: "returned", ...(json !== undefined ? { json } : {}) }, strippedTypes);
          }
          if (state.type === "rejected") {
            const facts = describeThrown(context, helpers, state.error);
            state.error.dispose();
            if (stop !== undefined) return finish({ kind: "stopped", limit: stop }, strippedTypes);
            return finish(classify(facts), strippedTypes);
          }
          if (pending.size === 0 && !runtime.hasPendingJob()) {
            return finish(
              {
                kind: "threw",
                error: {
                  name: "Error",
                  message:
                    "the program is waiting for a promise that nothing will settle (no API call is under way); " +
                    "await only api calls and promises they settle",
                },
              },
              strippedTypes,
            );
          }
          const remaining = deadline - now();
          if (remaining <= 0) {
            stop = "time";
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, remaining);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      } finally {
        promise.dispose();
      }
    } finally {
      helpers.dispose();
    }
  } finally {
    finished = true;
    for (const deferred of pending) deferred.dispose();
    pending.clear();
    context.dispose();
    runtime.dispose();
  }

  function finish(
    end:
      | { kind: "returned"; json?: string }
      | { kind: "threw" | "syntax"; error: ThrownFacts }
      | { kind: "stopped"; limit: LimitName },
    strippedTypes = false,
  ): ProgramOutcome {
    const memoryUsed = measureMemory(runtime, context);
    const mapped =
      "error" in end && end.error.line !== undefined
        ? { ...end, error: { ...end.error, line: lineOf(end.error.line) } }
        : end;
    return {
      ...base(),
      ...(memoryUsed !== undefined ? { memoryUsed } : {}),
      ...(strippedTypes ? { strippedTypes } : {}),
      ...mapped,
    } as ProgramOutcome;
  }
}

/** An uncaught error: a limit when QuickJS's own words say so, else what the program threw. */
function classify(
  facts: ThrownFacts,
): { kind: "threw"; error: ThrownFacts } | { kind: "stopped"; limit: LimitName } {
  if (/InternalError|RangeError/.test(facts.name)) {
    if (OUT_OF_MEMORY.test(facts.message)) return { kind: "stopped", limit: "memory" };
    if (STACK_OVERFLOW.test(facts.message)) return { kind: "stopped", limit: "stack" };
  }
  return { kind: "threw", error: facts };
}

interface Helpers {
  describe: QuickJSHandle;
  json: QuickJSHandle;
  dispose(): void;
}

function installPrelude(context: QuickJSContext, hostCall: QuickJSHandle, hostLog: QuickJSHandle): Helpers {
  const factory = context.unwrapResult(context.evalCode(PRELUDE, "prelude.js"));
  const installed = context.unwrapResult(
    context.callFunction(factory, context.undefined, hostCall, hostLog, context.global),
  );
  factory.dispose();
  const describe = context.getProp(installed, "describe");
  const json = context.getProp(installed, "json");
  installed.dispose();
  return {
    describe,
    json,
    dispose() {
      describe.dispose();
      json.dispose();
    },
  };
}

/** What a thrown value says, read by the prelude's describe (or, should that fail, plainly). */
function describeThrown(context: QuickJSContext, helpers: Helpers, error: QuickJSHandle): ThrownFacts {
  const described = context.callFunction(helpers.describe, context.undefined, error);
  if (described.error) {
    described.error.dispose();
    const dumped = safeDump(context, error);
    return {
      name: String(dumped?.name ?? "Error"),
      message: String(dumped?.message ?? dumped ?? "unknown error"),
    };
  }
  const text = context.getString(described.value);
  described.value.dispose();
  return JSON.parse(text) as ThrownFacts;
}

function safeDump(
  context: QuickJSContext,
  handle: QuickJSHandle,
): { name?: unknown; message?: unknown } | undefined {
  try {
    return context.dump(handle) as { name?: unknown; message?: unknown };
  } catch {
    return undefined;
  }
}

/** The return value as JSON text, undefined for undefined, or what stopped it being JSON. */
function readJson(
  context: QuickJSContext,
  helpers: Helpers,
  value: QuickJSHandle,
): string | undefined | { error: ThrownFacts } {
  const result = context.callFunction(helpers.json, context.undefined, value);
  if (result.error) {
    const dumped = safeDump(context, result.error);
    result.error.dispose();
    return {
      error: {
        name: String(dumped?.name ?? "TypeError"),
        message: `the return value cannot be turned into JSON: ${String(dumped?.message ?? "unknown error")}`,
      },
    };
  }
  const text = context.typeof(result.value) === "string" ? context.getString(result.value) : undefined;
  result.value.dispose();
  return text;
}

function measureMemory(runtime: QuickJSRuntime, context: QuickJSContext): number | undefined {
  try {
    const usage = runtime.computeMemoryUsage();
    const dumped = context.dump(usage) as { memory_used_size?: number };
    usage.dispose();
    return typeof dumped.memory_used_size === "number" ? dumped.memory_used_size : undefined;
  } catch {
    return undefined;
  }
}
