/**
 * One API's connection: its HTTP limits, connection pool, concurrency limit and circuit
 * breaker. A bridge runtime makes its own unless it is given one; hot reload gives every
 * version of an API's tools the same one, so a reload neither resets an open circuit nor lets
 * the calls of the old and new versions together exceed the concurrency limit.
 */
import type { Dispatcher } from "undici";
import { OPTION_TABLE } from "../config/option-table.js";
import type { BridgeOptions } from "../engine/bridge-options.js";
import { createUpstreamClient, type UpstreamClient } from "./client.js";
import { createHttpAgent, type HttpOptions } from "./send.js";

export interface ApiConnection {
  http: HttpOptions;
  upstream: UpstreamClient;
  getDispatcher(): Promise<Dispatcher>;
  /** Closes the pool (when the connection made it). */
  close(): Promise<void>;
}

export function createApiConnection(options: BridgeOptions): ApiConnection {
  const timeoutMs = options.timeoutMs ?? OPTION_TABLE.timeout.default;
  const http: HttpOptions = {
    timeoutMs,
    // A connect timeout longer than the whole call's would never fire.
    connectTimeoutMs: options.connectTimeoutMs ?? Math.min(OPTION_TABLE.connectTimeout.default, timeoutMs),
    maxResponseBytes: options.maxResponseBytes ?? OPTION_TABLE.maxResponseBytes.default,
  };
  const ownsDispatcher = options.dispatcher === undefined;
  let dispatcher: Promise<Dispatcher> | undefined = options.dispatcher
    ? Promise.resolve(options.dispatcher)
    : undefined;
  const getDispatcher = () => {
    dispatcher ??= createHttpAgent(http);
    return dispatcher;
  };
  const upstream = createUpstreamClient({
    http,
    getDispatcher,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.circuitBreaker !== undefined ? { circuitBreaker: options.circuitBreaker } : {}),
    ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
  });
  return {
    http,
    upstream,
    getDispatcher,
    close: async () => {
      if (ownsDispatcher && dispatcher) await (await dispatcher).close();
    },
  };
}
