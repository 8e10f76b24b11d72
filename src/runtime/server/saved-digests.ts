/**
 * Contract digests saved with a model (`model` command) and read back at start. Every tool of
 * every tools/list carries its digest, and computing them is a walk over every schema of every
 * tool (GitHub's 1,223 tools: about a sixth of a start from a saved model); a saved digest is a
 * map lookup and a hash of the tool's JSON text, which V8 writes natively.
 *
 * A saved digest is used only for a tool whose JSON text hashes as it did when the digest was
 * computed: a model edited by hand, a profile applied at start, or digests of another
 * definition give computed digests, so what tools/list shows is the same either way.
 */
import { hashShort } from "../../model/hash.js";
import type { BridgeModel, ContractDigestsNode, ToolNode } from "../../model/types.js";
import { digestToolContract } from "./contract.js";

/**
 * The definition of the contract digest (contractDigestInput, canonical.ts). Change it with
 * anything that changes a digest, so that digests saved before are not used.
 */
export const CONTRACT_DIGEST_VERSION = 1;

/** Characters of the SHA-256 of a tool's JSON text kept to check it (64 bits). */
const TOOL_HASH_HEX = 16;

const hashTool = (tool: ToolNode) => hashShort(JSON.stringify(tool), TOOL_HASH_HEX);

/** The contract digests of a model's tools, to save with it. */
export function saveContractDigests(tools: readonly ToolNode[]): ContractDigestsNode {
  const steps = saveContractDigestsSteps(tools);
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/**
 * The same a tool at a time (runInSlices): the model cache's write after a first start computes
 * them with the event loop free, so that a start from the cache reads them instead of walking
 * every schema (GitHub: about a sixth of such a start).
 */
export function* saveContractDigestsSteps(
  tools: readonly ToolNode[],
): Generator<void, ContractDigestsNode, void> {
  const saved: ContractDigestsNode["tools"] = {};
  for (const tool of tools) {
    saved[tool.name] = { digest: digestToolContract(tool), toolHash: hashTool(tool) };
    yield;
  }
  return { version: CONTRACT_DIGEST_VERSION, tools: saved };
}

/** A tool's saved digest when it still describes the tool; undefined when it must be computed. */
export function readSavedDigest(model: BridgeModel, tool: ToolNode): string | undefined {
  const saved = model.contractDigests;
  if (saved?.version !== CONTRACT_DIGEST_VERSION || typeof saved.tools !== "object" || saved.tools === null)
    return undefined;
  const entry = Object.hasOwn(saved.tools, tool.name) ? saved.tools[tool.name] : undefined;
  if (typeof entry?.digest !== "string" || entry.toolHash !== hashTool(tool)) return undefined;
  return entry.digest;
}
