/**
 * MCP over stdio: one JSON-RPC message per line on stdin and stdout. The SDK's own transport
 * gives up on a message over 10 MiB (it throws, closes, and the bridge exits without a word),
 * so a client that sends one large upload loses the bridge. Here a message over the limit is
 * skipped to its end of line and refused: the client gets a JSON-RPC error for its request id
 * (found at the start or the end of the line, where clients put it), stderr gets one line, and
 * the bridge keeps serving. A line that is not a valid message gets an error too, when it has an
 * id to answer.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/server";
import { type JSONRPCMessage, ProtocolErrorCode, parseJSONRPCMessage } from "@modelcontextprotocol/server";

export interface StdioTransportOptions {
  /** The largest message read, in bytes (default 10 MiB). */
  maxMessageBytes: number;
  /**
   * Told once when the transport closes (stdin ended or close() called). Not `onclose`: the
   * serving entry (serveStdio) owns that one.
   */
  onClosed?: () => void;
  /** Told once per refused message, for a line on stderr. */
  onRefused?: (problem: { bytes: number; id: string | number | undefined }) => void;
  stdin?: Readable;
  stdout?: Writable;
}

/** How much of the start and the end of a refused line is kept, to find its id. */
const EDGE_BYTES = 1024;

type RequestId = string | number;

export class LimitedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #options: StdioTransportOptions;
  /** The line being read, in chunks. */
  #chunks: Buffer[] = [];
  #size = 0;
  /** Set while a line over the limit is skipped: its start, its last bytes, its length. */
  #skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  #closed = false;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
  }

  async start(): Promise<void> {
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
    this.#stdin.on("end", this.#onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    this.#stdin.off("end", this.#onEnd);
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#chunks = [];
    this.onclose?.();
    this.#options.onClosed?.();
  }

  readonly #onError = (error: Error) => this.onerror?.(error);
  readonly #onEnd = () => void this.close();

  readonly #onData = (chunk: Buffer) => {
    let rest = chunk;
    while (rest.length > 0) {
      const newline = rest.indexOf(0x0a);
      const part = newline === -1 ? rest : rest.subarray(0, newline);
      this.#take(part);
      if (newline === -1) return;
      this.#endLine();
      rest = rest.subarray(newline + 1);
    }
  };

  /** A piece of the current line: kept, or counted and mostly dropped while skipping. */
  #take(part: Buffer): void {
    if (part.length === 0) return;
    const skipping = this.#skipping;
    if (skipping) {
      skipping.bytes += part.length;
      skipping.tail = Buffer.concat([skipping.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.#size + part.length <= this.#options.maxMessageBytes) {
      this.#chunks.push(part);
      this.#size += part.length;
      return;
    }
    const line = Buffer.concat([...this.#chunks, part]);
    this.#skipping = {
      head: line.subarray(0, EDGE_BYTES),
      tail: line.subarray(-EDGE_BYTES),
      bytes: line.length,
    };
    this.#chunks = [];
    this.#size = 0;
  }

  #endLine(): void {
    const skipped = this.#skipping;
    if (skipped) {
      this.#skipping = undefined;
      const id = findRequestId(skipped.head.toString("utf8"), skipped.tail.toString("utf8"));
      this.#options.onRefused?.({ bytes: skipped.bytes, id });
      this.#refuse(
        id,
        ProtocolErrorCode.InvalidRequest,
        `Request too large: ${skipped.bytes} bytes is over the bridge's limit of ${this.#options.maxMessageBytes} bytes for one message over stdio (--max-message-bytes); send less (a base64 upload grows by a third)`,
      );
      return;
    }
    // Most lines arrive in one chunk: decoded from it without a copy into a new buffer first.
    const chunks = this.#chunks;
    const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size)).toString("utf8");
    const line = text.endsWith("\r") ? text.slice(0, -1) : text;
    this.#chunks = [];
    this.#size = 0;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#refuse(undefined, ProtocolErrorCode.ParseError, "Parse error: the line is not JSON");
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      const id = (value as { id?: unknown } | null)?.id;
      const known = typeof id === "string" || typeof id === "number" ? id : undefined;
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      if (known !== undefined)
        this.#refuse(
          known,
          ProtocolErrorCode.InvalidRequest,
          "Invalid request: not a valid JSON-RPC message",
        );
      return;
    }
    this.onmessage?.(message);
  }

  /** A JSON-RPC error for `id`, or with a null id when none could be found. */
  #refuse(id: RequestId | undefined, code: number, message: string): void {
    const error = { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
    this.#stdout.write(`${JSON.stringify(error)}\n`);
  }
}

/** The `id` of a message from its first and last bytes: `{"jsonrpc":"2.0","id":5,...}` or `...,"id":5}`. */
export function findRequestId(head: string, tail: string): RequestId | undefined {
  const value = String.raw`("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})`;
  const atEnd = new RegExp(String.raw`"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  const atStart = new RegExp(
    String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"]*"\s*,)*\s*"id"\s*:\s*${value}`,
  ).exec(head);
  const found = atEnd?.[1] ?? atStart?.[1];
  if (found === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(found);
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}
