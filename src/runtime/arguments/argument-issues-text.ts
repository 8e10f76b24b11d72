/**
 * The text of a refused call, one wording for every refusal: the schema check's issues and an
 * argument the request builder cannot put on the wire read alike. Its own file, free of Ajv, so
 * the call pipeline imports it without loading the validator.
 */

export interface ArgumentIssue {
  /** Top-level argument name, a path such as `filter.status` or `tags[2]`, or `(root)`. */
  argument: string;
  message: string;
}

/**
 * Model-readable text: one line per bad argument, then a line asking for a corrected call.
 */
export function formatArgumentIssues(toolName: string, issues: readonly ArgumentIssue[]): string {
  const grouped = new Map<string, string[]>();
  for (const { argument, message } of issues) {
    const messages = grouped.get(argument);
    if (!messages) grouped.set(argument, [message]);
    else if (!messages.includes(message)) messages.push(message);
  }
  const lines = [`Invalid arguments for tool ${toolName}:`];
  for (const [argument, messages] of grouped) lines.push(`- ${argument}: ${messages.join("; ")}`);
  lines.push(`Fix the arguments listed above and call ${toolName} again.`);
  return lines.join("\n");
}
