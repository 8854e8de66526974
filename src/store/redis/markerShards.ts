import calculateSlot from 'cluster-key-slot';

/**
 * Single-use markers are spread over shards, each with its own hash tag and its own loss fence,
 * so every consume reads its shard's fence in the same slot, atomically.
 *
 * On one Redis (direct or through Sentinel) the count does not change how many calls a turn makes
 * (one call takes any keys), and these 16 tags are the layout every earlier version used.
 */
export const MARKER_SHARDS = 16;

/**
 * On a Redis Cluster every batched call is split by slot, so each shard a turn touches costs a
 * call: with 16 shards a turn of about 20 /verify made about 10 consume calls, and the Cluster
 * nodes spent 40-80 µs more CPU per /verify than nodes on one Redis (bench/cluster.ts). 6 shards
 * still spread the markers evenly over 1, 2, 3 or 6 primaries of evenly split slot ranges (the
 * layout `redis-cli --cluster create` makes), so a primary's death costs its share of the markers
 * only.
 */
export const CLUSTER_MARKER_SHARDS = 6;

/** The slots of a Redis Cluster. */
export const CLUSTER_SLOTS = 16_384;

/**
 * The hash tags of the marker shards (without braces). A Cluster's shard `i` gets the first tag
 * `c<i>.<k>` whose slot lies within an eighth of a window of the centre of the `i`th of
 * CLUSTER_MARKER_SHARDS equal slot windows: every node computes the same tags, and they fall on
 * different primaries of an evenly split Cluster however many of them there are.
 */
export function markerShardTags(cluster: boolean): readonly string[] {
  if (!cluster) return Array.from({ length: MARKER_SHARDS }, (_, shard) => `m${shard}`);
  const window = CLUSTER_SLOTS / CLUSTER_MARKER_SHARDS;
  return Array.from({ length: CLUSTER_MARKER_SHARDS }, (_, shard) => {
    const centre = (shard + 0.5) * window;
    for (let k = 0; ; k++) {
      const tag = `c${shard}.${k}`;
      if (Math.abs(calculateSlot(tag) - centre) <= window / 8) return tag;
    }
  });
}

/**
 * Called on the key rather than looked up on it: keys are joined strings of several shapes, and
 * `key.charCodeAt` was seen to cost a generic property lookup for every character.
 */
const charCodeAt = String.prototype.charCodeAt;

/** The shard of `key` among `shards`: FNV-1a of the key (exported for the tests that need to know where a marker lives). */
export function shardOf(key: string, shards: number): number {
  let h = 0x811c9dc5;
  const length = key.length;
  for (let i = 0; i < length; i++) h = Math.imul(h ^ charCodeAt.call(key, i), 0x01000193);
  return (h >>> 0) % shards;
}
