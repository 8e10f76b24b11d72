/**
 * The names a program calls operations by. A tool name is `[A-Za-z0-9_-]`, so `api.<name>` is
 * valid JavaScript only for some (`list-pets` and `3dSecure` are not): each operation gets a
 * method name that is an identifier, its tool name when that is one already, else the tool
 * name in camelCase (`list-pets` → `listPets`), never one another operation has. Signatures
 * show the method name; the original stays callable as `api["list-pets"]`.
 */
import type { ToolNode } from "../../model/types.js";
import { toIdentifier } from "./identifiers.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export interface ApiNames {
  /** The method name of an operation, by its tool name. */
  methodOf(name: string): string;
  /** The operation a program names: by tool name or method name. */
  resolve(name: string): ToolNode | undefined;
}

export function planApiNames(tools: readonly ToolNode[]): ApiNames {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
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
    resolve: (name) => byName.get(name) ?? byMethod.get(name),
  };
}
