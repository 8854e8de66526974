/**
 * consume-each-once-unless-fence-moved: marks things used, each once, in the same atomic step that
 * checks their shard's loss fence. The consumes issued together share a call, grouped by shard.
 *
 * KEYS, per group: the fence of a shard, then its markers (all in that shard's hash tag).
 * ARGV, per group: the number of markers, the fence value the caller knows, then for each marker
 * its life in ms and its tag ('' = none).
 *
 * Returns one reply per group, in order: a string with one letter per marker, `f` (fresh: set
 * now, `SET NX PX`), `a` (again: set before with the same non-empty tag) or `u` (used); or
 * {'fence', current-or-false} without writing anything of that group when its fence is not the
 * one the caller knows: the markers the caller relied on may be gone with it. One string per
 * group rather than one per marker keeps the reply small to send and to parse. A Redis Cluster
 * needs one call per slot: every group here is one shard, that is one hash tag.
 */
export const consumeEachOnce = {
  sendAtOnce: true,
  lua: `
local out, k, a = {}, 1, 1
while a <= #ARGV do
  local n, known = tonumber(ARGV[a]), ARGV[a + 1]
  local fence = redis.call('GET', KEYS[k])
  if fence ~= known then
    out[#out + 1] = {'fence', fence}
  else
    local verdicts = {}
    for i = 1, n do
      local marker, ttl, tag = KEYS[k + i], ARGV[a + 2 * i], 't' .. ARGV[a + 2 * i + 1]
      if redis.call('SET', marker, tag, 'PX', ttl, 'NX') then
        verdicts[i] = 'f'
      elseif tag ~= 't' and redis.call('GET', marker) == tag then
        verdicts[i] = 'a'
      else
        verdicts[i] = 'u'
      end
    end
    out[#out + 1] = table.concat(verdicts)
  end
  k, a = k + 1 + n, a + 2 + 2 * n
end
return out
`,
} as const;
