/**
 * Long-running operations through the built CLI (tasks/): a 202 with a status URL, in each
 * header style, answered with what to call next and finished by the documented status call
 * (every client, both protocol eras); as a task for a client that negotiated tasks (2025-11-25
 * through the 1.x SDK's task client, 2026-07-28 over the wire): status, result, cancel; upstream
 * failures and a poll budget spent become clear results.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, fixture, type SpawnedConnected, textOf } from "../helpers/bridge.js";
import { type JobsApi, startJobsApi } from "../helpers/jobs-api.js";

const SPEC = fixture("long-running", "openapi.yaml");

let api: JobsApi;
let bridge: SpawnedConnected;

beforeAll(async () => {
  api = await startJobsApi();
  bridge = await connectStdio(SPEC, ["--base-url", `${api.url}/api`, "--auth", "key=sekrit-key-123"]);
});

afterAll(async () => {
  await bridge?.close();
  await api?.close();
});

function handleOf(result: { structuredContent?: unknown }): string {
  const operation = (result.structuredContent as { operation?: { handle?: string } } | undefined)?.operation;
  if (typeof operation?.handle !== "string") throw new Error(`no handle in ${JSON.stringify(result)}`);
  return operation.handle;
}

/** Calls the status until it is no longer running (at most `max` calls). */
async function follow(tool: string, handle: string, max = 6) {
  for (let i = 0; i < max; i++) {
    const result = await bridge.call(tool, { _operation: handle });
    if ((result.structuredContent as { operation?: unknown } | undefined)?.operation === undefined) {
      return { result, calls: i + 1 };
    }
    handle = handleOf(result);
  }
  throw new Error("still running");
}

describe("without tasks: the documented next call", () => {
  it("Location: accepted, then the status call returns the export", async () => {
    const accepted = await bridge.call("startExport", { name: "a" });
    expect(accepted.isError).toBeFalsy();
    expect(textOf(accepted)).toMatch(
      /accepted startExport .*call startExport again with only \{"_operation":/,
    );
    const { result, calls } = await follow("startExport", handleOf(accepted));
    expect(calls).toBe(3);
    expect(result.structuredContent ?? JSON.parse(textOf(result))).toMatchObject({ rows: 3 });
    // Status reads carry the credential, to the API's own origin.
    const reads = api.upstream.requests.filter((r) => r.rawPath.endsWith("/status"));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.header("x-api-key") === "sekrit-key-123")).toBe(true);
  });
});
