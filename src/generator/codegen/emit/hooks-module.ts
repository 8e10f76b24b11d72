/**
 * `src/hooks.ts`, the generated project's one file that is the user's: generation writes it
 * once, when it is missing, and never changes or deletes it afterwards (`generate --force`
 * included, see write-project.ts), so the hooks in it survive every regeneration. It is typed by
 * `ToolHooksByName` (src/tools/index.ts): a tool that is renamed or removed from the spec makes
 * the project fail to type-check at its entry, instead of its hook silently no longer running.
 */
import type { GeneratedFile } from "../write-project.js";

export const HOOKS_FILE = "src/hooks.ts";

/** The seed: no hook yet, and an example for the first tool in a comment. */
export function emitHooksSeed(toolNames: string[]): GeneratedFile {
  const first = toolNames[0];
  const key =
    first === undefined ? "someTool" : /^[A-Za-z_$][\w$]*$/.test(first) ? first : JSON.stringify(first);
  const contents = `/**
 * Your hooks, by tool name. \`generate\` wrote this file because it was missing and will never
 * change or delete it (\`--force\` included): what you write here survives regeneration.
 *
 * \`beforeCall(args)\` gets a tool's arguments after validation and returns the arguments to
 * send; \`afterCall(result, args)\` gets the result (a success or an upstream error) and returns
 * the result to give back. Configured secrets are still redacted after it. A hook that throws
 * gives an error result. Each tool's \`Args\` type is in its module in \`src/tools/\`.
 */
import type { ToolHooksByName } from "./tools/index.js";

export const hooks: ToolHooksByName = {
  // ${key}: {
  //   beforeCall(args) {
  //     return args;
  //   },
  //   afterCall(result) {
  //     return result;
  //   },
  // },
};
`;
  return { path: HOOKS_FILE, contents, seed: true };
}
