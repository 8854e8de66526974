import { SHAPE_SIZE, SHAPE_POINTS } from '../../kernel/features.js';
import type { Store } from '../../store/Store.js';

export interface FingerprintOptions {
  /** How long an accepted trace is remembered (ms). */
  ttlMs?: number;
  /** Largest difference of a timing sample between copies of one trace. */
  timingTolerance?: number;
  /** Largest difference of a path-progress sample between copies of one trace. */
  progressTolerance?: number;
}

/** Timing samples used for the bucket key, and the key's quantisation step. */
const KEY_SAMPLES = [3, 8, 13, 18] as const;
const KEY_STEP = 0.125;
const BUCKET_CAP = 32;
const KEY_PREFIX = 'trace:';

/**
 * A memory of recently accepted traces, by their kernel shape (timing curve, then progress
 * curve), kept in the store so every thread, process and node sharing it sees the same traces.
 * Both curves ignore translation, scale and uniform re-timing, and the timing curve ignores the
 * maze, so a trace replayed on another maze still matches. Copies must agree closely on timing
 * and loosely on progress; the measured gap between copies and distinct people is in the
 * calibration notes. Looking up and remembering are two steps: two copies submitted at the same
 * instant can both pass; a later one cannot.
 */
export class TraceFingerprints {
  readonly #store: Store;
  readonly #ttlMs: number;
  readonly #timingTolerance: number;
  readonly #progressTolerance: number;

  constructor(store: Store, options: FingerprintOptions = {}) {
    this.#store = store;
    this.#ttlMs = options.ttlMs ?? 15 * 60_000;
    this.#timingTolerance = options.timingTolerance ?? 0.006;
    this.#progressTolerance = options.progressTolerance ?? 0.15;
  }

  /** True when a near-copy of `shape` was remembered. */
  async has(shape: ArrayLike<number>): Promise<boolean> {
    if (!usable(shape)) return false;
    const lists = await this.#store.lists(this.#keys(shape, true));
    return lists.some((list) => list.some((bytes) => this.#near(bytes, shape)));
  }

  async remember(shape: ArrayLike<number>): Promise<void> {
    if (!usable(shape)) return;
    await this.#store.append(this.#keys(shape, false)[0]!, encodeShape(shape), this.#ttlMs, BUCKET_CAP);
  }

  /** The shape's bucket, and with `neighbours` every bucket a near-copy could fall in. */
  #keys(shape: ArrayLike<number>, neighbours: boolean): string[] {
    const reach = neighbours ? this.#timingTolerance / KEY_STEP : 0;
    let keys = [KEY_PREFIX];
    for (const i of KEY_SAMPLES) {
      const v = shape[i]! / KEY_STEP;
      const q = Math.floor(v);
      const options = [q];
      if (v - q < reach) options.push(q - 1);
      if (q + 1 - v <= reach) options.push(q + 1);
      keys = keys.flatMap((k) => options.map((o) => `${k}${o},`));
    }
    return keys;
  }

  /**
   * Whether a remembered shape (encodeShape's bytes) is near `b`. Read in place, sample by sample,
   * up to the first that differs (most do within the first few): no decoded copy per candidate.
   * Bytes of another length are never near.
   */
  #near(bytes: Uint8Array, b: ArrayLike<number>): boolean {
    if (bytes.byteLength !== 4 * SHAPE_SIZE) return false;
    const a = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < SHAPE_SIZE; i++) {
      const tolerance = i < SHAPE_POINTS ? this.#timingTolerance : this.#progressTolerance;
      if (!(Math.abs(a.getFloat32(4 * i, true) - b[i]!) <= tolerance)) return false;
    }
    return true;
  }
}

/** Traces without duration or path have an all-zero shape and are not fingerprinted. */
function usable(shape: ArrayLike<number>): boolean {
  return shape.length >= SHAPE_SIZE && shape[SHAPE_SIZE - 1]! > 0;
}

/** A shape as little-endian float32 bytes, the same on every node. */
function encodeShape(shape: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(4 * SHAPE_SIZE);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < SHAPE_SIZE; i++) view.setFloat32(4 * i, shape[i]!, true);
  return bytes;
}
