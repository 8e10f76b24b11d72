/**
 * The saved model as a file that loads lazily: what `model SPEC -o FILE` writes and the model
 * cache keeps. A huge API (Graph beta: 22,361 tools) saved as one JSON document costs a start
 * seconds of parsing and a gigabyte and a half of memory, while discovery and code mode need the
 * names, the search index and one schema at a time. So the file has three parts:
 *
 * ```
 * {"format":"openapi-mcp-bridge/lazy-model","version":1,"irVersion":4,"indexBytes":N,...}\n   header line
 * { ...the model without its tools' schemas, tools: [...], records: [[at, bytes]...], shared: [...],
 *   sharedInIndex: [...] }                                                                          index
 * {"inputSchema":...}{"outputSchema":...}...                                                       records
 * ```
 *
 * The index is the model with each tool's `inputSchema`, `outputSchema`, `resultSchema` and
 * `resultFields` set to 0 (so its keys keep their order), where the tool's record is, and where each shared
 * subschema is. A record holds one tool's schemas; a subschema that several tools (or shared
 * subschemas) repeat is written once, as a shared entry, and referred to as `{"$omb:s": n}`
 * (an object of the spec that happens to look like that, or like the escape itself, is written
 * as `{"$omb:e": object}`). Reading a model parses the index and defines each tool's schema
 * fields as getters that read the tool's record at its offset on first use; a shared entry is
 * parsed once and then shared by every tool that names it, as the planner shares it.
 *
 * Layout 2 shares the index's own repeats the same way: a subtree of the tools' HTTP bindings
 * (their parameters, bodies and responses) that several tools repeat is written once in
 * `sharedInIndex` and referred to as `{"$omb:s": n}` where it was. Graph beta's
 * index falls from 53 to 30 MB: a start parses, and holds, half as much (layout 1, which repeats
 * them, is still read).
 *
 * Plain data throughout (JSON texts at byte offsets), versioned (`version`: this layout), and
 * checked before use: the header names the byte sizes and the SHA-256 of everything after it, so
 * a truncated, corrupt or foreign file is refused at load (OMB_MODEL_INVALID / _VERSION), and a
 * record is checked like a model (its depth) when it is read.
 */
