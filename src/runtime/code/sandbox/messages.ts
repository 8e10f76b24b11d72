/** The messages between the pool (main thread) and a sandbox worker (worker.ts). */
import type { ProgramOutcome } from "./engine.js";
import type { SandboxLimits } from "./limits.js";

export type ToWorker =
  | { type: "run"; run: number; source: string; limits: SandboxLimits }
  | { type: "answer"; call: number; answer: string };

export type FromWorker =
  | { type: "call"; run: number; call: number; name: string; args: string }
  | { type: "done"; run: number; outcome: ProgramOutcome; memoryBytes: number }
  | { type: "failed"; run: number; message: string };
