import { isStale } from './helpers/isStale.js';

/** A marker found: the idempotency tag it was consumed with, if any. */
export interface FoundMarker {
  tag: string | undefined;
}

/** A marker consumed with a tag; one without is stored as its bare expiresAt. */
interface TaggedMarker {
  expiresAt: number;
  tag: string;
}

/**
 * Single-use markers, each kept until its own `expiresAt` (epoch ms, through the whole
 * millisecond it falls in) and never dropped before: when `max` are held and a sweep of the
 * expired frees none, `insert` refuses and the caller fails closed. A plain Map from key to
 * expiry: markers need no recency order, and lru-cache's would keep arrays of `max` slots (two
 * of them written at creation, 8 MiB for a million) and an object per marker.
 */
export class LiveMarkers {
  readonly #map = new Map<string, number | TaggedMarker>();
  readonly #max: number;
  readonly #now: () => number;
  readonly #reclaimIntervalMs: number;
  /** While full, no sweep before this time: refusals stay O(1) under a flood. */
  #nextReclaimAt = 0;

  constructor(opts: {
    /** Most markers held at once, live or awaiting a sweep. */
    max: number;
    /** Clock in epoch ms, the one `expiresAt` is written in. */
    now: () => number;
    /** While full of live markers, the least time between two sweeps (each walks every marker). */
    reclaimIntervalMs: number;
  }) {
    if (!Number.isSafeInteger(opts.max) || opts.max < 1) {
      throw new RangeError(`max must be a positive integer, got ${opts.max}`);
    }
    this.#max = opts.max;
    this.#now = opts.now;
    this.#reclaimIntervalMs = opts.reclaimIntervalMs;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The live marker under `key`, or undefined (a stale one is dropped). */
  get(key: string): FoundMarker | undefined {
    const entry = this.#map.get(key);
    if (entry === undefined) return undefined;
    if (!isStale(expiryOf(entry), this.#now())) return { tag: typeof entry === 'number' ? undefined : entry.tag };
    this.#map.delete(key);
    return undefined;
  }

  /**
   * Records `key` (which `get` just found absent) until `expiresAt`, with `tag` if given. False
   * only when full of live markers: the caller fails closed.
   */
  insert(key: string, expiresAt: number, tag: string | undefined): boolean {
    if (this.#map.size >= this.#max && !this.#reclaim(this.#now())) return false;
    this.#map.set(key, tag === undefined ? expiresAt : { expiresAt, tag });
    return true;
  }

  clear(): void {
    this.#map.clear();
    this.#nextReclaimAt = 0;
  }

  /** Drops stale markers if a sweep is due; true when there is room afterwards. */
  #reclaim(now: number): boolean {
    if (now < this.#nextReclaimAt) return false;
    // Deleting the entry just visited is safe in a Map's iteration.
    for (const [key, entry] of this.#map) if (isStale(expiryOf(entry), now)) this.#map.delete(key);
    if (this.#map.size < this.#max) return true;
    // Still full of live markers: nothing can free before the earliest of them expires.
    let earliest = Infinity;
    for (const entry of this.#map.values()) earliest = Math.min(earliest, expiryOf(entry));
    this.#nextReclaimAt = Math.max(Math.ceil(earliest) + 1, now + this.#reclaimIntervalMs);
    return false;
  }
}

const expiryOf = (entry: number | TaggedMarker) => (typeof entry === 'number' ? entry : entry.expiresAt);
