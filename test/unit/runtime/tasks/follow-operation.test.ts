/**
 * Following a long-running operation (tasks/follow-operation.ts) with an injected clock and a
 * scripted upstream: the waits between status reads (Retry-After within floor and cap), the
 * poll budget in reads and in time, the final result's URL, a cancel with and without the
 * spec's DELETE, and the result that says what to call next.
 */
import type { CallToolResult } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import type { LongRunningNode, ToolNode } from "../../../../src/model/types.js";
import {
  answerAccepted,
  type Clock,
  checkOperation,
  type OperationCall,
  OperationCancelled,
} from "../../../../src/runtime/tasks/follow-operation.js";
import { nextWaitMs, resolvePollBudget } from "../../../../src/runtime/tasks/poll-budget.js";
import type { UpstreamOutcome } from "../../../../src/runtime/upstream/client.js";

const ORIGIN = "https://api.example.com";

function tool(method = "post", longRunning?: LongRunningNode): ToolNode {
  return {
    name: "startJob",
    title: "Start a job",
    description: "",
    inputSchema: { type: "object", properties: {} },
    annotations: {
      title: "",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    http: {
      method: method as ToolNode["http"]["method"],
      path: "/jobs",
      parameters: [],
      security: [],
      responses: [],
      accept: [],
      ...(longRunning ? { longRunning } : {}),
    },
    source: { pointer: "/paths/~1jobs/post" },
    tags: [],
    deprecated: false,
  };
}

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

/** A clock that only moves when the loop sleeps; records each sleep. */
function fakeClock(): Clock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

function scripted(answers: Record<string, Answer[]>, extra: Partial<OperationCall> = {}) {
  const sent: string[] = [];
  const call: OperationCall = {
    tool: tool(),
    owner: undefined,
    origin: ORIGIN,
    send: async (method, url) => {
      sent.push(`${method} ${url}`);
      const queue = answers[url] ?? [];
      const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: 404 };
      const body = Buffer.from(answer.body === undefined ? "" : JSON.stringify(answer.body));
      const outcome: UpstreamOutcome = {
        attempts: 1,
        response: {
          status: answer.status,
          statusText: "",
          headers: {
            ...(answer.body !== undefined ? { "content-type": "application/json" } : {}),
            ...answer.headers,
          },
          body,
          truncated: false,
          durationMs: 1,
        },
      };
      return outcome;
    },
    toResult: (outcome) => ({
      content: [
        {
          type: "text",
          text:
            "response" in outcome
              ? `HTTP ${outcome.response.status} ${outcome.response.body.toString()}`
              : "failure",
        },
      ],
    }),
    cancels: () => false,
    ...extra,
  };
  return { call, sent };
}

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe("nextWaitMs", () => {
  const budget = resolvePollBudget({ floorMs: 250, capMs: 60_000, intervalMs: 2_000 });
  it.each([
    [undefined, 2_000],
    [0, 250],
    [7, 7_000],
    [3600, 60_000],
  ])("Retry-After %s → %i ms", (seconds, ms) => {
    expect(nextWaitMs(seconds, budget)).toBe(ms);
  });
});