import { createHash, type Hash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { failWith } from "./diagnostics.js";
import { isDeeperThan, MAX_DOCUMENT_DEPTH } from "./json-depth.js";
import { isRecord } from "./records.js";
import { runToEnd } from "./run-steps.js";
import { checkModel, checkModelMeasured } from "./serialize.js";
import { type BridgeModel, IR_VERSION, SAVED_WITH_INDEX, type ToolNode } from "./types.js";

export const LAZY_MODEL_FORMAT = "openapi-mcp-bridge/lazy-model";
/** The layout of the file (header, index, records); bumped on any change to it. */
export const LAZY_MODEL_VERSION = 2;
/** The layouts read: 1 has no `sharedInIndex` (its tools written whole in the index). */
const READ_VERSIONS: readonly number[] = [1, LAZY_MODEL_VERSION];

/** The tool fields kept in records, read on first use. */
const HEAVY_FIELDS = ["inputSchema", "outputSchema", "resultSchema", "resultFields"] as const;
const SHARED = "$omb:s";
const ESCAPED = "$omb:e";
/** A repeated subschema is shared only from this many bytes of JSON: a reference costs ~14. */
const MIN_SHARED_BYTES = 64;
/** A UTF-16 unit past ASCII: JSON text has them only inside strings. */
const NON_ASCII = /[\u0080-\uffff]/g;
/** The longest header line read. */
const MAX_HEADER_BYTES = 4096;
const HASH_CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * Records of a file up to this size are read in one piece when the file is checked and kept as
 * bytes: a record is then a slice of them, not a read of its own (GitHub's 1,223 tools and 1,817
 * shared schemas were some 3,000 reads, about a tenth of a start from its saved model). Beyond it
 * (Graph beta) each record is read from the file when first used, as the lazy layout intends.
 */
const MAX_HELD_RECORDS_BYTES = 16 * 1024 * 1024;
/** Characters of JSON text (or bytes of records) gathered into one buffer as the file is made. */
const SINK_CHARS = 1024 * 1024;

interface LazyHeader {
  format: typeof LAZY_MODEL_FORMAT;
  version: number;
  irVersion: number;
  indexBytes: number;
  recordsBytes: number;
  /** SHA-256 (hex) of the bytes after the header line. */
  sha256: string;
}

type Span = [at: number, bytes: number];

interface SharedSubtrees {
  /** The subtrees written once, in the order of their numbers. */
  entries: unknown[];
  /** JSON text of a value with its shared subtrees as references (a root entry written whole). */
  write(value: unknown, root: boolean): string;
}

/** True when a file's first bytes are a lazy model's header. */
export function isLazyModelHead(head: string): boolean {
  return head.startsWith(`{"format":"${LAZY_MODEL_FORMAT}"`);
}

/** The lazy file of a model: header, index and records, as one buffer. */
export function serializeLazyModel(model: BridgeModel): Buffer {
  return Buffer.concat(runToEnd(serializeLazyModelSteps(model)));
}

/**
 * The same file as a list of buffers (to be written one after another), made a step at a time
 * (a step: one tool's subtrees or record, a member of the index): the model cache writes it
 * while `serve` answers requests, and a driver that gives the event loop a turn between steps
 * (runtime/engine/run-in-slices.ts) keeps a request waiting at most a few steps. Joined, the buffers
 * are serializeLazyModel's bytes.
 */
export function* serializeLazyModelSteps(model: BridgeModel): Generator<void, Buffer[], void> {
  const sharing = yield* findSharedSubtrees(model.tools, readHeavyValues);
  const records: Buffer[] = [];
  let at = 0;
  const push = (text: string): Span => {
    const bytes = Buffer.from(toAsciiJson(text), "latin1");
    records.push(bytes);
    const span: Span = [at, bytes.length];
    at += bytes.length;
    return span;
  };
  const spans: Span[] = [];
  const tools: Record<string, unknown>[] = [];
  for (const tool of model.tools) {
    const light: Record<string, unknown> = {};
    const heavy: string[] = [];
    for (const [key, value] of Object.entries(tool)) {
      if (value === undefined) continue;
      if ((HEAVY_FIELDS as readonly string[]).includes(key)) {
        light[key] = 0;
        heavy.push(`${JSON.stringify(key)}:${sharing.write(value, false)}`);
      } else light[key] = value;
    }
    spans.push(push(`{${heavy.join(",")}}`));
    tools.push(light);
    yield;
  }
  const shared: Span[] = [];
  for (const value of sharing.entries) {
    shared.push(push(sharing.write(value, true)));
    yield;
  }
  // The tools as the index writes them: what their HTTP bindings repeat written once, in
  // sharedInIndex. Only there: the other fields (names, titles, sources) are each tool's own,
  // and keying them all cost a `model` of Graph beta a third more memory for 1.5 MB less.
  const indexSharing = yield* findSharedSubtrees(tools, (tool) => Object.values(tool.http as object));
  const toolTexts: RawJson[] = [];
  for (const tool of tools) {
    toolTexts.push(new RawJson(indexSharing.write(tool, true)));
    yield;
  }
  const index: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(model)) index[key] = key === "tools" ? toolTexts : value;
  index.records = spans;
  index.shared = shared;
  index.sharedInIndex = indexSharing.entries.map((entry) => new RawJson(indexSharing.write(entry, true)));
  // JSON.stringify(index)'s text, a member (a tool, a search entry) a step, into buffers of about
  // a megabyte: Graph beta's index is 53 MB of JSON, half a second in one piece.
  const sink = createTextSink();
  yield* writeJsonSteps(index, 3, sink);
  const indexParts = sink.close();
  // A tool's record is a few hundred bytes: written one by one, they were 30,000 writes.
  const body = [...indexParts, ...(yield* joinBuffersSteps(records, SINK_CHARS))];
  const hash = createHash("sha256");
  for (const part of body) {
    hash.update(part);
    yield;
  }
  const header: LazyHeader = {
    format: LAZY_MODEL_FORMAT,
    version: LAZY_MODEL_VERSION,
    irVersion: model.irVersion,
    indexBytes: indexParts.reduce((sum, part) => sum + part.length, 0),
    recordsBytes: at,
    sha256: hash.digest("hex"),
  };
  return [Buffer.from(`${JSON.stringify(header)}\n`, "utf8"), ...body];
}

