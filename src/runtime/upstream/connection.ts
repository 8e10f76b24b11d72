/**
 * One API's connection: its HTTP limits, connection pool, concurrency limit and circuit
 * breaker. A bridge runtime makes its own unless it is given one; hot reload gives every
 * version of an API's tools the same one, so a reload neither resets an open circuit nor lets
 * the calls of the old and new versions together exceed the concurrency limit.
 */
import type { Dispatcher } from "undici";
import { watchBreaker } from "../telemetry/telemetry-hooks.js";
import { createUpstreamClient, type ResolvedUpstreamOptions, type UpstreamClient } from "./client.js";
import { createHttpAgent, type HttpOptions } from "./send.js";

export interface ApiConnection {
  http: HttpOptions;
  upstream: UpstreamClient;
  getDispatcher(): Promise<Dispatcher>;
  /** Closes the pool (when the connection made it). */
  close(): Promise<void>;
}

/** A connection's options, defaults applied (engine/bridge-options.ts: resolveBridgeOptions). */
export interface ConnectionOptions {
  http: HttpOptions;
  upstream: ResolvedUpstreamOptions;
  /** A dispatcher to send requests with (default: a keep-alive undici Agent, made on first use). */
  dispatcher?: Dispatcher;
}

export function createApiConnection(options: ConnectionOptions): ApiConnection {
  const { http } = options;
  const ownsDispatcher = options.dispatcher === undefined;
  let dispatcher: Promise<Dispatcher> | undefined = options.dispatcher
    ? Promise.resolve(options.dispatcher)
    : undefined;
  let closing: Promise<void> | undefined;
  const getDispatcher = () => {
    dispatcher ??= createHttpAgent(http);
    return dispatcher;
  };
  const upstream = createUpstreamClient({ ...options.upstream, http, getDispatcher });
  // The breaker gauge reads it while the connection lives (nothing is read with telemetry off).
  const unwatch = watchBreaker(upstream.breaker);
  return {
    http,
    upstream,
    getDispatcher,
    // Closing twice (a session and its owner) closes once.
    close: () => {
      unwatch();
      closing ??= ownsDispatcher && dispatcher ? dispatcher.then((d) => d.close()) : Promise.resolve();
      return closing;
    },
  };
}
