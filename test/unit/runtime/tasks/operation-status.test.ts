/**
 * Reading long-running operations from answers (tasks/operation-status.ts), table-driven: which
 * answers accepted an operation and where its status is, and what a status answer says.
 */
import { describe, expect, it } from "vitest";
import type { LongRunningNode, ToolNode } from "../../../../src/model/types.js";
import {
  signOperationHandle,
  verifyOperationHandle,
} from "../../../../src/runtime/tasks/operation-handle.js";
import { findAcceptedOperation, readStatusAnswer } from "../../../../src/runtime/tasks/operation-status.js";

const URL = "https://api.example.com/v1/jobs";
const tool = (longRunning?: LongRunningNode) =>
  ({ http: longRunning ? { longRunning } : {} }) as unknown as ToolNode;

describe("findAcceptedOperation", () => {
  it.each<[string, number, Record<string, string>, LongRunningNode | undefined, unknown]>([
    ["a 200 is no operation", 200, { location: "/x" }, undefined, undefined],
    ["a 202 without a status header", 202, {}, undefined, undefined],
    [
      "a 202 with a relative Location",
      202,
      { location: "jobs/1/status" },
      undefined,
      { status: "https://api.example.com/v1/jobs/1/status", header: "location" },
    ],
    [
      "Azure's header first, the Location kept",
      202,
      { location: "/r", "azure-asyncoperation": "https://api.example.com/ops/1", "retry-after": "4" },
      undefined,
      {
        status: "https://api.example.com/ops/1",
        header: "azure-asyncoperation",
        location: "https://api.example.com/r",
        retryAfterSeconds: 4,
      },
    ],
    [
      "a 201 of an operation the spec does not call long-running",
      201,
      { "operation-location": "/ops/1" },
      undefined,
      undefined,
    ],
    [
      "a 201 with an Operation-Location of a declared operation",
      201,
      { "operation-location": "/ops/1", location: "/things/1" },
      { statusHeaders: ["operation-location"] },
      {
        status: "https://api.example.com/ops/1",
        header: "operation-location",
        location: "https://api.example.com/things/1",
      },
    ],
    [
      "a 201 with only a Location is the created resource",
      201,
      { location: "/things/1" },
      { statusHeaders: ["operation-location"] },
      undefined,
    ],
    ["not http(s)", 202, { location: "file:///etc/passwd" }, undefined, undefined],
  ])("%s", (_name, status, headers, declared, want) => {
    expect(findAcceptedOperation(tool(declared), { status, headers }, URL)).toEqual(want);
  });
});

describe("readStatusAnswer", () => {
  const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) => ({
    status,
    statusText: "",
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: Buffer.from(body === undefined ? "" : JSON.stringify(body)),
    truncated: false,
    durationMs: 1,
  });
  it.each<[string, ReturnType<typeof answer>, unknown]>([
    [
      "a 202 is still running",
      answer(202, undefined, { "retry-after": "2" }),
      { state: "running", words: "still running (HTTP 202)", retryAfterSeconds: 2 },
    ],
    [
      "Running with a percentage",
      answer(200, { status: "Running", percentComplete: 40 }),
      { state: "running", words: 'status "Running", 40% done', percent: 40 },
    ],
    ["NotStarted", answer(200, { status: "NotStarted" }), { state: "running", words: 'status "NotStarted"' }],
    [
      "Succeeded with a resourceLocation",
      answer(200, { status: "Succeeded", resourceLocation: "/things/1" }),
      {
        state: "succeeded",
        body: { status: "Succeeded", resourceLocation: "/things/1" },
        resourceLocation: "https://api.example.com/things/1",
      },
    ],
    [
      "a provisioningState",
      answer(200, { properties: { provisioningState: "Failed" } }),
      { state: "failed", words: 'status "Failed"' },
    ],
    [
      "Failed with the API's message",
      answer(200, { status: "Failed", error: { message: "quota" } }),
      { state: "failed", words: 'status "Failed"', message: "quota" },
    ],
    ["Canceled", answer(200, { status: "Canceled" }), { state: "cancelled", words: 'status "Canceled"' }],
    ["a body without a status is the result", answer(200, { id: 1 }), { state: "final" }],
    ["an error status", answer(404, { message: "gone" }), { state: "error" }],
  ])("%s", (_name, response, want) => {
    expect(readStatusAnswer(response, URL)).toEqual(want);
  });
});

describe("operation handles", () => {
  const payload = { tool: "startJob", status: "https://api.example.com/ops/1", header: "location" };
  it("expire", () => {
    const handle = signOperationHandle(payload, 0);
    expect(verifyOperationHandle(handle, { tool: "startJob", owner: undefined }, 1_000)).toMatchObject({
      payload,
    });
    expect(verifyOperationHandle(handle, { tool: "startJob", owner: undefined }, 2 * 86_400_000)).toEqual({
      refused: "the handle has expired",
    });
  });
});
