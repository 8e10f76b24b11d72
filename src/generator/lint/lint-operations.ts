import { isRecord } from "../../model/records.js";
import { listOperations, type OperationSite, resolveRefObject } from "../compile/context.js";
import { cleanProse } from "../compile/text.js";

export interface LintOperation extends Omit<OperationSite, "pathPointer"> {
  /** `GET /pets/{petId}`, as messages name it. */
  route: string;
  summary: string;
  description: string;
  /** The tool planned from the operation, when there is one. */
  tool?: string;
}

export interface LintParameter {
  pointer: string;
  value: Record<string, unknown>;
}

/** Every operation of the document, in path then method order. */
export function collectOperations(
  document: Record<string, unknown>,
  toolByPointer: ReadonlyMap<string, string>,
): LintOperation[] {
  const out: LintOperation[] = [];
  for (const { pathPointer: _pathPointer, ...site } of listOperations(document)) {
    const tool = toolByPointer.get(site.pointer);
    out.push({
      ...site,
      route: `${site.method.toUpperCase()} ${site.path}`,
      summary: cleanProse(site.operation.summary, false),
      description: cleanProse(site.operation.description, false),
      ...(tool !== undefined ? { tool } : {}),
    });
  }
  return out;
}

/** The path item's and the operation's parameters (the operation's win), each once. */
export function parameterEntries(document: Record<string, unknown>, op: LintOperation): LintParameter[] {
  const byKey = new Map<string, LintParameter>();
  const pathPointer = op.pointer.slice(0, op.pointer.lastIndexOf("/"));
  for (const [list, base] of [
    [op.pathItem.parameters, `${pathPointer}/parameters`],
    [op.operation.parameters, `${op.pointer}/parameters`],
  ] as const) {
    if (!Array.isArray(list)) continue;
    list.forEach((raw, index) => {
      const value = resolveRefObject(document, raw);
      if (!isRecord(value) || typeof value.name !== "string") return;
      // A shared parameter is reported where it is defined, once.
      const pointer =
        isRecord(raw) && typeof raw.$ref === "string" && raw.$ref.startsWith("#")
          ? decodeURIComponent(raw.$ref.slice(1))
          : `${base}/${index}`;
      byKey.set(`${String(value.in)}:${value.name}`, { pointer, value });
    });
  }
  return [...byKey.values()];
}

/** Under three words, or nothing but the path or method and path. */
export function isVague(text: string, path: string): boolean {
  const plain = text.replace(/[.!]+$/, "").trim();
  if (plain.toLowerCase() === path.toLowerCase()) return true;
  if (
    /^(get|post|put|patch|delete|head|options)\s+\//i.test(plain) &&
    !/\s/.test(plain.replace(/^\S+\s+/, ""))
  )
    return true;
  return plain.split(/\s+/).filter((w) => /[A-Za-z]/.test(w)).length < 3;
}

/** An operationId from the method and path: `getPetsByPetId` for GET /pets/{petId}. */
export function suggestOperationId(op: LintOperation): string {
  const verbs: Record<string, string> = {
    get: "get",
    post: "create",
    put: "replace",
    patch: "update",
    delete: "delete",
  };
  const words = op.path
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => (segment.startsWith("{") ? `By ${segment.slice(1, -1)}` : segment))
    .join(" ")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
  const camel = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
  return `${verbs[op.method] ?? op.method}${camel}`;
}

/** The operations by key (none for `undefined`), keys in the order first seen, each list in operation order. */
export function groupOperations(
  operations: readonly LintOperation[],
  keyOf: (op: LintOperation) => string | undefined,
): Map<string, LintOperation[]> {
  const groups = new Map<string, LintOperation[]>();
  for (const op of operations) {
    const key = keyOf(op);
    if (key === undefined) continue;
    const list = groups.get(key);
    if (list) list.push(op);
    else groups.set(key, [op]);
  }
  return groups;
}