/** The buffers joined into buffers of about `size` bytes (one bigger than that stays whole). */
function* joinBuffersSteps(buffers: readonly Buffer[], size: number): Generator<void, Buffer[], void> {
  const joined: Buffer[] = [];
  let group: Buffer[] = [];
  let bytes = 0;
  for (const buffer of buffers) {
    group.push(buffer);
    bytes += buffer.length;
    if (bytes >= size) {
      joined.push(Buffer.concat(group, bytes));
      group = [];
      bytes = 0;
      yield;
    }
  }
  if (group.length > 0) joined.push(Buffer.concat(group, bytes));
  return joined;
}

/**
 * JSON text with each character past ASCII written as its `\uXXXX` escape (one per UTF-16 unit,
 * which JSON.parse joins back), so the file is ASCII and parses to the same values. Reading it
 * back is then a plain copy of bytes into a one-byte string, not a UTF-8 decode into a two-byte
 * one that every string parsed from it inherits: GitHub's index of 2.2 MB, which has some 1,200
 * bytes past ASCII, decoded and parsed in about two thirds of the time.
 */
function toAsciiJson(text: string): string {
  return text.replace(NON_ASCII, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Texts gathered into ASCII buffers of about SINK_CHARS characters (toAsciiJson). */
function createTextSink() {
  const buffers: Buffer[] = [];
  let pending: string[] = [];
  let chars = 0;
  const flush = () => {
    if (pending.length > 0) buffers.push(Buffer.from(toAsciiJson(pending.join("")), "latin1"));
    pending = [];
    chars = 0;
  };
  return {
    add(text: string): void {
      pending.push(text);
      chars += text.length;
      if (chars >= SINK_CHARS) flush();
    },
    close(): Buffer[] {
      flush();
      return buffers;
    },
  };
}

/** JSON text made beforehand, written by writeJsonSteps as it is. */
class RawJson {
  constructor(readonly text: string) {}
}

/**
 * JSON.stringify(value)'s text into `sink`, the members of objects and arrays down to `depth`
 * levels written (and stepped) one by one, anything deeper in one piece. Plain data only (no
 * toJSON), as a model is: undefined members are left out, undefined items written as null.
 */
function* writeJsonSteps(
  value: unknown,
  depth: number,
  sink: { add(text: string): void },
): Generator<void, void, void> {
  if (value instanceof RawJson) {
    sink.add(value.text);
    return;
  }
  if (depth === 0 || typeof value !== "object" || value === null) {
    sink.add(JSON.stringify(value) ?? "null");
    return;
  }
  if (Array.isArray(value)) {
    sink.add("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) sink.add(",");
      yield* writeJsonSteps(value[i] === undefined ? null : value[i], depth - 1, sink);
      yield;
    }
    sink.add("]");
    return;
  }
  sink.add("{");
  let first = true;
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    sink.add(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    yield* writeJsonSteps(member, depth - 1, sink);
    yield;
  }
  sink.add("}");
}

/**
 * The model of a lazy file: the index parsed and checked, each tool's schemas read when first
 * used (from the bytes held when the records are at most `maxHeldRecordsBytes`, else from the
 * file). Throws OMB_MODEL_INVALID (not this layout, truncated, corrupt) or OMB_MODEL_VERSION.
 */
export function readLazyModel(file: string, maxHeldRecordsBytes = MAX_HELD_RECORDS_BYTES): BridgeModel {
  const fd = openSync(file, "r");
  let open = true;
  try {
    const { header, start } = readHeader(fd, file);
    const size = fstatSync(fd).size;
    if (size !== start + header.indexBytes + header.recordsBytes) {
      failWith(
        "OMB_MODEL_INVALID",
        `the model file has ${size} bytes, its header says ${start + header.indexBytes + header.recordsBytes} (truncated or appended to)`,
        { file, hint: "save the model again with `model SPEC -o FILE`" },
      );
    }
    const recordsAt = start + header.indexBytes;
    // The bytes checked are the bytes used: the index and held records are hashed as read.
    const hash = createHash("sha256");
    const indexBytes = readBytes(fd, start, header.indexBytes);
    hash.update(indexBytes);
    let records: Buffer | undefined;
    if (header.recordsBytes <= maxHeldRecordsBytes) {
      records = readBytes(fd, recordsAt, header.recordsBytes);
      hash.update(records);
    } else hashRange(fd, recordsAt, header.recordsBytes, hash);
    if (hash.digest("hex") !== header.sha256) {
      failWith("OMB_MODEL_INVALID", "the model file's content does not match its checksum (corrupt)", {
        file,
        hint: "save the model again with `model SPEC -o FILE`",
      });
    }
    const index = parseJson(indexBytes.toString("utf8"), file, "the index");
    if (records !== undefined) {
      closeSync(fd);
      open = false;
    }
    const source: RecordSource = records !== undefined ? { records } : { fd, base: recordsAt };
    return toLazyModel(index, source, header, file);
  } catch (error) {
    if (open) closeSync(fd);
    throw error;
  }
}

/** Where records are read from: the bytes held, or the open file (closed with its reader). */
type RecordSource = { records: Buffer } | { fd: number; base: number };

/**
 * The file is closed once its reader is collected: the reader, not the model, since every tool's
 * getters hold it, and a tool outlives the model object it came in (a selection, the served
 * model, are new model objects over the same tools).
 */
const closeWhenCollected = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

function readHeader(fd: number, file: string): { header: LazyHeader; start: number } {
  const head = Buffer.alloc(MAX_HEADER_BYTES);
  const read = readSync(fd, head, 0, head.length, 0);
  const newline = head.subarray(0, read).indexOf(10);
  const text = head.subarray(0, newline < 0 ? read : newline).toString("utf8");
  if (newline < 0 || !isLazyModelHead(text)) {
    failWith("OMB_MODEL_INVALID", "not a saved bridge model (no lazy-model header)", { file, pointer: "" });
  }
  const header = parseJson(text, file, "the header") as Partial<LazyHeader>;
  if (!READ_VERSIONS.includes(header.version as number) || header.irVersion !== IR_VERSION) {
    failWith(
      "OMB_MODEL_VERSION",
      `the model file has layout ${String(header.version)} and irVersion ${String(header.irVersion)}, this bridge reads layout ${LAZY_MODEL_VERSION} and irVersion ${IR_VERSION}`,
      { file, hint: "build the model again from the spec with this version" },
    );
  }
  const sizes = [header.indexBytes, header.recordsBytes];
  if (
    !sizes.every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ||
    typeof header.sha256 !== "string"
  ) {
    failWith("OMB_MODEL_INVALID", "the model file's header lacks its sizes or checksum", { file });
  }
  return { header: header as LazyHeader, start: newline + 1 };
}

function toLazyModel(index: unknown, source: RecordSource, header: LazyHeader, file: string): BridgeModel {
  if (!isRecord(index) || !Array.isArray(index.tools)) {
    failWith("OMB_MODEL_INVALID", "the model file's index has no tools", { file, pointer: "/tools" });
  }
  const { records, shared, sharedInIndex, ...rest } = index;
  const { recordsBytes } = header;
  const spans = checkSpans(records, index.tools.length, recordsBytes, file, "records");
  const sharedSpans = checkSpans(
    shared,
    Array.isArray(shared) ? shared.length : 0,
    recordsBytes,
    file,
    "shared",
  );
  // Checked as a saved model is (version, methods, depth), with the schemas not yet there; in
  // layout 2, the depth as the tools' repeats are put back in place (one walk, not two).
  const model =
    header.version === 1
      ? checkModel(rest, file)
      : checkModelMeasured(resolveIndex(rest, index.tools, sharedInIndex, file), file);
  const reader = createRecordReader(source, sharedSpans, file);
  if ("fd" in source) closeWhenCollected.register(reader, source.fd);
  const searchIndex = isRecord(model.searchIndex) ? model.searchIndex : undefined;
  for (const [i, tool] of model.tools.entries()) {
    defineLazyFields(tool, () => reader.readRecord(spans[i]!, i));
    if (searchIndex !== undefined)
      Object.defineProperty(tool, SAVED_WITH_INDEX, {
        value: searchIndex,
        configurable: true,
        writable: true,
      });
  }
  return model;
}

/**
 * A layout 2 index with each `{"$omb:s": n}` in its tools replaced by entry n of `sharedInIndex`
 * (escapes taken off), its depth measured as checkModel measures a model's: the tools' (the
 * index's `tools`) with their repeats in place, everything else's as it is.
 */
function resolveIndex(
  index: Record<string, unknown>,
  tools: unknown[],
  sharedInIndex: unknown,
  file: string,
): Record<string, unknown> {
  if (!Array.isArray(sharedInIndex))
    failWith("OMB_MODEL_INVALID", "the model file's index lacks its shared entries", {
      file,
      pointer: "/sharedInIndex",
    });
  const failTooDeep = (): never =>
    failWith("OMB_MODEL_INVALID", `the model nests objects more than ${MAX_DOCUMENT_DEPTH} levels deep`, {
      file,
      pointer: "",
      hint: "build the model again from the spec (`model SPEC -o FILE`)",
    });
  const { tools: _tools, ...others } = index;
  if (isDeeperThan(others, MAX_DOCUMENT_DEPTH)) failTooDeep();
  const resolver = createSharedResolver({
    count: sharedInIndex.length,
    read: (n) => sharedInIndex[n],
    limit: MAX_DOCUMENT_DEPTH,
    failTooDeep,
    file,
    what: "shared index entry",
  });
  // A tool sits two levels down in a model (the model, its tools array).
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (resolver.resolve(tool, `/tools/${i}`, 2) !== tool || !isRecord(tool))
      failWith("OMB_MODEL_INVALID", `tool ${i} of the model file's index is not an object of its own`, {
        file,
        pointer: `/tools/${i}`,
      });
  }
  return index;
}

function checkSpans(value: unknown, count: number, limit: number, file: string, name: string): Span[] {
  const ok =
    Array.isArray(value) &&
    value.length === count &&
    value.every(
      (span) =>
        Array.isArray(span) &&
        span.length === 2 &&
        span.every((n) => Number.isSafeInteger(n) && n >= 0) &&
        span[0] + span[1] <= limit,
    );
  if (!ok)
    failWith("OMB_MODEL_INVALID", `the model file's ${name} offsets are malformed`, {
      file,
      pointer: `/${name}`,
    });
  return value as Span[];
}

/**
 * Each schema field of `tool` (those the index marks 0) as a getter that reads the record once
 * and then leaves plain data fields in the same key order (JSON.stringify gives the same text).
 */
function defineLazyFields(tool: ToolNode, read: () => Record<string, unknown>): void {
  const target = tool as unknown as Record<string | symbol, unknown>;
  const forget = () => delete target[SAVED_WITH_INDEX];
  const fields = HEAVY_FIELDS.filter((key) => target[key] === 0);
  if (fields.length === 0) return;
  const load = () => {
    const record = read();
    for (const key of fields) {
      Object.defineProperty(target, key, {
        value: record[key],
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
  };
  for (const key of fields) {
    Object.defineProperty(target, key, {
      enumerable: true,
      configurable: true,
      get() {
        load();
        return target[key];
      },
      set(value: unknown) {
        load();
        target[key] = value;
        forget();
      },
    });
  }
}

function createRecordReader(source: RecordSource, sharedSpans: Span[], file: string) {
  const readText =
    "records" in source
      ? (span: Span) => source.records.toString("utf8", span[0], span[0] + span[1])
      : (span: Span) => readBytes(source.fd, source.base + span[0], span[1]).toString("utf8");
  // The tool sits three levels down in a model: its schemas may use the rest of the depth.
  const resolver = createSharedResolver({
    count: sharedSpans.length,
    read: (n) => parseJson(readText(sharedSpans[n]!), file, `shared schema ${n}`),
    limit: MAX_DOCUMENT_DEPTH - 3,
    failTooDeep: (pointer) =>
      failWith(
        "OMB_MODEL_INVALID",
        `${describeRecord(pointer)}'s schemas nest more than ${MAX_DOCUMENT_DEPTH} levels deep`,
        {
          file,
          pointer,
        },
      ),
    file,
    what: "shared schema",
  });
  return {
    readRecord(span: Span, i: number): Record<string, unknown> {
      const pointer = `/tools/${i}`;
      const record = parseJson(readText(span), file, `tool ${i}'s record`);
      if (!isRecord(record))
        failWith("OMB_MODEL_INVALID", `tool ${i}'s record is not an object`, { file, pointer });
      resolver.resolve(record, pointer, 0);
      return record;
    },
  };
}

interface SharedEntries {
  /** How many entries there are. */
  count: number;
  /** Entry n as parsed, its references not yet resolved (called once per entry). */
  read(n: number): unknown;
  /** No object may be this deep (from where resolve's depth counts). */
  limit: number;
  failTooDeep(pointer: string): never;
  file: string;
  /** What an entry is called in a diagnostic: `shared schema`. */
  what: string;
}

/**
 * Puts shared entries in place of their references (`{"$omb:s": n}`), each entry resolved once
 * and then the same object wherever it is named, and takes escapes off. The walk that puts them
 * in place measures the depth as it goes (one walk, not a second one after it: a shared entry's
 * height kept once, counted from where it is put) and stops at the limit before its own
 * recursion could go deeper.
 */
function createSharedResolver(entries: SharedEntries) {
  const { count, read, limit, failTooDeep, file, what } = entries;
  /** Each shared entry resolved, with the depth of its deepest object below its root (-1: none). */
  const sharedValues = new Map<number, { value: unknown; height: number }>();
  const resolving = new Set<number>();
  /** The deepest object the walk in progress has met, from its root. */
  let deepest = -1;
  /**
   * How deep the root of the entry being resolved first sits, where it is first put: entries
   * that name entries are resolved within each other, so their depths add up there, and the
   * recursion stops at the limit however long a chain of entries a file makes.
   */
  let offset = 0;
  const readShared = (n: number, pointer: string, at: number): { value: unknown; height: number } => {
    const known = sharedValues.get(n);
    if (known !== undefined) return known;
    if (!Number.isSafeInteger(n) || n < 0 || n >= count || resolving.has(n)) {
      failWith(
        "OMB_MODEL_INVALID",
        `the model file refers to ${what} ${n}, which it lacks or nests in itself`,
        {
          file,
          pointer,
        },
      );
    }
    resolving.add(n);
    const outer = deepest;
    const outerOffset = offset;
    deepest = -1;
    offset += at;
    const value = resolveShared(read(n), pointer, 0);
    const entry = { value, height: deepest };
    deepest = outer;
    offset = outerOffset;
    resolving.delete(n);
    sharedValues.set(n, entry);
    return entry;
  };
  /** The value with each `{"$omb:s": n}` replaced by the shared entry, and escapes taken off. */
  const resolveShared = (value: unknown, pointer: string, depth: number): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (offset + depth >= limit) failTooDeep(pointer);
    if (depth > deepest) deepest = depth;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        // only objects can hold references; an unchanged one is not written back
        if (typeof item !== "object" || item === null) continue;
        const resolved = resolveShared(item, pointer, depth + 1);
        if (resolved !== item) value[i] = resolved;
      }
      return value;
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && keys[0] === SHARED && typeof record[SHARED] === "number") {
      const shared = readShared(record[SHARED], pointer, depth);
      const bottom = depth + shared.height;
      if (bottom >= limit) failTooDeep(pointer);
      if (bottom > deepest) deepest = bottom;
      return shared.value;
    }
    // An object of the spec that looks like a reference or an escape was written escaped.
    const target =
      keys.length === 1 && keys[0] === ESCAPED && isRecord(record[ESCAPED]) ? record[ESCAPED] : record;
    const targetKeys = target === record ? keys : Object.keys(target);
    for (let i = 0; i < targetKeys.length; i++) {
      const key = targetKeys[i]!;
      const member = target[key];
      if (typeof member !== "object" || member === null) continue;
      const resolved = resolveShared(member, pointer, depth + 1);
      if (resolved !== member) target[key] = resolved;
    }
    return target;
  };
  return {
    /** `value` resolved in place (a reference or escape at its root: what it stands for). */
    resolve: (value: unknown, pointer: string, depth: number): unknown => {
      deepest = -1;
      offset = 0;
      try {
        return resolveShared(value, pointer, depth);
      } catch (error) {
        // A chain of entries naming entries takes a few frames a level: one the stack cannot
        // hold is refused as too deep (the planner cuts schemas at 200 levels), not a crash.
        if (!(error instanceof RangeError)) throw error;
        resolving.clear();
        return failTooDeep(pointer);
      }
    },
  };
}

/** `/tools/3` → `tool 3`. */
function describeRecord(pointer: string): string {
  return `tool ${pointer.slice("/tools/".length)}`;
}

/** The bytes at `at`, fewer if the file ends before. */
function readBytes(fd: number, at: number, bytes: number): Buffer {
  const buffer = Buffer.allocUnsafe(bytes);
  let done = 0;
  while (done < bytes) {
    const n = readSync(fd, buffer, done, bytes - done, at + done);
    if (n === 0) break;
    done += n;
  }
  return buffer.subarray(0, done);
}

function hashRange(fd: number, at: number, bytes: number, hash: Hash): void {
  const buffer = Buffer.allocUnsafe(Math.min(HASH_CHUNK_BYTES, Math.max(bytes, 1)));
  let done = 0;
  while (done < bytes) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, bytes - done), at + done);
    if (n === 0) break;
    hash.update(buffer.subarray(0, n));
    done += n;
  }
}

