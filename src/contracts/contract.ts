/**
 * A tool's contract as catalogs and the breaking-change diff read it: the canonical contract
 * with its prose (runtime/server/contract.ts has its shape and the digest every tools/list
 * carries), the catalog's form without prose, and the prose's own digest, so a reworded
 * description is a docs change and never a new contract.
 */
import { escapePointerToken } from "../model/pointer.js";
import { isRecord } from "../model/records.js";
import type { JsonSchema, JsonValue, ToolNode } from "../model/types.js";
import {
  canonicalJson,
  digestText,
  PROSE_KEYWORDS,
  sortKeys,
  subschemaKind,
} from "../runtime/server/canonical.js";
import { type ContractCore, describeBinding, digestContract } from "../runtime/server/contract.js";
import { canonicalizeSchema } from "./canonical-schema.js";

/** The prose of a tool (schema prose stays in the schemas of a contract that keeps it). */
export interface ToolDocs {
  title: string;
  description: string;
  annotationTitle: string;
}

/** A tool's contract with its status and prose; its schemas keep prose only when `docs` is present. */
export interface ToolContract extends ContractCore {
  operationId?: string;
  deprecated: boolean;
  /** `sha256:` + 16 hex of the contract without prose (see contractDigestInput). */
  digest: string;
  /** `sha256:` + 16 hex of the prose: title, description, and every text in the schemas. */
  docsDigest: string;
  /** Present when the prose was kept (a contract from a spec or model; a catalog keeps none). */
  docs?: ToolDocs;
}

/** The canonical contract of a tool, prose kept (see stripDocs for the catalog's form). */
export function describeContract(tool: ToolNode): ToolContract {
  const inputSchema = canonicalizeSchema(tool.inputSchema) as JsonSchema;
  const outputSchema =
    tool.outputSchema !== undefined ? (canonicalizeSchema(tool.outputSchema) as JsonSchema) : undefined;
  const {
    title: annotationTitle,
    readOnlyHint,
    destructiveHint,
    idempotentHint,
    openWorldHint,
  } = tool.annotations;
  const docs: ToolDocs = { title: tool.title, description: tool.description, annotationTitle };
  const contract: Omit<ToolContract, "digest" | "docsDigest"> = {
    name: tool.name,
    ...(tool.source.operationId !== undefined ? { operationId: tool.source.operationId } : {}),
    deprecated: tool.deprecated,
    inputSchema,
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    outputWrapped: tool.outputWrapped === true,
    annotations: { readOnlyHint, destructiveHint, idempotentHint, openWorldHint },
    binding: describeBinding(tool),
    docs,
  };
  return { ...contract, digest: digestContract(contract), docsDigest: digestDocs(contract) };
}

/** The contract as a catalog keeps it: schemas without prose, no docs (both digests kept). */
export function stripDocs(contract: ToolContract): ToolContract {
  if (contract.docs === undefined) return contract;
  const { docs: _docs, ...rest } = contract;
  return {
    ...rest,
    inputSchema: canonicalizeSchema(contract.inputSchema, { prose: false }) as JsonSchema,
    ...(contract.outputSchema !== undefined
      ? { outputSchema: canonicalizeSchema(contract.outputSchema, { prose: false }) as JsonSchema }
      : {}),
  };
}

/**
 * What the digest covers: the name, the input schema and output outline without prose, the
 * result wrapping, the behaviour hints and the binding. Deprecation is a status, not a contract.
 */
export function contractDigestInput(contract: Omit<ToolContract, "digest" | "docsDigest">): JsonValue {
  return {
    name: contract.name,
    inputSchema: canonicalizeSchema(contract.inputSchema, { prose: false }),
    outputSchema:
      contract.outputSchema !== undefined
        ? canonicalizeSchema(contract.outputSchema, { prose: false })
        : null,
    outputWrapped: contract.outputWrapped,
    annotations: { ...contract.annotations },
    binding: contract.binding as unknown as JsonValue,
  };
}

/**
 * The contract without its result outline (digest recomputed): for comparing a side whose
 * outlines are not complete (a saved model's name at most 12 fields per object) with another.
 * Outlines hold no prose, so the docs digest stays as it is.
 */
export function stripResults(contract: ToolContract): ToolContract {
  if (contract.outputSchema === undefined && !contract.outputWrapped) return contract;
  const { outputSchema: _schema, digest: _digest, ...rest } = contract;
  const bare = { ...rest, outputWrapped: false };
  return { ...bare, digest: digestContract(bare) };
}

function digestDocs(contract: Omit<ToolContract, "digest" | "docsDigest">): string {
  const docs = contract.docs;
  return digestValue({
    title: docs?.title ?? "",
    description: docs?.description ?? "",
    annotationTitle: docs?.annotationTitle ?? "",
    inputSchema: collectProse(contract.inputSchema) as unknown as JsonValue,
    outputSchema: (contract.outputSchema !== undefined
      ? collectProse(contract.outputSchema)
      : []) as unknown as JsonValue,
  });
}

/** The prose of a schema, each text with the pointer where it stands (for the docs digest). */
export function collectProse(schema: JsonValue, pointer = ""): [string, JsonValue][] {
  if (!isRecord(schema)) return [];
  const found: [string, JsonValue][] = [];
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key] as JsonValue;
    const here = `${pointer}/${escapePointerToken(key)}`;
    if (PROSE_KEYWORDS.has(key)) {
      found.push([here, sortKeys(value)]);
      continue;
    }
    const kind = subschemaKind(key);
    if (kind === "schema") found.push(...collectProse(value, here));
    else if (kind === "schemaArray" && Array.isArray(value))
      value.forEach((v, i) => {
        found.push(...collectProse(v, `${here}/${i}`));
      });
    else if (kind === "schemaMap" && isRecord(value))
      for (const name of Object.keys(value).sort())
        found.push(...collectProse(value[name] as JsonValue, `${here}/${escapePointerToken(name)}`));
  }
  return found;
}

/** `sha256:` and the first 16 hex characters of the SHA-256 of a value's JSON text (keys sorted). */
function digestValue(value: JsonValue): string {
  return digestText(canonicalJson(value));
}
