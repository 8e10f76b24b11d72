/**
 * The server's `instructions` (the initialize result): which API, how its operations are
 * reached in the served mode, and the first paragraph of the spec's own description.
 */

import { formatCount } from "../../model/format-count.js";
import { EXECUTE_TOOL } from "../code/code-tools.js";
import { CALL_TOOL, DESCRIBE_TOOL, nameApi, SEARCH_TOOL } from "../discovery/discovery-tools.js";
import { clip } from "../results/body-text.js";
import { FIELD_SYNTAX } from "../results/project-fields.js";
import type { ServedRuntime } from "./served-runtime.js";

/** Room for the spec's description: a client puts instructions in every session's context. */
const MAX_DESCRIPTION_CHARS = 300;

/** The instructions for the runtime's model in its mode. */
export function describeServer(runtime: Pick<ServedRuntime, "model" | "mode">): string {
  const { model } = runtime;
  // The spec's description was cleaned when the model was planned (HTML and markdown gone);
  // its first paragraph says what the API is for.
  const lead = model.info.description?.trim().split("\n")[0] ?? "";
  const description = lead !== "" ? ` ${clip(lead, MAX_DESCRIPTION_CHARS)}` : "";
  const api = `${nameApi(model.info.title)}${model.info.version ? ` (version ${model.info.version})` : ""}`;
  if (runtime.mode.mode === "code") {
    return (
      `Tools for ${api}, whose ${formatCount(model.tools.length)} HTTP operations are called from JavaScript programs: ` +
      `${SEARCH_TOOL} finds the operations for a task with their TypeScript signatures, ${DESCRIBE_TOOL} gives full declarations, ` +
      `${EXECUTE_TOOL} runs a program that calls them as \`await api.<method>(args)\`, by the method name in their signatures, and returns what it computes.${description}`
    );
  }
  if (runtime.mode.mode === "discovery") {
    return (
      `Tools for ${api}, whose ${formatCount(model.tools.length)} HTTP operations are reached through three tools: ` +
      `${SEARCH_TOOL} finds the operations for a task, ${DESCRIBE_TOOL} gives their arguments, ${CALL_TOOL} calls one.${description}`
    );
  }
  return (
    `Tools for ${api}: each tool is one HTTP operation. ` +
    `Beside its arguments, a tool takes "_fields" (${FIELD_SYNTAX}) to answer with only those fields.${description}`
  );
}
