/**
 * The tool catalog: what a release of the tool set published. `catalogVersion` names the
 * release (MAJOR.MINOR.PATCH: major on a breaking change, minor on a compatible one, patch on
 * docs only, unchanged when nothing changed); each tool carries its `contractVersion` (carried
 * from the previous catalog, bumped only on a breaking change), its compatibility with the
 * previous release, the digests of its contract and prose, where it came from, its status, and
 * the contract itself without prose, so that a later catalog or `diff` can say what changed.
 *
 * Building is deterministic: the same tools and previous catalog give the same bytes (no
 * dates, tools sorted by name, keys in a fixed order); a catalog rebuilt from an unchanged
 * spec is the previous one.
 */
import type { BridgeModel, HttpMethod, JsonSchema } from "../model/types.js";
import { type ContractAnnotations, type ContractBinding, compareText } from "../runtime/server/contract.js";
import { FIRST_CATALOG_VERSION } from "../runtime/server/tool-contracts.js";
import { bumpCatalogVersion } from "./catalog-version.js";
import { describeContract, stripDocs, type ToolContract } from "./contract.js";
import { diffContracts, pairTools, type ToolChange } from "./diff-tools.js";

/** The layout of the catalog file; bumped when an older bridge could misread a newer file. */
export const CATALOG_FORMAT = 1;

/** Releases a removed tool stays listed (as `removed`) unless --retention says otherwise. */
export const DEFAULT_RETENTION = 3;

export type Compatibility = "new" | "backward-compatible" | "breaking";
export type ToolStatus = "active" | "deprecated" | "removed";

/** A tool's contract as the catalog keeps it: canonical, without prose. */
export interface CatalogContract {
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  outputWrapped: boolean;
  annotations: ContractAnnotations;
  binding: ContractBinding;
}

export interface CatalogToolEntry {
  name: string;
  operationId: string | null;
  method: string;
  path: string;
  /** 1 for a new tool; +1 at each breaking change. */
  contractVersion: number;
  /** Relative to the previous catalog (a removed tool is a breaking change for its callers). */
  compatibility: Compatibility;
  status: ToolStatus;
  digest: string;
  docsDigest: string;
  /** The catalogVersion in which this contractVersion was first published. */
  since: string;
  source: { title: string; version: string; pointer: string };
  /** The name this tool had before (a rename is breaking: the contractVersion went up). */
  renamedFrom?: string;
  /** For a removed tool: the name its operation has now. */
  renamedTo?: string;
  /** For a removed tool: the release that removed it, and how many more releases list it. */
  removedIn?: string;
  releasesLeft?: number;
  contract: CatalogContract;
}

export interface CatalogDocument {
  catalogFormat: typeof CATALOG_FORMAT;
  catalogVersion: string;
  api: { title: string; version: string };
  /** Releases a removed tool stays listed. */
  retention: number;
  /**
   * The result outlines name every field (a catalog of a spec): results are compared. A
   * catalog of a saved model has its outlines as saved (at most 12 fields per object, or none).
   */
  completeResults: boolean;
  tools: CatalogToolEntry[];
}

export interface BuildCatalogInput {
  /** The tools published (selection applied) and the spec's title and version. */
  model: Pick<BridgeModel, "info" | "tools">;
  /** The catalog of the previous release, if any. */
  previous?: CatalogDocument;
  /** Releases a removed tool stays listed (default: the previous catalog's, else 3). */
  retention?: number;
  /** The release's version, instead of the one derived from the changes. */
  catalogVersion?: string;
  /** The model's result outlines name every field (see CatalogDocument.completeResults; default false). */
  completeResults?: boolean;
}

export interface BuiltCatalog {
  catalog: CatalogDocument;
  /** What changed since the previous catalog (empty without one). */
  changes: ToolChange[];
}

