/**
 * count-in-fixed-window: adds to a counter that lives a fixed window from its first use.
 *
 * KEYS[1] counter. ARGV[1] window ms, ARGV[2] amount (0 reads and creates nothing).
 * Returns the count after the addition.
 */
export const countInWindow = {
  numberOfKeys: 1,
  lua: `
local by = tonumber(ARGV[2])
if by == 0 then return tonumber(redis.call('GET', KEYS[1]) or '0') end
local count = redis.call('INCRBY', KEYS[1], by)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`,
} as const;
