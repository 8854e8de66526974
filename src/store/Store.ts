/**
 * Short-lived server state. Issuing a challenge writes nothing (its id is self-authenticating);
 * the store holds only what must be remembered: single-use markers, counters and short lists of
 * recent items. Every method is atomic with respect to concurrent callers on every thread,
 * process and node sharing the store.
 *
 * A store that cannot answer (its server is down, slow or out of memory) rejects with
 * StoreUnavailableError; callers fail closed (HTTP 503 `store_unavailable`), never proceed.
 */
export interface Store {
  /**
   * Marks `key` used until `life.expiresAt` (epoch ms), once.
   * - `fresh`: this call is the one use; the marker remembers `tag` when one is given.
   * - `again`: used before by a call with the same non-empty `tag` (an idempotent retry).
   * - `used`: used before (without a tag or with another one), or issued before the store can
   *   vouch for its own memory of that key (its creation for an embedded store; for Redis, the
   *   fence of the key's shard, compared inside the consume script, which may be newer than
   *   `since()`): a store that lost its markers must not let anything issued before the loss be
   *   used again.
   * - `full`: it could not be recorded without dropping a live marker; the caller must refuse
   *   the work (fail closed), never proceed.
   */
  consume(key: string, life: Lifetime, tag?: string): Promise<ConsumeResult>;

  /**
   * Adds `by` (default 1, a whole number, never negative) to the counter `key` and returns the new count. The
   * counter starts on first use and lives `windowMs` from then (a fixed window); `by = 0` reads
   * the count (0 when absent) and creates nothing. Counters limit, they guarantee nothing: a
   * store with no room for a new counter drops the least recently used one (whose count starts
   * over), never refuses, so a flood of new keys cannot lock every client out. Whatever must
   * hold strictly (a use cap) belongs in `consume` markers instead.
   */
  increment(key: string, windowMs: number, by?: number): Promise<number>;

  /**
   * Appends `item` to the short list under `key`, keeping its newest `cap` (>= 1) items; the list lives
   * `ttlMs` from its last append. Like counters these are a best-effort memory (duplicate
   * detection): a full store forgets its least recently used lists.
   */
  append(key: string, item: Uint8Array, ttlMs: number, cap: number): Promise<void>;

  /** The live lists under `keys`, in the order of `keys`, oldest item first; [] when absent. */
  lists(keys: readonly string[]): Promise<Uint8Array[][]>;

  /**
   * Epoch ms since which this store's memory of markers is whole, as far as this node has seen:
   * its creation for an embedded store, the latest data loss it detected on any shard for a
   * server-backed one. What `consume` compares is the key's own cutoff (above), which can differ.
   */
  since(): number;

  /** What a store on servers went through since it opened (for /metrics); absent when embedded. */
  events?(): StoreEvents;

  /** Whether the store answers now (for /healthz and /readyz). Never rejects. */
  health(): Promise<StoreHealth>;

  close(): Promise<void>;
}

/** Counts of what a store on servers saw happen under it, since it opened. */
export interface StoreEvents {
  /** New server processes found holding the markers after the first: failovers and restarts. */
  failoversSeen: number;
  /** Loss fences this node replaced: gone with their data ('lost') or of another server process ('process'). */
  fenceReplacements: { lost: number; process: number };
  /** Redis Cluster slots seen served by another primary than before (a resharding or a failover). */
  slotsMoved: number;
}

/** The times of a single-use thing, epoch ms. */
export interface Lifetime {
  /** When it was issued (a challenge's creation, a token's iat). */
  issuedAt: number;
  /** When it stops being usable: its marker lives until then. */
  expiresAt: number;
}

export type ConsumeResult = 'fresh' | 'again' | 'used' | 'full';

export interface StoreHealth {
  ok: boolean;
  /** Why not, when not ok; what is down, when only a part is. */
  detail?: string;
  /** The parts that are down while the rest answers (a Redis Cluster with a primary down). */
  down?: { part: string; problem: string }[];
}

/** The store cannot answer now; the request must be refused (HTTP 503 `store_unavailable`). */
export class StoreUnavailableError extends Error {
  readonly code = 'store_unavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