describe("answerAccepted without a wait", () => {
  it("says what to call next, with the API's Retry-After", async () => {
    const { call, sent } = scripted({});
    const result = await answerAccepted(
      call,
      { status: `${ORIGIN}/jobs/1`, header: "location", retryAfterSeconds: 5 },
      { method: "POST", url: `${ORIGIN}/jobs` },
    );
    expect(text(result)).toMatch(
      /call startJob again in about 5 s \(the API's Retry-After\) with only \{"_operation":"op2\./,
    );
    expect(result.structuredContent).toMatchObject({ operation: { state: "running", retryAfterSeconds: 5 } });
    expect(sent).toEqual([]);
  });

  it("names the status argument with one more _ when the operation has its own _operation", async () => {
    const { call } = scripted({});
    call.tool = {
      ...tool(),
      inputSchema: { type: "object", properties: { _operation: { type: "string" } } },
    };
    const result = await answerAccepted(
      call,
      { status: `${ORIGIN}/jobs/1`, header: "location" },
      { method: "POST", url: `${ORIGIN}/jobs` },
    );
    expect(text(result)).toContain('{"__operation":"op2.');
  });
});

describe("waiting (a task, a program's call)", () => {
  it("polls with the API's waits until done, then reads the final result from the Location", async () => {
    const clock = fakeClock();
    const { call, sent } = scripted(
      {
        [`${ORIGIN}/ops/1`]: [
          { status: 200, headers: { "retry-after": "3" }, body: { status: "Running" } },
          { status: 200, body: { status: "Succeeded" } },
        ],
        [`${ORIGIN}/jobs/1`]: [{ status: 200, body: { id: 1 } }],
      },
      { wait: { budget: resolvePollBudget(), clock } },
    );
    const result = await answerAccepted(
      call,
      {
        status: `${ORIGIN}/ops/1`,
        header: "operation-location",
        location: `${ORIGIN}/jobs/1`,
        retryAfterSeconds: 0,
      },
      { method: "POST", url: `${ORIGIN}/jobs` },
    );
    expect(text(result)).toBe('HTTP 200 {"id":1}');
    expect(clock.sleeps).toEqual([250, 3_000]);
    expect(sent).toEqual([`GET ${ORIGIN}/ops/1`, `GET ${ORIGIN}/ops/1`, `GET ${ORIGIN}/jobs/1`]);
  });

  it.each<[string, LongRunningNode["finalStateVia"], string, string]>([
    ["final-state-via azure-async-operation: the status body", "azure-async-operation", "PUT", "/ops/1"],
    ["final-state-via original-uri: the request's URL", "original-uri", "PUT", "/things/a"],
    ["no final-state-via, a PUT: the request's URL", undefined, "PUT", "/things/a"],
    ["no final-state-via, a POST: the Location", undefined, "POST", "/jobs/1"],
  ])("%s", async (_name, via, method, read) => {
    const { call, sent } = scripted(
      { [`${ORIGIN}/ops/1`]: [{ status: 200, body: { status: "Succeeded" } }] },
      {
        tool: tool(method.toLowerCase(), {
          statusHeaders: ["azure-asyncoperation"],
          ...(via ? { finalStateVia: via } : {}),
        }),
        wait: { budget: resolvePollBudget(), clock: fakeClock() },
      },
    );
    await answerAccepted(
      call,
      { status: `${ORIGIN}/ops/1`, header: "azure-asyncoperation", location: `${ORIGIN}/jobs/1` },
      { method, url: `${ORIGIN}/things/a` },
    );
    expect(sent.at(-1)).toBe(`GET ${ORIGIN}${read}`);
  });

  it("stops at the number of status reads, saying so, with the handle", async () => {
    const clock = fakeClock();
    const { call, sent } = scripted(
      { [`${ORIGIN}/jobs/1`]: [{ status: 202, headers: { "retry-after": "1" } }] },
      { wait: { budget: resolvePollBudget({ maxPolls: 3 }), clock } },
    );
    const result = await answerAccepted(
      call,
      { status: `${ORIGIN}/jobs/1`, header: "location" },
      { method: "POST", url: `${ORIGIN}/jobs` },
    );
    expect(sent).toHaveLength(3);
    expect(clock.sleeps).toEqual([2_000, 1_000, 1_000]);
    expect(text(result)).toMatch(
      /The bridge stopped waiting after 4 s \(its poll budget: 3 status reads, 900 s\)/,
    );
    expect(result.structuredContent).toMatchObject({ operation: { state: "running" } });
  });

  it("stops at the time budget, the last wait cut to what is left", async () => {
    const clock = fakeClock();
    const { call } = scripted(
      { [`${ORIGIN}/jobs/1`]: [{ status: 202, headers: { "retry-after": "30" } }] },
      { wait: { budget: resolvePollBudget({ maxWaitMs: 45_000 }), clock } },
    );
    await answerAccepted(
      call,
      { status: `${ORIGIN}/jobs/1`, header: "location", retryAfterSeconds: 30 },
      { method: "POST", url: `${ORIGIN}/jobs` },
    );
    expect(clock.sleeps).toEqual([30_000, 15_000]);
  });

  it("a cancelled task sends the spec's DELETE; without one, nothing", async () => {
    for (const declared of [true, false]) {
      const abort = new AbortController();
      const clock: Clock = { now: () => 0, sleep: async () => abort.abort(new OperationCancelled()) };
      const { call, sent } = scripted(
        {},
        { signal: abort.signal, cancels: () => declared, wait: { budget: resolvePollBudget(), clock } },
      );
      const result = await answerAccepted(
        call,
        { status: `${ORIGIN}/ops/9`, header: "operation-location" },
        { method: "POST", url: `${ORIGIN}/jobs` },
      );
      expect(result.isError).toBe(true);
      expect(sent).toEqual(declared ? [`DELETE ${ORIGIN}/ops/9`] : []);
      expect(text(result)).toMatch(
        declared ? /asked to stop it|asking the API to stop it failed/ : /declares no way to/,
      );
    }
  });

  it("a request cancelled by the client stops waiting without a DELETE", async () => {
    const abort = new AbortController();
    const clock: Clock = { now: () => 0, sleep: async () => abort.abort() };
    const { call, sent } = scripted(
      {},
      { signal: abort.signal, cancels: () => true, wait: { budget: resolvePollBudget(), clock } },
    );
    const result = await answerAccepted(
      call,
      { status: `${ORIGIN}/ops/9`, header: "operation-location" },
      { method: "POST", url: `${ORIGIN}/jobs` },
    );
    expect(sent).toEqual([]);
    expect(text(result)).toMatch(/may still be running at the API/);
  });
});

describe("checkOperation", () => {
  it("refuses a handle of another owner", async () => {
    const { call } = scripted({});
    const accepted = await answerAccepted(
      { ...call, owner: "session a" },
      { status: `${ORIGIN}/jobs/1`, header: "location" },
      { method: "POST", url: `${ORIGIN}/jobs` },
    );
    const handle = (accepted.structuredContent as { operation: { handle: string } }).operation.handle;
    const refused = await checkOperation({ ...call, owner: "session b" }, handle);
    expect(text(refused)).toMatch(/given to another session or user/);
    const read = await checkOperation({ ...call, owner: "session a" }, handle);
    expect(text(read)).toMatch(/HTTP 404/);
  });
});
