/**
 * count-each-in-fixed-window: adds to each of several counters, each living a fixed window from
 * its first use. The increments issued together share a call.
 *
 * KEYS: the counters. ARGV[1]: per counter, its window in ms and the amount to add (0 reads and
 * creates nothing), decimal, each followed by a space (one argument rather than two per counter:
 * the client prepares and the server parses every argument on its own).
 * Returns each counter's count after its addition, in order; an error, writing nothing, when
 * the amounts cannot all be read.
 */
export const countEachInWindow = {
  lua: `
local windows, amounts = {}, {}
for window, by in string.gmatch(ARGV[1], '(%d+) (%d+) ') do
  windows[#windows + 1], amounts[#amounts + 1] = window, by
end
if #windows ~= #KEYS then return redis.error_reply('ERR ' .. #KEYS .. ' counters and ' .. #windows .. ' increments') end
local out = {}
for i, key in ipairs(KEYS) do
  if amounts[i] == '0' then
    out[i] = tonumber(redis.call('GET', key) or '0')
  else
    out[i] = redis.call('INCRBY', key, amounts[i])
    if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, windows[i]) end
  end
end
return out
`,
} as const;

/** The text of ARGV[1] for these increments (whole, non-negative numbers). */
export function encodeCounts(increments: readonly { windowMs: number; by: number }[]): string {
  let text = '';
  for (const { windowMs, by } of increments) text += `${windowMs} ${by} `;
  return text;
}
