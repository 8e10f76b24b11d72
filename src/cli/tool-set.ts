/**
 * What `catalog` and `diff` read: a spec, a saved model or (for diff and --previous) a catalog,
 * turned into the tools a client would be served (the spec options and the selection flags of
 * `tools` apply). Output outlines are planned unless --no-output-schemas, naming every field: a
 * result field that disappears is part of a tool's contract whether or not serve advertises
 * the outline, and a capped outline cannot tell a removed field from one that lost its place.
 */
import type { Command } from "commander";
import type { ToolContract } from "../contracts/contract.js";
import type { BridgeModel } from "../model/types.js";
import { addSpecOptions, isModelHead, readHead, readModelOrSpec, type SpecFlags } from "./options.js";
import { addSelectionOptions, applySelection, readSelection } from "./selection.js";

const POLICIES = ["allow", "refuse", "confirm"] as const;

/** Outlines name every field of a result here (see planOutput): more than any object has. */
const EVERY_FIELD = Number.MAX_SAFE_INTEGER;

export type ToolSetFlags = SpecFlags & Record<string, unknown>;

/** The spec options (outlines on by default) and the selection flags. */
export function addToolSetOptions(command: Command): Command {
  addSelectionOptions(command, [...POLICIES]);
  addSpecOptions(
    command,
    "plan the outline of each tool's result (on by default here: result fields are part of the contract)",
  );
  return command.option(
    "--no-output-schemas",
    "leave results out of the contract (as a serve without --output-schemas advertises them)",
  );
}

/** The tools a spec or saved model publishes, and whether its result outlines are complete. */
export interface PublishedModel {
  model: BridgeModel;
  kind: "spec" | "model";
  /** Outlines planned here, naming every field; a saved model's are as it was saved. */
  completeResults: boolean;
}

/** The tools a spec or saved model publishes under the given flags (selection applied). */
export async function readPublishedModel(
  source: string,
  flags: ToolSetFlags,
  commandName: string,
): Promise<PublishedModel> {
  const selection = readSelection(flags, [...POLICIES], commandName);
  const outlines = flags.outputSchemas !== false;
  const head = source === "-" || /^https?:\/\//i.test(source) ? undefined : await readHead(source);
  const kind = head !== undefined && isModelHead(head) ? "model" : "spec";
  const model = await readModelOrSpec(source, {
    ...flags,
    outputSchemas: outlines,
    outlineFields: EVERY_FIELD,
  });
  return {
    model: await applySelection(model, selection, commandName),
    kind,
    completeResults: outlines && kind === "spec",
  };
}

/** One side of a diff: its tools' contracts and what to call it in a report. */
export interface ToolSet {
  kind: "spec" | "model" | "catalog";
  /** `title version` of the API. */
  label: string;
  contracts: ToolContract[];
  completeResults: boolean;
}

/** True when the file starts like a catalog (JSON or YAML): `catalogFormat` is its first key. */
export async function isCatalogFile(source: string): Promise<boolean> {
  if (source === "-" || /^https?:\/\//i.test(source)) return false;
  const head = await readHead(source);
  return head !== undefined && /^\s*(\{\s*"catalogFormat"|catalogFormat\s*:)/.test(head);
}

/** A spec, saved model or catalog → its tool contracts. */
export async function readToolSet(
  source: string,
  flags: ToolSetFlags,
  commandName: string,
): Promise<ToolSet> {
  const [{ readCatalogFile }, { listCatalogContracts }, { describeContract }] = await Promise.all([
    import("../contracts/catalog-file.js"),
    import("../contracts/catalog.js"),
    import("../contracts/contract.js"),
  ]);
  if (await isCatalogFile(source)) {
    const catalog = await readCatalogFile(source);
    return {
      kind: "catalog",
      label: `${catalog.api.title} ${catalog.api.version} (catalog ${catalog.catalogVersion})`,
      contracts: listCatalogContracts(catalog),
      completeResults: catalog.completeResults,
    };
  }
  const { model, kind, completeResults } = await readPublishedModel(source, flags, commandName);
  return {
    kind,
    label: `${model.info.title} ${model.info.version}`,
    contracts: model.tools.map(describeContract),
    completeResults,
  };
}
