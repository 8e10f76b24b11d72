/**
 * Every tool's input schema compiled once when the model is built, as a call would compile it
 * (the runtime's Ajv options): a schema that does not compile (a spec served with --no-validate,
 * or a slip no repair could read) makes its tool unusable, and the operator hears of it at
 * start-up, in `tools` and in `lint` rather than from the model's first call. The tool stays
 * listed: a call of it answers operation_unavailable (runtime/engine/call-pipeline.ts). Only
 * the schemas Ajv could refuse are compiled (compile-risks.ts): the others compile at their
 * first call, as every schema does.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { createDiagnostic } from "../../model/diagnostics.js";
import type { Diagnostic, ToolNode } from "../../model/types.js";
import { INPUT_AJV_OPTIONS } from "../../runtime/arguments/input-ajv-options.js";
import { mayFailToCompile } from "./compile-risks.js";
import { readUnsharedInputSchema } from "./lazy-fields.js";

/** An Ajv instance keeps what it compiled; a fresh one after this many keeps the memory flat. */
const COMPILES_PER_AJV = 200;

/** One OMB_TOOL_UNUSABLE warning per tool whose input schema does not compile. */
export function checkInputSchemas(tools: readonly ToolNode[], file: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let ajv: Ajv2020 | undefined;
  let compiled = 0;
  // Nothing changes the schemas while they are checked: each `$defs` object is judged once.
  const verdicts = new Map<object, boolean>();
  for (const tool of tools) {
    // A schema not yet shared (lazy-fields.ts) is walked as planned: sharing only puts a
    // repeated subtree in `$defs` once, under a name of plain characters (shared-schemas.ts
    // freeName), and a `#/$defs/<name>` reference in its places. Every node of the shared schema
    // is then a node of the planned one, at the same depth or less, or such a reference, which
    // the walk passes and whose name the root's `$defs` holds. So a schema the walk passes
    // planned, it passes shared too: only the others are shared now, and walked as before.
    const unshared = readUnsharedInputSchema(tool);
    if (unshared !== undefined && !mayFailToCompile(unshared, verdicts)) continue;
    if (!mayFailToCompile(tool.inputSchema, verdicts)) continue;
    if (ajv === undefined || compiled >= COMPILES_PER_AJV) {
      // Whether a schema compiles does not depend on how well its code is optimised.
      ajv = new Ajv2020({
        ...INPUT_AJV_OPTIONS,
        allErrors: false,
        verbose: false,
        code: { ...INPUT_AJV_OPTIONS.code, optimize: false },
      });
      compiled = 0;
    }
    compiled += 1;
    try {
      ajv.compile(tool.inputSchema);
    } catch (error) {
      diagnostics.push(
        createDiagnostic(
          "OMB_TOOL_UNUSABLE",
          `tool ${tool.name} cannot be called: its input schema does not compile (${(error as Error).message}); it stays listed, and a call of it answers operation_unavailable`,
          { file, pointer: tool.source.pointer, tool: tool.name },
        ),
      );
    } finally {
      ajv.removeSchema(tool.inputSchema);
    }
  }
  return diagnostics;
}
