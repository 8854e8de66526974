/**
 * add-credential-unless-known-or-user-full: stores a passkey credential and lists it under its
 * user, unless its id is known or the user holds the maximum already.
 *
 * KEYS[1] the credential, KEYS[2] its user's id list (same hash tag).
 * ARGV[1] credential JSON, ARGV[2] signature counter, ARGV[3] most credentials per user, ARGV[4] id.
 * Returns 'added', 'duplicate' or 'limit'.
 */
export const addCredentialWithinCap = {
  numberOfKeys: 2,
  lua: `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'duplicate' end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[3]) then return 'limit' end
redis.call('HSET', KEYS[1], 'credential', ARGV[1], 'counter', ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[4])
return 'added'
`,
} as const;
