/**
 * read-each-list: every item of each of several lists, oldest first. The reads issued together
 * share a call.
 *
 * KEYS: the lists. Returns one array of items per key, in order (empty when absent).
 */
export const readEachList = {
  readOnly: true,
  replyAsBuffers: true,
  lua: `
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('LRANGE', key, 0, -1) end
return out
`,
} as const;
