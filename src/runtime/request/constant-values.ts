/**
 * A tool's constant parameters (the model's `constant`: a required parameter with one allowed
 * value, no argument) as values the request builder reads like arguments, and the `fill` of a
 * required parameter with a default that the call left out. Each constant gets a key no
 * argument can have (a NUL first), so a body property of the same name keeps its own value.
 */
import type { ParameterBindingNode, ToolNode } from "../../model/types.js";

export interface ParameterValues {
  parameters: ParameterBindingNode[];
  args: Record<string, unknown>;
}

/** Bindings of constants rekeyed once per binding list: a runtime serves the same lists. */
const rekeyed = new WeakMap<ParameterBindingNode[], ParameterBindingNode[]>();

/** The bindings and values to build the request from: the arguments, and the constants. */
export function withConstantValues(tool: ToolNode, given: Record<string, unknown>): ParameterValues {
  const { parameters } = tool.http;
  const args = withFills(parameters, given);
  if (!parameters.some((binding) => binding.constant !== undefined)) return { parameters, args };
  let bindings = rekeyed.get(parameters);
  if (bindings === undefined) {
    bindings = parameters.map((binding) =>
      binding.constant === undefined ? binding : { ...binding, argument: constantKey(binding) },
    );
    rekeyed.set(parameters, bindings);
  }
  const values: Record<string, unknown> = { ...args };
  for (const binding of parameters)
    if (binding.constant !== undefined) values[constantKey(binding)] = binding.constant;
  return { parameters: bindings, args: values };
}

/** The arguments with each left-out parameter's `fill` (a required one's default). */
function withFills(
  parameters: ParameterBindingNode[],
  args: Record<string, unknown>,
): Record<string, unknown> {
  const missing = parameters.filter(
    (binding) => binding.fill !== undefined && args[binding.argument] === undefined,
  );
  if (missing.length === 0) return args;
  const values: Record<string, unknown> = { ...args };
  for (const binding of missing) values[binding.argument] = binding.fill;
  return values;
}

function constantKey(binding: ParameterBindingNode): string {
  return `\u0000${binding.in}:${binding.name}`;
}
