/**
 * Shared CLI option parsing: the spec options' flags are made from the plan option table
 * (generator/compile/plan-option-table.ts), and the values read map onto buildModel's options
 * through its toBuildOptions.
 */
import { open, readFile } from "node:fs/promises";
import { type Command, InvalidArgumentError, Option } from "commander";
import type { DeferredCacheWrite } from "../generator/compile/model-cache.js";
import {
  formatPlanFlag,
  listPlanOptionKeys,
  PLAN_OPTIONS,
  type PlanOptionKey,
  type PlanOptionSpec,
  type PlanOptionValues,
  toBuildOptions,
} from "../generator/compile/plan-option-table.js";
import { DEFAULT_CLIENT_PROFILE } from "../generator/compile/profile.js";
import { failWith } from "../model/diagnostics.js";
import { isLazyModelHead, readLazyModel } from "../model/lazy-model.js";
import { checkModel, isModelDocument } from "../model/serialize.js";
import type { BridgeModel } from "../model/types.js";
import { OptionValueError, parseWholeNumber, type ValueParser } from "../runtime/config/value-parsers.js";

/** The spec options a command was given (the table's values), and what commands set themselves. */
export interface SpecFlags extends PlanOptionValues {
  /** Not a flag: fields per output outline object (catalog and diff ask for every field). */
  outlineFields?: number;
}

/** How the spec is read and planned: what `lint` takes as well. */
const PLAN_KEYS = listPlanOptionKeys("load", "plan");
/** ...and the model cache, overrides and client profile: what the commands that build a model take. */
const SPEC_KEYS = listPlanOptionKeys("load", "plan", "model");

/** The commander option of a table entry. */
function toCommanderOption(key: PlanOptionKey, help: string): Option {
  const spec: PlanOptionSpec = PLAN_OPTIONS[key];
  const option = new Option(formatPlanFlag(spec), help);
  if (option.attributeName() !== key)
    throw new Error(`option ${option.flags} would be read as ${option.attributeName()}`);
  const kind = spec.value;
  if (kind.kind === "count") option.argParser(parseAtLeast(kind.min));
  else if (kind.kind === "paths")
    option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  else if (kind.kind === "choice") option.choices(kind.choices).default(spec.default);
  return option;
}

/** Adds the options `keys` name; `describe` replaces an option's help for this command. */
function addPlanTableOptions(
  command: Command,
  keys: readonly PlanOptionKey[],
  describe: Partial<Record<PlanOptionKey, string>>,
): Command {
  for (const key of keys) command.addOption(toCommanderOption(key, describe[key] ?? PLAN_OPTIONS[key].help));
  return command;
}

/**
 * How a spec is read and planned: $ref policy, validation, output schemas and the description
 * budgets. Every command that plans a spec takes these (`outputSchemasHelp`: what the flag
 * does for that command).
 */
export function addPlanOptions(
  command: Command,
  outputSchemasHelp?: string,
  describe: Partial<Record<PlanOptionKey, string>> = {},
): Command {
  return addPlanTableOptions(command, PLAN_KEYS, {
    ...describe,
    ...(outputSchemasHelp === undefined ? {} : { outputSchemas: outputSchemasHelp }),
  });
}

/** addPlanOptions, plus the result schemas, model cache, overrides and the client profile (serve, generate, tools, model). */
export function addSpecOptions(command: Command, outputSchemasHelp?: string): Command {
  return addPlanTableOptions(
    command,
    SPEC_KEYS,
    outputSchemasHelp === undefined ? {} : { outputSchemas: outputSchemasHelp },
  );
}

/**
 * A spec (file, URL, `-`) or a saved model file → the model; `onStep` hears each step (progress);
 * `deferCacheWrite` is handed the model cache's write of a spec just planned (buildModel);
 * `planLazily` leaves a spec's costly tool fields to their first use (plan-model.ts).
 */
export async function readModelOrSpec(
  source: string,
  flags: SpecFlags,
  onStep?: (step: string) => void,
  deferCacheWrite?: (write: DeferredCacheWrite) => void,
  planLazily?: boolean,
): Promise<BridgeModel> {
  if (source !== "-" && !/^https?:\/\//i.test(source)) {
    const head = await readHead(source);
    if (head !== undefined && isLazyModelHead(head)) {
      rejectOverridesOnModel(flags, source);
      return applyModelProfile(readLazyModel(source), flags);
    }
    if (head !== undefined && /^\s*\{\s*"irVersion"/.test(head)) {
      const text = await readFile(source, "utf8");
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        failWith("OMB_MODEL_PARSE", `the model file is not valid JSON: ${(error as Error).message}`, {
          file: source,
        });
      }
      if (isModelDocument(value)) {
        rejectOverridesOnModel(flags, source);
        return applyModelProfile(checkModel(value, source), flags);
      }
    }
  }
  // The spec loader (the ref parser, yaml, ajv) is loaded only when there is a spec to load.
  const { buildModel } = await import("../generator/compile/build-model.js");
  return buildModel(source, {
    ...toBuildOptions(flags),
    ...(flags.outlineFields !== undefined ? { outlineFields: flags.outlineFields } : {}),
    ...(onStep !== undefined ? { onStep } : {}),
    ...(deferCacheWrite !== undefined ? { deferCacheWrite } : {}),
    ...(planLazily === true ? { planLazily } : {}),
  });
}

function rejectOverridesOnModel(flags: SpecFlags, source: string): void {
  if (flags.overrides !== undefined) {
    failWith("OMB_OVERRIDES_MODEL", "--overrides applies to a spec, not to a saved model", {
      file: source,
      hint: "a model saved with `model --overrides` already carries them; give the spec to apply others",
    });
  }
}

/** A saved model for `--profile`, when one other than the default is asked for. */
async function applyModelProfile(model: BridgeModel, flags: SpecFlags): Promise<BridgeModel> {
  if (flags.profile === undefined || flags.profile === DEFAULT_CLIENT_PROFILE) return model;
  const { applyProfile } = await import("../generator/compile/profile.js");
  return applyProfile(model, {
    profile: flags.profile,
    ...(flags.serverName !== undefined ? { serverName: flags.serverName } : {}),
  });
}

/** True when a file's first bytes are a saved model (lazy or one JSON document). */
export function isModelHead(head: string): boolean {
  return isLazyModelHead(head) || /^\s*\{\s*"irVersion"/.test(head);
}

/** The first 256 bytes of a file as text; undefined when it cannot be read. */
export async function readHead(file: string): Promise<string | undefined> {
  try {
    const handle = await open(file, "r");
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

/**
 * A runtime value parser as a commander argument parser, for the options outside the runtime's
 * option table (the spec options): same semantics and words, commander's usage error.
 */
function toArgParser<T>(parser: ValueParser<T>): (value: string) => T {
  return (value) => {
    try {
      return parser.fromFlags([value]);
    } catch (error) {
      if (error instanceof OptionValueError) throw new InvalidArgumentError(error.message);
      throw error;
    }
  };
}

export const parsePositiveInteger = toArgParser(parseWholeNumber());

/** A parser for whole numbers of at least `minimum`. */
export function parseAtLeast(minimum: number): (value: string) => number {
  return toArgParser(parseWholeNumber({ min: minimum }));
}
