/**
 * The sandbox's security and limits, on the engine itself (runProgram, in this thread): what a
 * program can reach (no file system, network, process, environment, module loader, timers or
 * host globals; values cross as JSON only, so no host prototype is reachable), and each limit
 * (wall time, memory, stack, API calls, console output) stopping a hostile program with the
 * limit named. The same engine runs in the worker pool (test/e2e/code-mode.test.ts checks the
 * pool: other sessions are served while a program runs, a killed worker is replaced).
 */
import { describe, expect, it } from "vitest";
import {
  loadQuickJs,
  type ProgramHost,
  type ProgramOutcome,
  runProgram,
} from "../../../../src/runtime/code/sandbox/engine.js";
import type { SandboxLimits } from "../../../../src/runtime/code/sandbox/limits.js";
import { stripTypes } from "../../../../src/runtime/code/strip-types.js";

/** Small limits, so that each hostile program is stopped quickly; the stack suits the main thread. */
const LIMITS: SandboxLimits = {
  timeoutMs: 1500,
  memoryBytes: 16 * 1024 * 1024,
  maxCalls: 50,
  maxCallBytes: 64 * 1024,
  maxAnswerBytes: 256 * 1024,
  maxLogChars: 2000,
  maxStackBytes: 48 * 1024,
};

/** A host whose `echo` answers the arguments, `fail` an HTTP 404, `slow` after 50 ms. */
function testHost(received: { name: string; args: string }[] = []): ProgramHost {
  return {
    async call(name, args) {
      received.push({ name, args });
      if (name === "fail") {
        return JSON.stringify({
          ok: false,
          error: {
            message: "Not found: HTTP 404 (GET /pets/9): no such pet",
            status: 404,
            category: "not_found",
            retryable: false,
            apiMessage: "no such pet",
          },
        });
      }
      if (name === "slow") await new Promise((r) => setTimeout(r, 50));
      return JSON.stringify({ ok: true, value: JSON.parse(args) });
    },
  };
}

async function run(
  source: string,
  limits: Partial<SandboxLimits> = {},
  host = testHost(),
  now?: () => number,
): Promise<ProgramOutcome> {
  const merged = { ...LIMITS, ...limits };
  return runProgram(
    await loadQuickJs(merged.memoryBytes),
    { source, limits: merged, stripTypes, ...(now ? { now } : {}) },
    host,
  );
}

function returned(outcome: ProgramOutcome): unknown {
  if (outcome.kind !== "returned") throw new Error(`expected a value, got ${JSON.stringify(outcome)}`);
  return outcome.json === undefined ? undefined : JSON.parse(outcome.json);
}

