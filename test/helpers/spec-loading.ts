/** Loading the fixtures of fixtures/load in tests: paths, texts, stdin, and a load expected to fail. */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { expect } from "vitest";
import { type LoadOptions, loadSpec } from "../../src/generator/spec/load-spec.js";
import { BridgeError } from "../../src/model/diagnostics.js";
import type { Diagnostic } from "../../src/model/types.js";

export const FIXTURES = resolve(import.meta.dirname, "../../fixtures/load");
export const fixture = (name: string) => join(FIXTURES, name);
export const text = (name: string) => readFileSync(fixture(name), "utf8");
export const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

/** Loads and expects a BridgeError; returns its diagnostics. */
export async function failure(source: string, options?: LoadOptions): Promise<Diagnostic[]> {
  const error = await loadSpec(source, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeError);
  expect((error as Error).message).not.toMatch(STACK_LINE);
  return (error as BridgeError).diagnostics;
}

export function stdin(content: string): LoadOptions {
  return { stdin: Readable.from([Buffer.from(content)]) };
}