/** The catalog of a model's tools, continuing `previous` when given. */
export function buildCatalog(input: BuildCatalogInput): BuiltCatalog {
  const { model, previous } = input;
  const retention = input.retention ?? previous?.retention ?? DEFAULT_RETENTION;
  const api = { title: model.info.title, version: model.info.version };
  const current = model.tools.map((tool) => ({ tool, contract: stripDocs(describeContract(tool)) }));
  const previousByName = new Map((previous?.tools ?? []).map((entry) => [entry.name, entry]));
  const previousLive = (previous?.tools ?? []).filter((entry) => entry.status !== "removed");
  const previousContracts = previousLive.map(readEntryContract);
  const currentContracts = current.map((c) => c.contract);
  const completeResults = input.completeResults === true;
  const changes =
    previous === undefined
      ? []
      : diffContracts(previousContracts, currentContracts, {
          results: completeResults && previous.completeResults,
        });
  const catalogVersion =
    input.catalogVersion ??
    (previous === undefined ? FIRST_CATALOG_VERSION : bumpCatalogVersion(previous.catalogVersion, changes));
  const released = previous === undefined || catalogVersion !== previous.catalogVersion;
  const renames = new Map<string, string>(); // new name → old name
  for (const pair of pairTools(previousContracts, currentContracts).pairs)
    if (pair.renamed) renames.set(pair.next.name, pair.old.name);
  const breakingTools = new Set(changes.filter((c) => c.severity === "breaking").map((c) => c.tool));

  const entries: CatalogToolEntry[] = [];
  const present = new Set<string>();
  for (const { tool, contract } of current) {
    present.add(tool.name);
    const renamedFrom = renames.get(tool.name);
    const before = previousByName.get(renamedFrom ?? tool.name);
    const source = { title: api.title, version: api.version, pointer: tool.source.pointer };
    let contractVersion = 1;
    let compatibility: Compatibility = "new";
    let since = catalogVersion;
    if (before !== undefined && !released && before.status !== "removed") {
      // Nothing changed in this release: the entry stands as published.
      contractVersion = before.contractVersion;
      compatibility = before.compatibility;
      since = before.since;
    } else if (before !== undefined && before.status === "removed") {
      // Back after a removal: new to its callers, a new contract version.
      contractVersion = before.contractVersion + 1;
    } else if (before !== undefined) {
      const breaking = breakingTools.has(tool.name);
      contractVersion = breaking ? before.contractVersion + 1 : before.contractVersion;
      compatibility = breaking ? "breaking" : "backward-compatible";
      since = breaking ? catalogVersion : before.since;
    }
    entries.push({
      ...describeEntryHead(contract),
      contractVersion,
      compatibility,
      status: contract.deprecated ? "deprecated" : "active",
      digest: contract.digest,
      docsDigest: contract.docsDigest,
      since,
      source,
      ...(renamedFrom !== undefined ? { renamedFrom } : {}),
      contract: describeContractBody(contract),
    });
  }
  const renamedTo = new Map([...renames].map(([to, from]) => [from, to]));
  for (const entry of previous?.tools ?? []) {
    if (present.has(entry.name)) continue;
    if (entry.status === "removed") {
      if (!released) entries.push(entry);
      else if ((entry.releasesLeft ?? 0) > 0)
        entries.push({ ...entry, releasesLeft: (entry.releasesLeft ?? 0) - 1 });
      continue;
    }
    if (retention === 0) continue;
    const to = renamedTo.get(entry.name);
    const {
      renamedFrom: _from,
      renamedTo: _to,
      removedIn: _in,
      releasesLeft: _left,
      contract,
      ...rest
    } = entry;
    entries.push({
      ...rest,
      compatibility: "breaking",
      status: "removed",
      ...(to !== undefined ? { renamedTo: to } : {}),
      removedIn: catalogVersion,
      releasesLeft: retention - 1,
      contract,
    });
  }
  entries.sort((a, b) => compareText(a.name, b.name));
  return {
    catalog: {
      catalogFormat: CATALOG_FORMAT,
      catalogVersion,
      api,
      retention,
      completeResults,
      tools: entries,
    },
    changes,
  };
}

function describeEntryHead(
  contract: ToolContract,
): Pick<CatalogToolEntry, "name" | "operationId" | "method" | "path"> {
  return {
    name: contract.name,
    operationId: contract.operationId ?? null,
    method: contract.binding.method.toUpperCase(),
    path: contract.binding.path,
  };
}

function describeContractBody(contract: ToolContract): CatalogContract {
  return {
    inputSchema: contract.inputSchema,
    ...(contract.outputSchema !== undefined ? { outputSchema: contract.outputSchema } : {}),
    outputWrapped: contract.outputWrapped,
    annotations: contract.annotations,
    binding: contract.binding,
  };
}

/** The contract a catalog entry holds (no prose: the diff compares prose by its digest). */
export function readEntryContract(entry: CatalogToolEntry): ToolContract {
  return {
    name: entry.name,
    ...(entry.operationId !== null ? { operationId: entry.operationId } : {}),
    deprecated: entry.status === "deprecated",
    inputSchema: entry.contract.inputSchema,
    ...(entry.contract.outputSchema !== undefined ? { outputSchema: entry.contract.outputSchema } : {}),
    outputWrapped: entry.contract.outputWrapped,
    annotations: entry.contract.annotations,
    binding: { ...entry.contract.binding, method: entry.contract.binding.method as HttpMethod },
    digest: entry.digest,
    docsDigest: entry.docsDigest,
  };
}

/** The contracts of the tools a catalog publishes (removed ones left out). */
export function listCatalogContracts(catalog: CatalogDocument): ToolContract[] {
  return catalog.tools.filter((entry) => entry.status !== "removed").map(readEntryContract);
}
