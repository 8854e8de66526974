import type { ConsumeResult } from '../Store.js';
import { DigestTable, type DigestTableMemory, createDigestTableMemory } from './DigestTable.js';
import { keyDigest } from './keyDigest.js';

/** Words of a tag's SHA-256 kept per marker (64 bits): a retry must present the same tag. */
const TAG_WORDS = 2;

export interface MarkerTableMemory {
  table: DigestTableMemory;
  /** Each slot's tag digest; 0, 0 for a marker without a tag (a tag's first word has bit 0 set). */
  tags: Int32Array;
}

export function createMarkerTableMemory(capacity: number): MarkerTableMemory {
  const table = createDigestTableMemory(capacity);
  return { table, tags: new Int32Array(new SharedArrayBuffer(table.first.length * TAG_WORDS * 4)) };
}

/**
 * Single-use markers in shared memory (Store.consume without the `since` rule). A live marker
 * is never dropped: when every slot of a key's bucket is live, the answer is `full`.
 */
export class MarkerTable {
  readonly #table: DigestTable;
  readonly #tags: Int32Array;
  readonly #tag = new Int32Array(TAG_WORDS);

  constructor(memory: MarkerTableMemory) {
    this.#table = new DigestTable(memory.table);
    this.#tags = memory.tags;
  }

  get capacity(): number {
    return this.#table.capacity;
  }

  consume(key: string, expiresAt: number, tag: string | undefined, now: number): ConsumeResult {
    const t = this.#table;
    const tagged = tag !== undefined && tag !== '';
    if (tagged) {
      keyDigest(tag, this.#tag, TAG_WORDS);
      this.#tag[0] = this.#tag[0]! | 1;
    } else {
      this.#tag.fill(0);
    }
    const bucket = t.holdBucketOf(key);
    try {
      const found = t.find(bucket, now);
      if (found >= 0) return tagged && this.#sameTag(found) ? 'again' : 'used';
      const slot = t.free;
      if (slot < 0) return 'full';
      t.claim(slot, expiresAt);
      this.#tags.set(this.#tag, slot * TAG_WORDS);
      return 'fresh';
    } finally {
      t.release(bucket);
    }
  }

  #sameTag(slot: number): boolean {
    const tags = this.#tags;
    return tags[slot * TAG_WORDS] === this.#tag[0] && tags[slot * TAG_WORDS + 1] === this.#tag[1];
  }
}
