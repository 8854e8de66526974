/**
 * open-fence-for-this-server: returns the loss fence of one shard, first replacing it with the
 * caller's candidate when it is absent (the data it guarded is gone: a restart without
 * persistence, FLUSHALL) or was written under another Redis process or history (a restart, a
 * failover to a replica that may lag, or a promotion of this very process, which may have been a
 * replica that never received what another primary wrote meanwhile). A fence is
 * `epoch|sinceMs|runId:replid`: the run_id and the replication id, read here, of the process
 * running the script (on a Redis Cluster, the primary of the shard's slot). A restart changes the
 * run_id; every promotion of a replica, the same process again included, a new replication id.
 * Refuses, with an error, a server that may evict keys: it could drop single-use markers.
 *
 * KEYS[1] fence. ARGV[1] the candidate's `epoch|sinceMs`.
 * Returns {fence, why}: why is '' (kept), 'lost' (there was none) or 'process' (another process's).
 */
export const openFence = {
  numberOfKeys: 1,
  lua: `
local memory = redis.call('INFO', 'memory')
local policy = string.match(memory, 'maxmemory_policy:([%w-]+)')
if tonumber(string.match(memory, 'maxmemory:(%d+)')) > 0 and policy ~= 'noeviction' then
  return redis.error_reply('ERR Redis maxmemory-policy is ' .. policy .. ': it may evict single-use markers; set maxmemory-policy noeviction')
end
local runId = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)') .. ':' .. string.match(redis.call('INFO', 'replication'), 'master_replid:(%x+)')
local fence = redis.call('GET', KEYS[1])
if fence and string.sub(fence, -#runId - 1) == '|' .. runId then return {fence, ''} end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. runId)
return {ARGV[1] .. '|' .. runId, fence and 'process' or 'lost'}
`,
} as const;
