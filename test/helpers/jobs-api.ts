/**
 * A recording upstream of long-running operations (fixtures/long-running/openapi.yaml), one per
 * header style: `POST /api/exports` answers 202 with a relative `Location` that answers 202 while
 * running and the export when done; `POST /api/analyses` a 202 with an absolute
 * `Operation-Location` whose body says `Running`, then `Succeeded` with the result (or `Failed`);
 * `PUT /api/vms/{name}` a 201 with `Azure-AsyncOperation` (final-state-via original-uri: the
 * machine is read from its own URL); `POST /api/reports` a 202 the spec does not announce.
 * Each status says "running" `runningPolls` times, then the end. A body name or text of
 * `forever` never ends, `fail` fails, `elsewhere` names a status on another origin, and `wait`
 * asks for Retry-After: 7. `DELETE /api/operations/{id}` is recorded (the spec's cancel).
 */
import type { ServerResponse } from "node:http";
import { sendJson, startUpstream, type Upstream } from "./upstream.js";

export interface JobsApi {
  upstream: Upstream;
  url: string;
  /** Status reads per operation id. */
  polls: Map<string, number>;
  /** The id the next operation started will have. */
  nextId(): string;
  /** Resolves when operation `id` has been polled `count` times. */
  polled(id: string, count: number): Promise<void>;
  close(): Promise<void>;
}

/** A status body, with `Retry-After: 0` (the bridge waits its floor, not its default interval). */
function sendStatus(res: ServerResponse, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(200, {
    "content-type": "application/json",
    "retry-after": "0",
    "content-length": body.length,
  });
  res.end(body);
}

export async function startJobsApi(runningPolls = 2): Promise<JobsApi> {
  const polls = new Map<string, number>();
  const kinds = new Map<string, string>();
  const waiters: { id: string; count: number; resolve(): void }[] = [];
  let next = 0;
  let base = "";
  const start = (kind: string) => {
    const id = `op${++next}`;
    kinds.set(id, kind);
    return id;
  };
  const poll = (id: string) => {
    const count = (polls.get(id) ?? 0) + 1;
    polls.set(id, count);
    for (const waiter of [...waiters]) {
      if (waiter.id === id && count >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    const kind = kinds.get(id) ?? "";
    return { count, kind, running: kind === "forever" || count <= runningPolls };
  };
  const retryAfter = (kind: string) => (kind === "wait" ? "7" : "0");
  const upstream = await startUpstream((req, res) => {
    const path = req.rawPath;
    const body = req.body.length > 0 ? (req.json() as Record<string, unknown>) : {};
    const word = String(body.name ?? body.text ?? "");
    const exportStatus = path.match(/^\/api\/exports\/(\w+)\/status$/);
    const operation = path.match(/^\/api\/operations\/(\w+)$/);
    const vm = path.match(/^\/api\/vms\/(\w+)$/);
    const azureOperation = path.match(/^\/api\/azops\/(\w+)$/);
    if (req.method === "POST" && (path === "/api/exports" || path === "/api/reports")) {
      const id = start(word);
      res.writeHead(202, { location: `/api/exports/${id}/status`, "retry-after": retryAfter(word) });
      res.end();
    } else if (req.method === "GET" && exportStatus) {
      const state = poll(exportStatus[1]!);
      if (state.running) {
        res.writeHead(202, { "retry-after": retryAfter(state.kind) });
        res.end();
      } else sendJson(res, 200, { id: exportStatus[1], rows: 3, file: "export.csv" });
    } else if (req.method === "POST" && path === "/api/analyses") {
      const id = start(word);
      const host = word === "elsewhere" ? base.replace("127.0.0.1", "localhost") : base;
      res.writeHead(202, { "operation-location": `${host}/api/operations/${id}`, "retry-after": "0" });
      res.end();
    } else if (req.method === "GET" && operation) {
      const state = poll(operation[1]!);
      if (state.running) sendStatus(res, { status: "Running", percentComplete: 50 });
      else if (state.kind === "fail")
        sendStatus(res, { status: "Failed", error: { code: "QuotaExceeded", message: "quota exceeded" } });
      else sendStatus(res, { status: "Succeeded", result: { words: 2, language: "en" } });
    } else if (req.method === "DELETE" && path.startsWith("/api/operations/")) {
      res.writeHead(204);
      res.end();
    } else if (req.method === "PUT" && vm) {
      const id = start(vm[1]!);
      res.writeHead(201, { "azure-asyncoperation": `${base}/api/azops/${id}`, "retry-after": "0" });
      res.end();
    } else if (req.method === "GET" && azureOperation) {
      const state = poll(azureOperation[1]!);
      sendStatus(res, { status: state.running ? "InProgress" : "Succeeded" });
    } else if (req.method === "GET" && vm) {
      sendJson(res, 200, { name: vm[1], provisioningState: "Succeeded" });
    } else {
      sendJson(res, 404, { message: `no ${req.method} ${path}` });
    }
  });
  base = upstream.url;
  return {
    upstream,
    url: upstream.url,
    polls,
    nextId: () => `op${next + 1}`,
    polled: (id, count) =>
      new Promise((resolve) => {
        if ((polls.get(id) ?? 0) >= count) resolve();
        else waiters.push({ id, count, resolve });
      }),
    close: () => upstream.close(),
  };
}
