import type { RunInfo, RunListQuery, RunStore, RunStoreOptions } from "./runs.js";

/**
 * What {@link RedisRunStore} needs of a Redis client: a connected client of the `redis` package
 * (node-redis 4 or later, `createClient()`) has it.
 */
export interface RedisClient {
  /** Sends one command; resolves with its reply (strings, numbers, arrays, `null`). */
  sendCommand(args: ReadonlyArray<string | Uint8Array>, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  /** Where connection errors are emitted (the store listens, so that they never end the process). */
  on?(event: "error", listener: (error: unknown) => void): unknown;
  off?(event: "error", listener: (error: unknown) => void): unknown;
  /** A new client like this one (for pub/sub), connected by `connect()` when not yet open. */
  duplicate?(): RedisClient;
  connect?(): Promise<unknown>;
  isOpen?: boolean;
  subscribe?(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe?(channel: string): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
}

/** Options of {@link RedisRunStore}: the common ones (`retentionMs`, `maxEvents`, `maxBytes`, `maxRuns`, `now`) and its own. */
export interface RedisRunStoreOptions extends RunStoreOptions {
  /** Prefix of every key and channel. @defaultValue "agentwire:" */
  prefix?: string;
  /**
   * How long the instance running a run holds it without renewing (it renews every third of
   * this); a run whose lease lapsed is lost: its readers get a `RUN_LOST` failure.
   * @defaultValue 10 000 ms
   */
  leaseMs?: number;
  /**
   * How often a waiting reader looks at the run besides pub/sub wake-ups (for a lapsed lease,
   * or a missed message); also how often it tells that it is reading (`abandonAfterMs` must be
   * longer). @defaultValue 1 000 ms
   */
  pollMs?: number;
  /**
   * The deadline of every Redis command (and of connecting and subscribing): a Redis down,
   * restarting or too slow makes calls reject with `STORE_UNAVAILABLE` after at most this
   * (a command waiting in the client's offline queue is withdrawn). @defaultValue 5 000 ms
   */
  commandTimeoutMs?: number;
  /** A connected client for pub/sub (by default the store duplicates `client` and connects it). */
  subscriber?: RedisClient;
}

/**
 * Runs kept in Redis, shared by every instance on the same server: a run started on one
 * instance is resumed and canceled from any other, and an instance that dies leaves its
 * readers a `RUN_LOST` failure within `leaseMs`. One server or a primary (not Redis Cluster);
 * Redis 7 or later lets a full Redis (maxmemory, noeviction) still serve readers and end runs.
 *
 * Outages never end the process: the store gives the client, and the subscriber it opens, an
 * `error` listener; calls reject with `STORE_UNAVAILABLE` within `commandTimeoutMs` while Redis
 * is down, full (new runs and appends) or not answering, and work again once it is back.
 */
export declare class RedisRunStore {
  /** @throws AgentwireError `INVALID_OPTION` naming the option (`client` for a client without `sendCommand`). */
  constructor(client: RedisClient, options?: RedisRunStoreOptions);
  /** Stops renewing leases and closes the subscriber connection it opened (not `client`). */
  close(): Promise<void>;
  /**
   * The runs of `principal` of `protocol` that `match`, newest start first, as
   * {@link MemoryRunStore.list} lists them (A2A `ListTasks` over this store). Costs O(runs of
   * the principal kept).
   */
  list(query: RunListQuery): Promise<{ runs: Array<RunInfo & { seq: number }>; total: number }>;
}
export interface RedisRunStore extends RunStore {}
