import type { RunStore } from "./runs.js";

/**
 * What {@link RedisRunStore} needs of a Redis client: a connected client of the `redis` package
 * (node-redis 4 or later, `createClient()`) has it.
 */
export interface RedisClient {
  /** Sends one command; resolves with its reply (strings, numbers, arrays, `null`). */
  sendCommand(args: ReadonlyArray<string>): Promise<unknown>;
  /** A new client like this one (for pub/sub), connected by `connect()` when not yet open. */
  duplicate?(): RedisClient;
  connect?(): Promise<unknown>;
  isOpen?: boolean;
  subscribe?(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe?(channel: string): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
}

/** Options of {@link RedisRunStore}. */
export interface RedisRunStoreOptions {
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
  /** How long an ended run's log is kept (then `RUN_GONE` for as long again). @defaultValue 10 minutes */
  retentionMs?: number;
  /** Events kept per run; older ones are dropped. @defaultValue 100 000 */
  maxEvents?: number;
  /** Bytes kept per run, likewise. @defaultValue 16 MiB */
  maxBytes?: number;
  /** A connected client for pub/sub (by default the store duplicates `client` and connects it). */
  subscriber?: RedisClient;
}

/**
 * Runs kept in Redis, shared by every instance on the same server: a run started on one
 * instance is resumed and canceled from any other, and an instance that dies leaves its
 * readers a `RUN_LOST` failure within `leaseMs`. One server or a primary (not Redis Cluster).
 */
export declare class RedisRunStore {
  constructor(client: RedisClient, options?: RedisRunStoreOptions);
  /** Stops renewing leases and closes the subscriber connection it opened (not `client`). */
  close(): Promise<void>;
}
export interface RedisRunStore extends RunStore {}
