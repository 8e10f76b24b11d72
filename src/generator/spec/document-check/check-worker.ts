/**
 * Worker thread entry (see background.ts): parses the spec's JSON text it is started with, then
 * validates it (or the document it is sent instead) and posts the problems found.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ValidationJob, ValidationReply, WorkerStart } from "./background-check.js";
import { validateDocument } from "./check-document.js";

const start = workerData as WorkerStart;
let parsed: { value: unknown } | { error: string } | undefined;
if (start.text !== undefined) {
  try {
    parsed = { value: JSON.parse(start.text) };
  } catch (error) {
    parsed = { error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.once("message", (job: ValidationJob) => {
  let reply: ValidationReply;
  try {
    let doc: unknown;
    if ("document" in job) doc = job.document;
    else if (parsed && "value" in parsed) doc = parsed.value;
    else throw new Error(parsed?.error ?? "no document to validate");
    reply = { diagnostics: validateDocument(doc, job.version, job.file) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
  parentPort?.close();
});
