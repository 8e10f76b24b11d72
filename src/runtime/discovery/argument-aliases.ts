/**
 * Other names for the mode tools' own arguments. Agents used to other servers (and to their own
 * habits) write `operation` for call_operation's `name`, `operations` for describe's `names`,
 * `q` for search's `query`, `code` for execute's `program`; refusing them costs a round trip and
 * teaches nothing. A given name is read as its argument only when that argument is absent and
 * exactly one of its other names is given: two candidates are the model's to settle, and the
 * refusal that follows names both.
 */
import { isRecord } from "../../model/records.js";

/** Per mode tool: argument -> the other names read as it, most common first. */
const ALIASES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  search_operations: {
    query: ["q", "search", "text", "keywords", "task", "intent"],
    limit: ["max_results", "maxResults", "top_k", "topK"],
  },
  describe_operations: {
    names: [
      "operations",
      "operation",
      "name",
      "operationIds",
      "operationId",
      "operation_ids",
      "ids",
      "tools",
    ],
  },
  call_operation: {
    name: ["operation", "operationId", "operation_id", "operation_name", "tool", "method_name"],
    arguments: ["args", "params", "parameters", "input"],
  },
  execute: { program: ["code", "script", "source"] },
};

/**
 * The arguments with other names read as their arguments (a new object; the given one when
 * nothing was renamed). Only the mode tools' own arguments: an operation's are the API's.
 */
export function readArgumentAliases(tool: string, args: unknown): unknown {
  const table = ALIASES[tool];
  if (table === undefined || !isRecord(args)) return args;
  let read: Record<string, unknown> | undefined;
  for (const [argument, aliases] of Object.entries(table)) {
    if (Object.hasOwn(args, argument)) continue;
    const given = aliases.filter((alias) => Object.hasOwn(args, alias) && !Object.hasOwn(table, alias));
    if (given.length !== 1) continue;
    const alias = given[0]!;
    read ??= { ...args };
    read[argument] = read[alias];
    delete read[alias];
  }
  return read ?? args;
}
