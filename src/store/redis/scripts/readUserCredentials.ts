/**
 * read-user-credentials: the credentials listed under one user, oldest first, in one consistent
 * read.
 *
 * KEYS[1] the user's id list. ARGV[1] the prefix of credential keys (same hash tag).
 * Returns a flat list of credential JSON and counter pairs.
 */
export const readUserCredentials = {
  numberOfKeys: 1,
  readOnly: true,
  lua: `
local out = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
  local fields = redis.call('HMGET', ARGV[1] .. id, 'credential', 'counter')
  if fields[1] then
    out[#out + 1] = fields[1]
    out[#out + 1] = fields[2]
  end
end
return out
`,
} as const;
