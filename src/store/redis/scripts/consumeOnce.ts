/**
 * consume-once-unless-fence-moved: marks a thing used, once, in the same atomic step that checks
 * its shard's loss fence.
 *
 * KEYS[1] marker, KEYS[2] the fence of the marker's shard (same hash tag, same slot).
 * ARGV[1] the fence value the caller knows, ARGV[2] the marker's life in ms, ARGV[3] the tag ('' = none).
 *
 * Returns 'fresh' (set now, `SET NX PX`), 'again' (set before with the same non-empty tag),
 * 'used', or {'fence', current-or-false} without writing when the fence is not the one the
 * caller knows: the markers the caller relied on may be gone with it.
 */
export const consumeOnce = {
  numberOfKeys: 2,
  lua: `
local fence = redis.call('GET', KEYS[2])
if fence ~= ARGV[1] then return {'fence', fence} end
if redis.call('SET', KEYS[1], 't' .. ARGV[3], 'PX', ARGV[2], 'NX') then return 'fresh' end
if ARGV[3] ~= '' and redis.call('GET', KEYS[1]) == 't' .. ARGV[3] then return 'again' end
return 'used'
`,
} as const;
