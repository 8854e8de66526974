/**
 * add-counts-of-minutes: adds a flush of the dashboard's counters to the hashes of their minutes
 * and keeps each hash for its life: one call per flush, whatever the number of fields.
 *
 * KEYS: the minutes' hashes. ARGV[1]: their life in seconds. ARGV[2], ARGV[3], ...: per key, in
 * the order of KEYS, the number of its fields, then that many (field, count) pairs.
 * Returns the number of fields added to.
 */
export const addCountsOfMinutes = {
  lua: `
local life, at, added = ARGV[1], 2, 0
for _, key in ipairs(KEYS) do
  local fields = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, fields do
    redis.call('HINCRBY', key, ARGV[at], ARGV[at + 1])
    at, added = at + 2, added + 1
  end
  redis.call('EXPIRE', key, life)
end
return added
`,
} as const;
