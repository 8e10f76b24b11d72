/**
 * The bridge's own arguments of an operation call, beside the operation's: `_fields` (only
 * these fields of the answer, project-fields.ts) and `_continue` (the next part of a cut answer,
 * continuation.ts). Any name can be an operation's own argument (argument names keep the spec's
 * wire names), so on a clash the operation keeps its argument and the bridge's takes one more
 * leading underscore for that operation (`__fields`); the cut marker names the one to use.
 * Discovery mode's call_operation and code mode's `api.<name>(args, { fields })` carry them
 * outside the operation's arguments, where nothing can clash.
 */
import { isRecord } from "../../model/records.js";
import type { ToolNode } from "../../model/types.js";

export const RESERVED_ARGUMENTS = { fields: "_fields", continue: "_continue" } as const;

export interface ResultArgumentNames {
  fields: string;
  continue: string;
}

/** The names of the bridge's own arguments for this operation: the plain ones unless taken. */
export function nameResultArguments(tool: ToolNode): ResultArgumentNames {
  const properties = isRecord(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const free = (base: string) => {
    let name = base;
    while (Object.hasOwn(properties, name)) name = `_${name}`;
    return name;
  };
  return { fields: free(RESERVED_ARGUMENTS.fields), continue: free(RESERVED_ARGUMENTS.continue) };
}

/** The operation's arguments without the bridge's own, and those (as sent). */
export function takeResultArguments(
  names: ResultArgumentNames,
  rawArgs: unknown,
): { args: unknown; fields?: unknown; continuation?: unknown } {
  if (
    !isRecord(rawArgs) ||
    !(Object.hasOwn(rawArgs, names.fields) || Object.hasOwn(rawArgs, names.continue))
  ) {
    return { args: rawArgs };
  }
  const { [names.fields]: fields, [names.continue]: continuation, ...args } = rawArgs;
  return {
    args,
    ...(fields !== undefined ? { fields } : {}),
    ...(continuation !== undefined ? { continuation } : {}),
  };
}
