/** Types of bench/fuzz-inputs.mjs (for the search fuzz test). */
import type { ToolNode } from "../src/model/types.js";
import type { OperationSearch } from "../src/runtime/discovery/search.js";

export type Case = [label: string, text: string];
export const HOSTILE_PIECES: string[];
export function createRandom(seed: number): () => number;
export function namedHostileStrings(names: readonly string[], maxNameChars?: number): Case[];
export function randomHostileStrings(
  seed: number,
  count: number,
  names: readonly string[],
  maxChars?: number,
): Case[];
export function measureCall(call: () => unknown, runs?: number): number;
export interface FuzzApi {
  createOperationSearch: (tools: ToolNode[]) => OperationSearch;
  findClosestOperations: (name: string, tools: readonly ToolNode[], search: OperationSearch) => string[];
  suggestNames: (name: string, candidates: Iterable<string>, max: number) => string[];
  // biome-ignore lint/suspicious/noExplicitAny: the validator's schema type is the runtime's own
  createArgumentValidator: (schema: any) => (args: unknown) => unknown;
}
export function fuzzResolvers(
  api: FuzzApi,
  model: { tools: ToolNode[] },
  inputs: readonly Case[],
  runs?: number,
): [target: string, label: string, ms: number][];
