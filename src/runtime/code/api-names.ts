/**
 * The names a program calls operations by. A tool name is `[A-Za-z0-9_-]`, so `api.<name>` is
 * valid JavaScript only for some (`list-pets` and `3dSecure` are not): each operation gets a
 * method name that is an identifier, its tool name when that is one already, else the tool
 * name in camelCase (`list-pets` → `listPets`), never one another operation has. Signatures
 * show the method name; the original stays callable as `api["list-pets"]`.
 */
import type { ToolNode } from "../../model/types.js";
import { createOperationLookup } from "../discovery/operation-lookup.js";
import { toIdentifier } from "./identifiers.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export interface ApiNames {
  /** The method name of an operation, by its tool name. */
  methodOf(name: string): string;
  /**
   * The operation a program names: by method name or tool name, or a name that is one of them
   * without case and separators (discovery/operation-lookup.ts).
   */
  resolve(name: string): ToolNode | undefined;
}

export function planApiNames(tools: readonly ToolNode[]): ApiNames {
  const findTool = createOperationLookup(tools);
  const taken = new Set(tools.map((tool) => tool.name).filter((name) => IDENTIFIER.test(name)));
  const methods = new Map<string, string>();
  const byMethod = new Map<string, ToolNode>();
  for (const tool of tools) {
    if (IDENTIFIER.test(tool.name)) continue;
    const method = toIdentifier(tool.name, taken);
    methods.set(tool.name, method);
    byMethod.set(method, tool);
  }
  return {
    methodOf: (name) => methods.get(name) ?? name,
    resolve: (name) => byMethod.get(name) ?? findTool(name),
  };
}
