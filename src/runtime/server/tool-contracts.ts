/**
 * What tools/list says of the tool set and of each tool: the catalog's version in the list's
 * `_meta`, and each tool's contract version and digest in its own `_meta`, so a client or host
 * can tell what it holds. A generated server and `serve` without `--watch` serve one tool set,
 * the first generation (catalogVersion 1.0.0, every contract at version 1); `serve --watch`
 * moves on at each reload (serve/reload/catalog-tracker.ts implements the same interface).
 *
 * Nothing is computed at start-up: a tool's digest is read from the saved model or computed
 * when tools/list first shows it.
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { BridgeModel, JsonValue, ToolNode } from "../../model/types.js";
import { findServedTool } from "../access/caller.js";
import { canonicalJson, canonicalSchemaJson, digestText } from "./canonical.js";
import { digestToolContract } from "./contract.js";
import { toMetaKey } from "./meta-keys.js";
import { readSavedDigest } from "./saved-digests.js";

/** Key of the catalog facts in a tools/list result's `_meta`. */
export const CATALOG_META_KEY = toMetaKey("catalog");

/** Key of a tool's contract facts in its `_meta` (tools/list). */
export const CONTRACT_META_KEY = toMetaKey("contract");

/** The catalogVersion of the first tool set a bridge serves. */
export const FIRST_CATALOG_VERSION = "1.0.0";

/** The most a tool's contract `_meta` adds to its JSON in tools/list (pages keep room for it). */
export const CONTRACT_META_BYTES = Buffer.byteLength(
  JSON.stringify({
    _meta: {
      [CONTRACT_META_KEY]: { contractVersion: Number.MAX_SAFE_INTEGER, digest: `sha256:${"0".repeat(16)}` },
    },
  }),
);

export interface ContractMeta {
  /** 1 for a new tool; +1 at each breaking change (removals and renames included). */
  contractVersion: number;
  /** `sha256:` + 16 hex of the tool's contract without prose (contract.ts). */
  digest: string;
}

/** The contracts of the tool set served now. */
export interface ToolContracts {
  /** Counts the tool sets a client could have listed: 1, +1 at each reload that changed anything. */
  readonly generation: number;
  readonly catalogVersion: string;
  /** The generation of a catalogVersion this bridge served (undefined for any other text). */
  generationOf(catalogVersion: string): number | undefined;
  /** The contract facts of a tool tools/list shows (an operation, or one of the mode's own tools). */
  contractOf(tool: Tool): ContractMeta;
}

/** The contracts of one tool set that never changes. */
export function createToolContracts(model: BridgeModel): ToolContracts {
  const digests = new Map<string, ContractMeta>();
  return {
    generation: 1,
    catalogVersion: FIRST_CATALOG_VERSION,
    generationOf: (version) => (version === FIRST_CATALOG_VERSION ? 1 : undefined),
    contractOf(tool) {
      let meta = digests.get(tool.name);
      if (meta === undefined) {
        const operation = findServedTool(model, tool.name);
        const digest = operation !== undefined ? digestOperation(model, operation) : digestListedTool(tool);
        meta = { contractVersion: 1, digest };
        digests.set(tool.name, meta);
      }
      return meta;
    },
  };
}

/** An operation's contract digest: the saved one while it still describes the tool, else computed. */
export function digestOperation(model: BridgeModel, tool: ToolNode): string {
  return readSavedDigest(model, tool) ?? digestToolContract(tool);
}

/**
 * The digest of a tool as tools/list shows it, for tools that are not operations (discovery's
 * and code mode's own): its name, schemas without prose and behaviour hints, as an operation's
 * contract digest.
 */
export function digestListedTool(tool: Tool): string {
  const { title: _title, ...hints } = tool.annotations ?? {};
  const noProse = { prose: false };
  const output =
    tool.outputSchema !== undefined
      ? canonicalSchemaJson(tool.outputSchema as unknown as JsonValue, noProse)
      : "null";
  // The members in sorted order, as canonicalJson writes an object.
  return digestText(
    `{"annotations":${canonicalJson(hints as unknown as JsonValue)}` +
      `,"inputSchema":${canonicalSchemaJson(tool.inputSchema as unknown as JsonValue, noProse)}` +
      `,"name":${JSON.stringify(tool.name)},"outputSchema":${output}}`,
  );
}
