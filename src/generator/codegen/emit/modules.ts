/**
 * The printed modules of a generated project as jobs: plain data (structured-clone safe, no
 * class instances), so that a worker thread can turn each into its ModuleSpec and print it,
 * exactly as this thread would. One job per tool module, plus the tools index, `api.ts`, the
 * search index and the runtime's `version.ts`.
 */
import type { BridgeModel, SearchIndexNode, ToolNode } from "../../../model/types.js";
import type { ModuleSpec } from "../print/module-spec.js";
import type { Printer } from "../print/printer.js";
import { emitApiModule, emitToolsIndex, type ToolModuleRef } from "./api-modules.js";
import { emitRuntimeVersion } from "./runtime.js";
import { emitSearchIndexModule } from "./search-index.js";
import { emitToolModule } from "./tool-module.js";

/** What the project-wide modules read from the model: everything but the tools and diagnostics. */
export type ModelHead = Pick<BridgeModel, "info" | "servers" | "securitySchemes">;

export type ModuleJob =
  | { kind: "tool"; path: string; tool: ToolNode }
  | { kind: "tools-index"; path: string; modules: ToolModuleRef[] }
  | { kind: "api"; path: string }
  | { kind: "search-index"; path: string; index: SearchIndexNode }
  | { kind: "version"; path: string; packageName: string; version: string };

export function toModelHead(model: BridgeModel): ModelHead {
  return { info: model.info, servers: model.servers, securitySchemes: model.securitySchemes };
}

/** The ModuleSpec a job prints. */
export function emitModule(job: ModuleJob, head: ModelHead): ModuleSpec {
  switch (job.kind) {
    case "tool":
      return emitToolModule(job.tool);
    case "tools-index":
      return emitToolsIndex(head, job.modules);
    case "api":
      return emitApiModule(head);
    case "search-index":
      return emitSearchIndexModule(job.index);
    case "version":
      return emitRuntimeVersion(job.packageName, job.version);
  }
}

/** Prints the jobs with one printer, in order; the same code in a worker thread and in this one. */
export function printModules(printer: Printer, head: ModelHead, jobs: ModuleJob[]): string[] {
  return jobs.map((job) => printer.printModule(job.path, emitModule(job, head)));
}
