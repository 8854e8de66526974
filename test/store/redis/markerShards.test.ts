import calculateSlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { CLUSTER_MARKER_SHARDS, CLUSTER_SLOTS, MARKER_SHARDS, markerShardTags, shardOf } from '../../../src/store/redis/markerShards.js';

describe('marker shards', () => {
  it('on one Redis keeps the 16 tags of earlier versions, so what was consumed before an upgrade stays consumed', () => {
    expect(markerShardTags(false)).toEqual(Array.from({ length: 16 }, (_, i) => `m${i}`));
    expect(MARKER_SHARDS).toBe(16);
  });

  it('on a Cluster, spreads its shards evenly over 1, 2, 3 or 6 primaries of evenly split slots', () => {
    const tags = markerShardTags(true);
    expect(tags).toHaveLength(CLUSTER_MARKER_SHARDS);
    expect(markerShardTags(true)).toEqual(tags);
    const slots = tags.map((tag) => calculateSlot(tag));
    expect(new Set(slots).size).toBe(tags.length);
    for (const primaries of [1, 2, 3, 6]) {
      // Primary p serves the slots [p * CLUSTER_SLOTS / n, (p + 1) * CLUSTER_SLOTS / n), as redis-cli --cluster create splits them.
      const held = Array.from({ length: primaries }, () => 0);
      for (const slot of slots) held[Math.floor((slot * primaries) / CLUSTER_SLOTS)]!++;
      expect(held).toEqual(held.map(() => tags.length / primaries));
    }
  });

  it('puts each key in one shard, the same every time, and spreads keys evenly', () => {
    const counts = Array.from({ length: CLUSTER_MARKER_SHARDS }, () => 0);
    for (let i = 0; i < 6_000; i++) {
      const key = `challenge:${i.toString(16).padStart(8, '0')}-4a1b`;
      const shard = shardOf(key, CLUSTER_MARKER_SHARDS);
      expect(shardOf(key, CLUSTER_MARKER_SHARDS)).toBe(shard);
      counts[shard]!++;
    }
    for (const n of counts) expect(n).toBeGreaterThan(850);
    for (const n of counts) expect(n).toBeLessThan(1_150);
  });
});