describe("what a program can reach", () => {
  it.each([
    "require",
    "process",
    "module",
    "exports",
    "Buffer",
    "fetch",
    "XMLHttpRequest",
    "WebSocket",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "queueMicrotask",
    "std",
    "os",
    "Deno",
    "Bun",
    "__dirname",
    "performance",
    "Atomics",
    "WebAssembly",
  ])("%s does not exist", async (name) => {
    expect(returned(await run(`return typeof ${name};`))).toBe("undefined");
    expect(returned(await run(`return typeof Function("return this")().${name};`))).toBe("undefined");
  });

  it("sees only ECMAScript's globals, api and console", async () => {
    const names = returned(await run("return Object.getOwnPropertyNames(globalThis);")) as string[];
    const allowed = new Set([
      ...Object.getOwnPropertyNames(globalThis).filter((n) => n in globalThis && /^[A-Z]/.test(n)),
      "globalThis",
      "NaN",
      "Infinity",
      "undefined",
      "eval",
      "isFinite",
      "isNaN",
      "parseFloat",
      "parseInt",
      "decodeURI",
      "decodeURIComponent",
      "encodeURI",
      "encodeURIComponent",
      "escape",
      "unescape",
      "api",
      "console",
      "Iterator",
      "FinalizationRegistry",
      "WeakRef",
      "Symbol",
      "AggregateError",
      "InternalError",
      "Reflect",
      "Math",
      "JSON",
      "SharedArrayBuffer",
      "Float16Array",
    ]);
    expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(["api", "console", "JSON", "Promise"]));
  });

  it("cannot import modules, statically or dynamically", async () => {
    const dynamic = await run('const fs = await import("node:fs"); return typeof fs;');
    expect(dynamic.kind).toBe("threw");
    const fixed = await run('import fs from "fs";\nreturn 1;');
    expect(fixed.kind).toBe("syntax");
  });

  it("cannot replace or extend api and console, and api holds no host function", async () => {
    const value = returned(
      await run(`
        const before = api.echo;
        try { api.echo = 1; } catch {}
        try { globalThis.api = {}; } catch {}
        try { console.log = null; } catch {}
        return [typeof api.echo, Object.getOwnPropertyNames(api).length, typeof console.log,
                Function.prototype.toString.call(api.echo).includes("native"), typeof api.then];
      `),
    );
    expect(value).toEqual(["function", 0, "function", false, "undefined"]);
  });

  it("gets answers as its own values: no host prototype to climb", async () => {
    const value = returned(
      await run(`
        const answer = await api.echo({ nested: { list: [1] } });
        const F = answer.constructor.constructor;
        return [Object.getPrototypeOf(answer) === Object.prototype,
                Object.getPrototypeOf(answer.nested.list) === Array.prototype,
                F("return typeof process + typeof require")(),
                F === Function];
      `),
    );
    expect(value).toEqual([true, true, "undefinedundefined", true]);
  });

  it("passes __proto__ keys in and out as plain data, polluting nothing", async () => {
    const received: { name: string; args: string }[] = [];
    const outcome = await run(
      `const args = JSON.parse('{"__proto__": {"polluted": "in"}, "a": 1}');
       await api.echo(args);
       return JSON.parse('{"__proto__": {"polluted": "out"}}');`,
      {},
      testHost(received),
    );
    const value = returned(outcome) as Record<string, unknown>;
    expect(received[0]!.args).toBe('{"__proto__":{"polluted":"in"},"a":1}');
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it("sends only JSON objects as arguments", async () => {
    for (const args of ["5", "[1]", "() => 1", "{ big: 1n }"]) {
      const outcome = await run(`return await api.echo(${args});`);
      expect(outcome.kind, args).toBe("threw");
    }
    const cyclic = await run("const a = {}; a.a = a; return await api.echo(a);");
    expect(cyclic).toMatchObject({ kind: "threw", error: { name: "TypeError" } });
  });
});

describe("limits stop hostile programs, each named", () => {
  it("an infinite loop: wall time, stopped at the first check past the deadline", async () => {
    // A clock that moves 1 ms each time it is read: the loop's own interrupt checks move it, so
    // the deadline comes after a known number of checks, and no wall-clock bound is raced.
    let reads = 0;
    const outcome = await run("for (;;) {}", { timeoutMs: 300 }, testHost(), () => ++reads);
    expect(outcome).toMatchObject({ kind: "stopped", limit: "time" });
    expect(reads).toBeGreaterThan(300);
    expect(reads).toBeLessThanOrEqual(305);
  });

  it("an endless chain of promises, and a loop that catches everything: wall time", async () => {
    expect(await run("for (;;) await null;", { timeoutMs: 300 })).toMatchObject({
      kind: "stopped",
      limit: "time",
    });
    expect(await run("for (;;) { try { for (;;) {} } catch (e) {} }", { timeoutMs: 300 })).toMatchObject({
      kind: "stopped",
      limit: "time",
    });
  });

  it("waiting on slow API calls past the deadline: wall time", async () => {
    const outcome = await run("for (;;) await api.slow({});", { timeoutMs: 300, maxCalls: 1000 });
    expect(outcome).toMatchObject({ kind: "stopped", limit: "time" });
  });

  it("a memory bomb: memory", async () => {
    const outcome = await run("const a = []; for (;;) a.push(new Array(100000).fill(1.5));");
    expect(outcome).toMatchObject({ kind: "stopped", limit: "memory" });
  });

  it("a 1 GB string: memory", async () => {
    expect(await run('return "x".repeat(2 ** 30 - 100).length;')).toMatchObject({
      kind: "stopped",
      limit: "memory",
    });
    expect(await run('let s = "x"; for (;;) s += s;')).toMatchObject({ kind: "stopped", limit: "memory" });
  });

  it("deep recursion: stack", async () => {
    expect(await run("const f = (n) => f(n + 1) + 1; return f(0);")).toMatchObject({
      kind: "stopped",
      limit: "stack",
    });
    const nested = await run("let o = {}; for (let i = 0; i < 100000; i++) o = { o }; return o;");
    expect(nested.kind).toBe("stopped");
  });

  it("a flood of console.log: console output", async () => {
    const outcome = await run('for (;;) console.log("flood");');
    expect(outcome).toMatchObject({ kind: "stopped", limit: "logs" });
    expect(outcome.logs.join("\n").length).toBeLessThanOrEqual(LIMITS.maxLogChars);
  });

  it("10,000 API calls: the call limit, even when the program catches the error", async () => {
    const received: { name: string; args: string }[] = [];
    const awaited = await run(
      "for (let i = 0; i < 10000; i++) await api.echo({ i });",
      {},
      testHost(received),
    );
    expect(awaited).toMatchObject({ kind: "stopped", limit: "calls", calls: 51 });
    expect(received).toHaveLength(50);
    const caught = await run(
      "for (let i = 0; i < 10000; i++) { try { await api.echo({ i }); } catch (e) {} } return 'done';",
    );
    expect(caught).toMatchObject({ kind: "stopped", limit: "calls" });
    const parallel = await run(
      "await Promise.all(Array.from({ length: 10000 }, (_, i) => api.echo({ i })));",
    );
    expect(parallel).toMatchObject({ kind: "stopped", limit: "calls" });
  });

  it("a promise nothing settles ends at once, with what to do", async () => {
    // A stopped clock and a deadline of an hour: waiting for the deadline, as a program still
    // waiting for an API call does, would never end (the test's own timeout would fail it).
    const outcome = await run("await new Promise(() => {});", { timeoutMs: 3_600_000 }, testHost(), () => 0);
    expect(outcome).toMatchObject({
      kind: "threw",
      error: { message: expect.stringContaining("nothing will settle") },
    });
  });

  it("runs the next program normally after each of them", async () => {
    expect(returned(await run("return 1 + 1;"))).toBe(2);
  });
});

describe("results, errors and lines", () => {
  it.each([
    ["return { a: 1, b: [true, null] };", { a: 1, b: [true, null] }],
    ["return 42;", 42],
    ['return "text";', "text"],
    ["return [1, 2];", [1, 2]],
    ["return undefined;", undefined],
    ["const x = 1;", undefined],
    ["return (await api.echo({ id: 7 })).id * 2;", 14],
  ])("%s", async (source, want) => {
    expect(returned(await run(source))).toEqual(want);
  });

  it("captures console output in order, with levels", async () => {
    const outcome = await run('console.log("a", 1, { b: 2 }); console.warn("careful"); return null;');
    expect(outcome.logs).toEqual(['a 1 {"b":2}', "[warn] careful"]);
  });

  it("an uncaught exception gives its message and the program's line", async () => {
    const outcome = await run("const a = 1;\n\nconst pets = null;\nreturn pets.id;");
    expect(outcome).toMatchObject({ kind: "threw", error: { name: "TypeError", line: 4 } });
  });

  it("an API error throws with its status, category, the API's message and the line of the call", async () => {
    const caught = returned(
      await run(`
        try { await api.fail({ id: 9 }); }
        catch (e) { return [e.name, e.status, e.category, e.apiMessage, e.operation, e.message, e instanceof Error]; }
      `),
    );
    expect(caught).toEqual([
      "ApiError",
      404,
      "not_found",
      "no such pet",
      "fail",
      "Not found: HTTP 404 (GET /pets/9): no such pet",
      true,
    ]);
    const uncaught = await run("const x = 1;\nawait api.fail({ id: 9 });");
    expect(uncaught).toMatchObject({
      kind: "threw",
      error: { name: "ApiError", status: 404, category: "not_found", line: 2, operation: "fail" },
    });
  });

  it("a return value that is not JSON says so", async () => {
    const outcome = await run("const a = {}; a.self = a; return a;");
    expect(outcome).toMatchObject({
      kind: "threw",
      error: { message: expect.stringContaining("cannot be turned into JSON") },
    });
  });

  it("a syntax error names its line", async () => {
    const outcome = await run("const a = 1;\nconst b = ;\n");
    expect(outcome).toMatchObject({ kind: "syntax", error: { name: "SyntaxError", line: 2 } });
  });

  it("TypeScript annotations are removed, and lines still point into the program as written", async () => {
    const value = await run(
      "interface Pet { id: number; name?: string }\nconst pet: Pet = (await api.echo({ id: 3 })) as Pet;\nreturn pet.id satisfies number;",
    );
    expect(value).toMatchObject({ kind: "returned", json: "3", strippedTypes: true });
    const thrown = await run(
      "type Id = number;\ninterface Pet {\n  id: Id;\n}\n\nconst p: Pet | null = null;\nreturn p!.id;",
    );
    expect(thrown).toMatchObject({ kind: "threw", error: { name: "TypeError", line: 7 } });
  });
});

describe("the per-call byte cap (call-bytes.ts)", () => {
  it("refuses arguments over it in the sandbox: the host never gets them, the program can catch it", async () => {
    const received: { name: string; args: string }[] = [];
    const outcome = await run(
      `try { await api.echo({ blob: "x".repeat(70 * 1024) }); return "sent"; }
       catch (e) { return [e.category, e.message, await api.echo({ small: 1 })]; }`,
      {},
      testHost(received),
    );
    expect(returned(outcome)).toEqual([
      "program_limit",
      expect.stringMatching(
        /^api\.echo was not called: its arguments are 70\.0 KiB of JSON, more than the 64 KiB one call may carry \(--code-max-call-bytes\)/,
      ),
      { small: 1 },
    ]);
    expect(received.map((r) => r.args)).toEqual(['{"small":1}']);
  });

  it("counts UTF-8 bytes, not characters", async () => {
    const received: { name: string; args: string }[] = [];
    // 30,000 three-byte characters: 90,000 bytes, over 64 KiB though under it in characters.
    const outcome = await run(
      `try { await api.echo({ s: "€".repeat(30000) }); return "sent"; } catch (e) { return e.category; }`,
      {},
      testHost(received),
    );
    expect(returned(outcome)).toBe("program_limit");
    expect(received).toEqual([]);
  });
});
