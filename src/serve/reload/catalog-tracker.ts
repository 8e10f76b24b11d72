/**
 * What the served tool set is, release after release of a running bridge: its catalogVersion,
 * each tool's contractVersion and digest (lifecycle/: the catalog and the tool diff), and, for
 * each tool a reload removed or broke, from which generation on. A generation counts the tool
 * sets a client could have listed (one per reload that changed anything); a client that listed
 * at generation g and calls a tool broken or removed after g gets a "tool changed" result
 * instead of a call with arguments made for the old contract.
 *
 * Nothing is computed at start-up beyond what tools/list shows: the first catalog is built
 * only when the first reload needs it (in the background), so a 20,000-operation spec starts
 * as fast with this as without. Until then the tracker answers as a bridge that never reloads
 * (runtime/server/tool-contracts.ts).
 */
import { buildCatalog, type CatalogDocument, type CatalogToolEntry } from "../../contracts/catalog.js";
import type { ToolChange } from "../../contracts/diff-tools.js";
import type { BridgeModel, ToolNode } from "../../model/types.js";
import {
  type ContractMeta,
  digestListedTool,
  digestOperation,
  FIRST_CATALOG_VERSION,
  type ToolContracts,
} from "../../runtime/server/tool-contracts.js";

/** One reload's effect on the catalog. */
export interface CatalogStep {
  /** False when the new tools are the old ones, contract and prose alike: nothing to tell clients. */
  changed: boolean;
  previousVersion: string;
  catalogVersion: string;
  generation: number;
  changes: ToolChange[];
  /** Tools removed, renamed or broken by this step (the names clients knew), with why. */
  broken: Map<string, string[]>;
}

/** Why a call cannot go through: the tool changed since the client listed it. */
export interface StaleTool {
  name: string;
  /** The catalogVersion that changed it. */
  changedIn: string;
  removed: boolean;
  reasons: string[];
}

export interface CatalogTracker extends ToolContracts {
  /** Moves on to the tools of `model` (what is served from now on). */
  advance(model: BridgeModel): CatalogStep;
  /** Why `name`, listed at generation `known`, changed since; undefined when it did not. */
  findStale(name: string, known: number): StaleTool | undefined;
}

export function createCatalogTracker(initial: BridgeModel): CatalogTracker {
  let model = initial;
  let byName = new Map(model.tools.map((tool) => [tool.name, tool]));
  let catalog: CatalogDocument | undefined;
  /** The catalog's live entries by name. */
  let entries = new Map<string, CatalogToolEntry>();
  let catalogVersion = FIRST_CATALOG_VERSION;
  let generation = 1;
  const generations = new Map<string, number>([[catalogVersion, generation]]);
  /** Digests of the current tools, until a catalog holds them. */
  let digests = new Map<string, string>();
  /** Tools that are not operations (discovery's three): their own digest and version. */
  const listedVersions = new Map<string, ContractMeta>();
  const brokenAt = new Map<
    string,
    { generation: number; catalogVersion: string; removed: boolean; reasons: string[] }
  >();

  const operationContract = (tool: ToolNode): ContractMeta => {
    const entry = entries.get(tool.name);
    if (entry !== undefined) return { contractVersion: entry.contractVersion, digest: entry.digest };
    let digest = digests.get(tool.name);
    if (digest === undefined) {
      digest = digestOperation(model, tool);
      digests.set(tool.name, digest);
    }
    return { contractVersion: 1, digest };
  };

  return {
    get generation() {
      return generation;
    },
    get catalogVersion() {
      return catalogVersion;
    },
    generationOf: (version) => generations.get(version),
    contractOf(tool) {
      const operation = byName.get(tool.name);
      if (operation !== undefined) return operationContract(operation);
      const digest = digestListedTool(tool);
      const known = listedVersions.get(tool.name);
      if (known?.digest === digest) return known;
      const meta = { contractVersion: known === undefined ? 1 : known.contractVersion + 1, digest };
      listedVersions.set(tool.name, meta);
      return meta;
    },
    advance(next) {
      const previous = catalog ?? buildCatalog({ model }).catalog;
      const built = buildCatalog({ model: next, previous });
      const previousVersion = catalogVersion;
      const broken = new Map<string, string[]>();
      const now = new Map(built.catalog.tools.filter((e) => e.status !== "removed").map((e) => [e.name, e]));
      const removed = new Map(
        built.catalog.tools.filter((e) => e.status === "removed").map((e) => [e.name, e]),
      );
      for (const entry of previous.tools) {
        if (entry.status === "removed") continue;
        const successor = now.get(entry.name);
        if (successor !== undefined && successor.contractVersion === entry.contractVersion) continue;
        const removedEntry = removed.get(entry.name);
        const reasons =
          successor === undefined
            ? [
                removedEntry?.renamedTo !== undefined
                  ? `it was renamed to ${removedEntry.renamedTo}`
                  : "it was removed",
              ]
            : built.changes
                .filter((c) => c.tool === entry.name && c.severity === "breaking")
                .map((c) => c.message);
        broken.set(entry.name, reasons);
      }
      const changed = built.changes.length > 0 || built.catalog.catalogVersion !== previousVersion;
      model = next;
      byName = new Map(next.tools.map((tool) => [tool.name, tool]));
      catalog = built.catalog;
      entries = now;
      digests = new Map();
      if (changed) {
        generation += 1;
        catalogVersion = built.catalog.catalogVersion;
        generations.set(catalogVersion, generation);
        for (const [name, reasons] of broken) {
          brokenAt.set(name, { generation, catalogVersion, removed: !now.has(name), reasons });
        }
      }
      return { changed, previousVersion, catalogVersion, generation, changes: built.changes, broken };
    },
    findStale(name, known) {
      const record = brokenAt.get(name);
      if (record === undefined || record.generation <= known) return undefined;
      return { name, changedIn: record.catalogVersion, removed: record.removed, reasons: record.reasons };
    },
  };
}
