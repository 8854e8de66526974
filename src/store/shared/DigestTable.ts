import { BucketLocks } from './BucketLocks.js';
import { keyDigest } from './keyDigest.js';
import { isStale } from '../helpers/isStale.js';

/** Slots of a bucket: the slots a key may occupy, scanned whole by every operation on it. */
export const BUCKET_SLOTS = 64;
/** Words of a key's SHA-256 kept per slot (96 bits). */
const KEY_WORDS = 3;

/**
 * The shared arrays of one table (each on its own SharedArrayBuffer, so that posting this
 * object to a worker thread shares it). Slot `s` of bucket `b` is index `b * BUCKET_SLOTS + s`
 * of every array; a bucket's first key words are contiguous, so a scan reads few cache lines.
 */
export interface DigestTableMemory {
  /** One lock word per bucket (BucketLocks). */
  locks: Int32Array;
  /** First word of each slot's key digest, never 0 when the slot is taken: 0 is an empty slot. */
  first: Int32Array;
  /** The two other words of each slot's key digest. */
  rest: Int32Array;
  /** When each slot's entry stops being live, epoch ms: a slot whose time has passed is free again. */
  expiresAt: Float64Array;
}

const shared = <T>(Kind: { BYTES_PER_ELEMENT: number; new (buffer: SharedArrayBuffer): T }, length: number): T =>
  new Kind(new SharedArrayBuffer(length * Kind.BYTES_PER_ELEMENT));

/** Zeroed (empty) memory for at least `capacity` slots: a power of two of whole buckets. */
export function createDigestTableMemory(capacity: number): DigestTableMemory {
  if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  const buckets = 2 ** Math.ceil(Math.log2(Math.ceil(capacity / BUCKET_SLOTS)));
  const slots = buckets * BUCKET_SLOTS;
  return {
    locks: shared(Int32Array, buckets),
    first: shared(Int32Array, slots),
    rest: shared(Int32Array, slots * (KEY_WORDS - 1)),
    expiresAt: shared(Float64Array, slots),
  };
}

/**
 * A fixed-capacity table of string keys with expiry, shared by threads: a key lives in the
 * bucket its digest names, and every operation on a bucket holds that bucket's lock, so two
 * threads can never both find a key absent and both insert it. Callers hold a bucket with
 * `holdBucketOf`, `find` and `claim` inside it, and `release` it in a `finally`.
 */
export class DigestTable {
  readonly #memory: DigestTableMemory;
  readonly #locks: BucketLocks;
  readonly #mask: number;
  readonly #digest = new Int32Array(KEY_WORDS);
  /** After `find`: an empty or expired slot of the bucket, or -1 when every slot is live. */
  free = -1;

  constructor(memory: DigestTableMemory) {
    this.#memory = memory;
    this.#locks = new BucketLocks(memory.locks);
    this.#mask = memory.locks.length - 1;
  }

  /** Slots in all (a power of two of whole buckets). */
  get capacity(): number {
    return this.#memory.first.length;
  }

  /** Digests `key`, holds its bucket's lock, and returns the bucket. */
  holdBucketOf(key: string): number {
    const d = this.#digest;
    keyDigest(key, d, KEY_WORDS);
    // Bit 0 set: a taken slot's first word is never the empty mark. Bucket from another word.
    d[0] = d[0]! | 1;
    const bucket = d[1]! & this.#mask;
    this.#locks.hold(bucket);
    return bucket;
  }

  release(bucket: number): void {
    this.#locks.release(bucket);
  }

  /** The slot holding the live entry of the held key, or -1; sets `free`. */
  find(bucket: number, now: number): number {
    const { first, rest, expiresAt } = this.#memory;
    const [d0, d1, d2] = this.#digest;
    let free = -1;
    const start = bucket * BUCKET_SLOTS;
    for (let s = start; s < start + BUCKET_SLOTS; s++) {
      const f = first[s]!;
      if (f === 0 || isStale(expiresAt[s]!, now)) {
        if (free < 0) free = s;
      } else if (f === d0 && rest[2 * s] === d1 && rest[2 * s + 1] === d2) {
        this.free = free;
        return s;
      }
    }
    this.free = free;
    return -1;
  }

  /** The slot of the bucket whose entry expires first (the one to evict when no slot is free). */
  soonestToExpire(bucket: number): number {
    const { expiresAt } = this.#memory;
    let soonest = bucket * BUCKET_SLOTS;
    for (let s = soonest + 1; s < (bucket + 1) * BUCKET_SLOTS; s++) if (expiresAt[s]! < expiresAt[soonest]!) soonest = s;
    return soonest;
  }

  /** Puts the held key in `slot` until `expiresAt`. */
  claim(slot: number, expiresAt: number): void {
    const m = this.#memory;
    const [d0, d1, d2] = this.#digest;
    m.first[slot] = d0!;
    m.rest[2 * slot] = d1!;
    m.rest[2 * slot + 1] = d2!;
    m.expiresAt[slot] = expiresAt;
  }
}
