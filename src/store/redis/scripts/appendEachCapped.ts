/**
 * append-each-keeping-newest: appends one item to each of several lists, keeps each list's newest
 * items, and extends its life. The appends issued together share a call.
 *
 * KEYS: the lists. ARGV[1]: per list, the most items kept and its life in ms from now, decimal,
 * each followed by a space. ARGV[2], ARGV[3], ...: the items, in the order of KEYS.
 * Returns the number of lists appended to; an error, writing nothing, when the arguments do not
 * match the keys.
 */
export const appendEachCapped = {
  lua: `
local caps, lives = {}, {}
for cap, life in string.gmatch(ARGV[1], '(%d+) (%d+) ') do
  caps[#caps + 1], lives[#lives + 1] = cap, life
end
if #caps ~= #KEYS or #ARGV ~= #KEYS + 1 then
  return redis.error_reply('ERR ' .. #KEYS .. ' lists, ' .. #caps .. ' caps and ' .. (#ARGV - 1) .. ' items')
end
for i, key in ipairs(KEYS) do
  redis.call('RPUSH', key, ARGV[i + 1])
  redis.call('LTRIM', key, -tonumber(caps[i]), -1)
  redis.call('PEXPIRE', key, lives[i])
end
return #KEYS
`,
} as const;

/** The text of ARGV[1] for these appends (whole numbers, cap >= 1, life >= 1 ms). */
export function encodeCaps(appends: readonly { cap: number; ttlMs: number }[]): string {
  let text = '';
  for (const { cap, ttlMs } of appends) text += `${cap} ${ttlMs} `;
  return text;
}
