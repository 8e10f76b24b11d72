/** Types of bench/fuzz-inputs.mjs (for the search fuzz test). */
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
  createOperationSearch: (tools: any[]) => {
    search(query: string, options?: Record<string, unknown>): unknown[];
  };
  findClosestOperations: (name: string, tools: any[], search: any) => string[];
  suggestNames: (name: string, candidates: Iterable<string>, max: number) => string[];
  createArgumentValidator: (schema: any) => (args: unknown) => unknown;
}
export function fuzzResolvers(
  api: FuzzApi,
  model: { tools: any[] },
  inputs: readonly Case[],
  runs?: number,
): [target: string, label: string, ms: number][];
