/**
 * open-fence-for-this-server: returns the loss fence of one shard, first replacing it with the
 * caller's candidate when it is absent (the data it guarded is gone: a restart without
 * persistence, FLUSHALL) or was written under another Redis process (a restart, or a failover to
 * a replica that may lag). A fence is `epoch|sinceMs|runId`.
 *
 * KEYS[1] fence. ARGV[1] candidate fence, ARGV[2] the run_id of the server answering now.
 */
export const openFence = {
  numberOfKeys: 1,
  lua: `
local fence = redis.call('GET', KEYS[1])
if fence and string.match(fence, '^[^|]*|[^|]*|(.*)$') == ARGV[2] then return fence end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`,
} as const;
