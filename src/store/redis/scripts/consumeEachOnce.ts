/**
 * consume-each-once-unless-fence-moved: marks things used, each once, in the same atomic step that
 * checks their shard's loss fence. The consumes of one shard issued together share a call.
 *
 * KEYS[1] the fence of the shard, KEYS[2..n] markers (all in the shard's hash tag, one slot).
 * ARGV[1] the fence value the caller knows; then for each marker its life in ms and its tag ('' = none).
 *
 * Returns, per marker in order, 'fresh' (set now, `SET NX PX`), 'again' (set before with the same
 * non-empty tag) or 'used'; or {'fence', current-or-false} without writing anything when the fence
 * is not the one the caller knows: the markers the caller relied on may be gone with it.
 */
export const consumeEachOnce = {
  lua: `
local fence = redis.call('GET', KEYS[1])
if fence ~= ARGV[1] then return {'fence', fence} end
local out = {}
for i = 2, #KEYS do
  local ttl, tag = ARGV[2 * i - 2], 't' .. ARGV[2 * i - 1]
  if redis.call('SET', KEYS[i], tag, 'PX', ttl, 'NX') then
    out[i - 1] = 'fresh'
  elseif tag ~= 't' and redis.call('GET', KEYS[i]) == tag then
    out[i - 1] = 'again'
  else
    out[i - 1] = 'used'
  end
end
return out
`,
} as const;
