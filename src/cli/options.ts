/** Shared CLI option parsing: flags map onto the library's option objects. */
import { readFile } from "node:fs/promises";
import { type Command, InvalidArgumentError } from "commander";
import { buildModel } from "../generator/build.js";
import { failWith } from "../model/diagnostics.js";
import { isModelDocument, parseModel } from "../model/serialize.js";
import type { BridgeModel } from "../model/types.js";

export interface SpecFlags {
  allowNetworkRefs?: boolean;
  validate?: boolean;
  outputSchemas?: boolean;
}

export function addSpecOptions(command: Command): Command {
  return command
    .option("--allow-network-refs", "resolve $ref to http(s) URLs (refused by default)")
    .option("--no-validate", "skip structural validation of the spec")
    .option("--no-output-schemas", "do not advertise output schemas");
}

/** A spec (file, URL, `-`) or a saved model file → the model. */
export async function readModelOrSpec(source: string, flags: SpecFlags): Promise<BridgeModel> {
  if (source !== "-" && !/^https?:\/\//i.test(source)) {
    const head = await readHead(source);
    if (head !== undefined && /^\s*\{\s*"irVersion"/.test(head)) {
      const text = await readFile(source, "utf8");
      const value = JSON.parse(text) as unknown;
      if (isModelDocument(value)) return parseModel(text, source);
    }
  }
  return buildModel(source, {
    allowNetworkRefs: flags.allowNetworkRefs === true,
    validate: flags.validate !== false,
    outputSchemas: flags.outputSchemas !== false,
  });
}

async function readHead(file: string): Promise<string | undefined> {
  try {
    const handle = await (await import("node:fs/promises")).open(file, "r");
    try {
      const buffer = Buffer.alloc(256);
      const { bytesRead } = await handle.read(buffer, 0, 256, 0);
      return buffer.subarray(0, bytesRead).toString("utf8");
    } finally {
      await handle.close();
    }
  } catch {
    return undefined; // the loader reports missing files with a proper diagnostic
  }
}

/** `NAME=VALUE` pairs (repeatable) → a record. */
export function collectPairs(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const index = value.indexOf("=");
  if (index <= 0) throw new InvalidArgumentError(`expected NAME=VALUE, got "${value.slice(0, 40)}"`);
  return { ...previous, [value.slice(0, index)]: value.slice(index + 1) };
}

/** `Name: value` headers (repeatable) → a record. */
export function collectHeaders(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const index = value.indexOf(":");
  if (index <= 0) throw new InvalidArgumentError(`expected "Name: value", got "${value.slice(0, 40)}"`);
  return { ...previous, [value.slice(0, index).trim()]: value.slice(index + 1).trim() };
}

export function collectList(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((v) => v.trim())
      .filter((v) => v !== ""),
  ];
}

export function parsePositiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return n;
}

export function requireBaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("scheme");
  } catch {
    failWith("OMB_BASE_URL", `--base-url "${value}" is not an http(s) URL`, {
      hint: "give a full URL such as http://127.0.0.1:8080/v1",
    });
  }
  return value;
}