function parseJson(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    return failWith(
      "OMB_MODEL_INVALID",
      `${what} of the model file is not valid JSON: ${(error as Error).message}`,
      {
        file,
      },
    );
  }
}

/** A tool's fields kept in its record. */
function readHeavyValues(tool: ToolNode): unknown[] {
  return HEAVY_FIELDS.map((key) => tool[key]);
}

/**
 * Subtrees repeated across the items' values (the tools' schemas, or their index entries),
 * found by hash-consing: a subtree of at least MIN_SHARED_BYTES gets the number of its structure (its keys and primitive values, its small
 * children's JSON text, its big children's numbers), so equal subtrees get equal numbers in one
 * pass; one met twice or more is shared. A small subtree is never shared and is keyed by its
 * text alone, so the table holds only the big ones. Objects the planner already shares are keyed
 * once (by identity).
 */
function* findSharedSubtrees<T>(
  items: readonly T[],
  valuesOf: (item: T) => unknown[],
): Generator<void, SharedSubtrees, void> {
  const numbers = new Map<string, number>();
  const sizes: number[] = [];
  const counts: number[] = [];
  const firstOf: unknown[] = [];
  /**
   * Per big object met, `#n`. A small one's JSON text is made again if it is met again rather
   * than kept: kept for every object of Graph beta's HTTP bindings, it cost `model` some 90 MB.
   */
  const tokens = new WeakMap<object, string>();
  const sizeOf = (token: string) =>
    token.charCodeAt(0) === 35 ? sizes[Number(token.slice(1))]! : token.length;
  const tokenOf = (node: object): string => {
    const known = tokens.get(node);
    if (known !== undefined) {
      if (known.charCodeAt(0) === 35) counts[Number(known.slice(1))]! += 1;
      return known;
    }
    let size = 2;
    const part = (value: unknown): string => {
      const text =
        typeof value === "object" && value !== null ? tokenOf(value) : (JSON.stringify(value) ?? "null");
      size += sizeOf(text) + 1;
      return text;
    };
    let key: string;
    if (Array.isArray(node)) key = `[${node.map(part).join(",")}]`;
    else {
      const parts: string[] = [];
      for (const [k, v] of Object.entries(node)) {
        if (v === undefined) continue;
        const ks = JSON.stringify(k);
        size += ks.length + 1;
        parts.push(`${ks}:${part(v)}`);
      }
      key = `{${parts.join(",")}}`;
    }
    let token = key;
    if (size >= MIN_SHARED_BYTES) {
      let n = numbers.get(key);
      if (n === undefined) {
        n = sizes.length;
        numbers.set(key, n);
        sizes.push(size);
        counts.push(0);
        firstOf.push(node);
      }
      counts[n]! += 1;
      token = `#${n}`;
      tokens.set(node, token);
    }
    return token;
  };
  for (const item of items) {
    for (const value of valuesOf(item)) if (typeof value === "object" && value !== null) tokenOf(value);
    yield;
  }
  numbers.clear();
  const sharedIndex = new Map<number, number>();
  const entries: unknown[] = [];
  counts.forEach((count, n) => {
    if (count >= 2) {
      sharedIndex.set(n, entries.length);
      entries.push(firstOf[n]);
    }
  });
  const entryOf = (value: object): number | undefined => {
    const token = tokens.get(value);
    return token?.charCodeAt(0) === 35 ? sharedIndex.get(Number(token.slice(1))) : undefined;
  };
  /** JSON text of `value` (as JSON.stringify writes it) with shared subtrees as references. */
  const write = (value: unknown, root: boolean): string => {
    if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
    if (!root) {
      const entry = entryOf(value);
      if (entry !== undefined) return `{"${SHARED}":${entry}}`;
    }
    if (Array.isArray(value)) return `[${value.map((item) => write(item ?? null, false)).join(",")}]`;
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      parts.push(`${JSON.stringify(k)}:${write(v, false)}`);
    }
    const text = `{${parts.join(",")}}`;
    const keys = Object.keys(value);
    return keys.length === 1 && (keys[0] === SHARED || keys[0] === ESCAPED) ? `{"${ESCAPED}":${text}}` : text;
  };
  return { entries, write };
}
