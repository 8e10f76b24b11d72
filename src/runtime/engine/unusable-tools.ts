/**
 * Operations the bridge cannot validate (their input schema does not compile: a spec served
 * leniently with a slip no repair reads, OMB_TOOL_UNUSABLE at plan time) are served saying so:
 * each one's title says it is unavailable and why, and its description starts with that and
 * what to do, so tools/list,
 * discovery's and code mode's search and describe show it before the model tries; a call still
 * answers operation_unavailable (engine/call-pipeline.ts), never a protocol error.
 */
import type { BridgeModel } from "../../model/types.js";

const UNUSABLE_CODE = "OMB_TOOL_UNUSABLE";
/** The reason inside the diagnostic's message (generator/compile/input-schema-check.ts). */
const REASON = /does not compile \((.*)\); it stays listed/s;

/** Characters of the reason a title carries. */
const MAX_TITLE_REASON = 80;

/** The model with each unusable tool's description saying so; the same object when none is. */
export function markUnusableTools(model: BridgeModel): BridgeModel {
  const reasons = new Map<string, string>();
  for (const diagnostic of model.diagnostics) {
    if (diagnostic.code !== UNUSABLE_CODE || diagnostic.tool === undefined) continue;
    reasons.set(diagnostic.tool, REASON.exec(diagnostic.message)?.[1] ?? "its input schema does not compile");
  }
  if (reasons.size === 0) return model;
  let changed = false;
  const tools = model.tools.map((tool) => {
    const reason = reasons.get(tool.name);
    if (reason === undefined) return tool;
    changed = true;
    const note = unavailableNote(reason);
    // The title is what a search result line shows: it says so too, with the reason.
    const short = reason.length > MAX_TITLE_REASON ? `${reason.slice(0, MAX_TITLE_REASON - 1)}…` : reason;
    return {
      ...tool,
      title: `${tool.title} (unavailable: ${short})`,
      description: tool.description === "" ? note : `${note}\n\n${tool.description}`,
    };
  });
  return changed ? { ...model, tools } : model;
}

/** What the model reads first about an operation it cannot call. */
export function unavailableNote(reason: string): string {
  return (
    `Unavailable: the spec describes this operation's arguments in a way the bridge cannot check (${reason}), ` +
    "so a call fails without reaching the API. Use another operation, or tell the user the spec needs fixing."
  );
}
