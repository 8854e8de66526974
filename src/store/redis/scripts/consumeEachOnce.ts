/**
 * consume-each-once-unless-fence-moved: marks things used, each once, in the same atomic step that
 * checks their shard's loss fence and compares each thing's issue time with the fence's cutoff.
 * The consumes issued together share a call, grouped by shard.
 *
 * KEYS, per group: the fence of a shard, then its markers (all in that shard's hash tag).
 * ARGV[1], the groups' values as one text (see encodeConsumes): per group the number of markers
 * and the fence value the caller knows, then for each marker its life in ms, its issue time
 * (epoch ms) and its tag ('' = none). One argument rather than four per marker: the client
 * prepares and the server parses every argument on its own, and that was most of the cost of a
 * call.
 *
 * Returns one reply per group, in order: a string with one letter per marker, `f` (fresh: set
 * now, `SET NX PX`), `a` (again: set before with the same non-empty tag) or `u` (used: set
 * before, or issued before the fence's `since`, when the markers may have been lost, and then
 * nothing is written); or {'fence', current-or-false} without writing anything of that group when
 * its fence is not the one the caller knows (or its cutoff cannot be read): the markers the
 * caller relied on may be gone with it. The cutoff is read here, from the fence key, never taken
 * from the caller: a node that compared before sending could see the fence opened again between
 * its comparison and the consume (a failover whose first re-opening failed), and redeem on the
 * new process what its lost markers had used. The fence must also name the process running the
 * script and its replication history (its run_id and replication id, see openFence); when it
 * names another, the reply is {'fence', false}: this process may be a promoted replica that never
 * received the newest markers, the same process promoted again after it was a replica, or a
 * restart that lost them, and the caller must open a new fence before any
 * consume. So no command that a failover, a resharding or a retry sends to another process can
 * consume there on the old fence. A Redis Cluster needs one call per slot: every group here is
 * one shard, that is one hash tag.
 */
export const consumeEachOnce = {
  lua: `
local text, at = ARGV[1], 1
local function number()
  local stop = string.find(text, ' ', at, true)
  local value = tonumber(string.sub(text, at, stop - 1))
  at = stop + 1
  return value
end
local function bytes()
  local length = number()
  local value = string.sub(text, at, at + length - 1)
  at = at + length + 1
  return value
end
local ours = '|' .. string.match(redis.call('INFO', 'server'), 'run_id:(%x+)') .. ':' .. string.match(redis.call('INFO', 'replication'), 'master_replid:(%x+)')
local out, k = {}, 1
while at <= #text do
  local n, known = number(), bytes()
  local fence = redis.call('GET', KEYS[k])
  local since = fence and tonumber(string.match(fence, '^[^|]*|([^|]*)|'))
  if fence ~= known or string.sub(fence, -#ours) ~= ours or not since then
    for i = 1, n do number(); number(); bytes() end
    out[#out + 1] = {'fence', fence and string.sub(fence, -#ours) == ours and fence}
  else
    local verdicts = {}
    for i = 1, n do
      local marker, ttl, issued, tag = KEYS[k + i], number(), number(), 't' .. bytes()
      if not (issued and issued >= since) then
        verdicts[i] = 'u'
      elseif redis.call('SET', marker, tag, 'PX', ttl, 'NX') then
        verdicts[i] = 'f'
      elseif tag ~= 't' and redis.call('GET', marker) == tag then
        verdicts[i] = 'a'
      else
        verdicts[i] = 'u'
      end
    end
    out[#out + 1] = table.concat(verdicts)
  end
  k = k + 1 + n
end
return out
`,
} as const;

/**
 * The text of ARGV[1]: numbers as JavaScript writes them (Lua's tonumber reads every finite one;
 * an issue time not at or after the cutoff, NaN or unreadable included, is refused as used), texts as their length in bytes then
 * their bytes, each followed by a space. A length, not a separator, delimits a text: a tag may hold any character.
 */
export function encodeConsumes(
  groups: readonly { fence: string; consumes: readonly { ttlMs: number; issuedAt: number; tag: string }[] }[],
): string {
  let text = '';
  for (const { fence, consumes } of groups) {
    text += `${consumes.length} ${textField(fence)}`;
    for (const { ttlMs, issuedAt, tag } of consumes) text += `${ttlMs} ${issuedAt} ${textField(tag)}`;
  }
  return text;
}

function textField(value: string): string {
  return value === '' ? '0  ' : `${Buffer.byteLength(value)} ${value} `;
}
