/**
 * append-keeping-newest: appends to a list, keeps its newest items, and extends its life.
 *
 * KEYS[1] list. ARGV[1] item, ARGV[2] most items kept, ARGV[3] life ms from now.
 */
export const appendCapped = {
  numberOfKeys: 1,
  lua: `
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`,
} as const;
