/** Shared CLI option parsing: flags map onto the library's option objects. */
import { open, readFile } from "node:fs/promises";
import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_DESCRIPTION_BUDGET } from "../generator/compile/budgets.js";
import { failWith } from "../model/diagnostics.js";
import { checkModel, isModelDocument } from "../model/serialize.js";
import type { BridgeModel } from "../model/types.js";
import { OptionValueError, parseWholeNumber, type ValueParser } from "../runtime/config/value-parsers.js";

export interface SpecFlags extends RefFlags {
  allowNetworkRefs?: boolean;
  validate?: boolean;
  outputSchemas?: boolean;
  resultSchemas?: boolean;
  /** Not a flag: fields per output outline object (catalog and diff ask for every field). */
  outlineFields?: number;
  descriptionBudget?: number;
  argumentDescriptionBudget?: number;
  cache?: boolean;
  overrides?: string;
  profile?: "mcp" | "claude" | "openai" | "cursor";
  serverName?: string;
}

/** What a spec may make the loader read (every command that loads a spec). */
export interface RefFlags {
  refRoot?: string[];
  maxSpecBytes?: number;
}

/** The load options of the RefFlags a command was given (those not given keep their defaults). */
export function readRefFlags(flags: RefFlags): { refRoots?: string[]; maxSpecBytes?: number } {
  return {
    ...(flags.refRoot !== undefined && flags.refRoot.length > 0 ? { refRoots: flags.refRoot } : {}),
    ...(flags.maxSpecBytes !== undefined ? { maxSpecBytes: flags.maxSpecBytes } : {}),
  };
}

/** The description budgets (serve, generate, tools, model and lint). */
function addBudgetOptions(command: Command): Command {
  return command
    .option(
      "--description-budget <chars>",
      `characters a tool description may take (default ${DEFAULT_DESCRIPTION_BUDGET})`,
      parseAtLeast(40),
    )
    .option(
      "--argument-description-budget <chars>",
      "characters an argument or property description may take (default 100; 0 leaves them out)",
      parsePositiveInteger,
    );
}

/** The budgets a command was given, as plan options (those not given keep their defaults). */
export function readBudgetFlags(flags: { descriptionBudget?: number; argumentDescriptionBudget?: number }): {
  descriptionBudget?: number;
  argumentDescriptionBudget?: number;
} {
  return {
    ...(flags.descriptionBudget !== undefined ? { descriptionBudget: flags.descriptionBudget } : {}),
    ...(flags.argumentDescriptionBudget !== undefined
      ? { argumentDescriptionBudget: flags.argumentDescriptionBudget }
      : {}),
  };
}

/**
 * How a spec is read and planned: $ref policy, validation, output schemas and the description
 * budgets. Every command that plans a spec takes these (`outputSchemasHelp`: what the flag
 * does for that command).
 */
export function addPlanOptions(
  command: Command,
  outputSchemasHelp = "advertise an outline output schema per tool (off by default; JSON results carry structuredContent either way)",
): Command {
  return addBudgetOptions(
    command
      .option(
        "--allow-network-refs",
        "resolve $ref to http(s) URLs (refused by default; redirects only on the same host)",
      )
      .option(
        "--ref-root <dir>",
        "another folder whose files $refs may read, besides the spec's own folder tree (repeatable)",
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      )
      .option(
        "--max-spec-bytes <n>",
        "bytes read from the spec and from each file or URL its $refs name (default 128 MiB; all together twice that)",
        parseAtLeast(1),
      )
      .option("--no-validate", "skip structural validation of the spec")
      .option("--output-schemas", outputSchemasHelp),
  );
}

/** addPlanOptions, plus the model cache, overrides and the client profile (serve, generate, tools, model). */
export function addSpecOptions(command: Command, outputSchemasHelp?: string): Command {
  return addPlanOptions(command, outputSchemasHelp)
    .option(
      "--result-schemas",
      "plan each operation's result shape, which code mode's signatures show (serve --mode code plans them itself)",
    )
    .option("--no-cache", "plan the spec again instead of reusing the model cached at an earlier start")
    .option(
      "--overrides <file>",
      "JSON or YAML overrides: an OpenAPI Overlay 1.0 document, or a map of operationId (or 'METHOD /path') to { name, description, title, hidden, annotations }",
    )
    .addOption(
      new Option("--profile <client>", "adapt names and schemas to one MCP client")
        .choices(["mcp", "claude", "openai", "cursor"])
        .default("mcp"),
    )
    .option(
      "--server-name <name>",
      "the server's name in the client's configuration, counted in claude and cursor name limits (default: from the spec's title)",
    );
}

/** A spec (file, URL, `-`) or a saved model file → the model; `onStep` hears each step (progress). */
export async function readModelOrSpec(
  source: string,
  flags: SpecFlags,
  onStep?: (step: string) => void,
): Promise<BridgeModel> {
  if (source !== "-" && !/^https?:\/\//i.test(source)) {
    const head = await readHead(source);
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
        if (flags.overrides !== undefined) {
          failWith("OMB_OVERRIDES_MODEL", "--overrides applies to a spec, not to a saved model", {
            file: source,
            hint: "a model saved with `model --overrides` already carries them; give the spec to apply others",
          });
        }
        const model = checkModel(value, source);
        if (flags.profile === undefined || flags.profile === "mcp") return model;
        const { applyProfile } = await import("../generator/compile/profile.js");
        return applyProfile(model, {
          profile: flags.profile,
          ...(flags.serverName !== undefined ? { serverName: flags.serverName } : {}),
        });
      }
    }
  }
  // The spec loader (swagger-parser, yaml, ajv) is loaded only when there is a spec to load.
  const { buildModel } = await import("../generator/compile/build-model.js");
  return buildModel(source, {
    allowNetworkRefs: flags.allowNetworkRefs === true,
    ...readRefFlags(flags),
    validate: flags.validate !== false,
    outputSchemas: flags.outputSchemas === true,
    ...(flags.resultSchemas === true ? { resultSchemas: true } : {}),
    ...(flags.outlineFields !== undefined ? { outlineFields: flags.outlineFields } : {}),
    ...readBudgetFlags(flags),
    cache: flags.cache !== false,
    ...(flags.overrides !== undefined ? { overrides: flags.overrides } : {}),
    ...(flags.profile !== undefined ? { profile: flags.profile } : {}),
    ...(flags.serverName !== undefined ? { serverName: flags.serverName } : {}),
    ...(onStep !== undefined ? { onStep } : {}),
  });
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
 * A runtime value parser as a commander argument parser, for the options outside the option
 * table (the spec options): same semantics and words, commander's usage error.
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
