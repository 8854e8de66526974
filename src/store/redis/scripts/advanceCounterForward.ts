/**
 * advance-counter-only-forward: compare-and-set of a credential's signature counter, which moves
 * only to a strictly greater value.
 *
 * KEYS[1] the credential. ARGV[1] the new counter. Returns 1 when it moved, 0 otherwise (also
 * for an unknown credential).
 */
export const advanceCounterForward = {
  numberOfKeys: 1,
  lua: `
local counter = redis.call('HGET', KEYS[1], 'counter')
if not counter or tonumber(ARGV[1]) <= tonumber(counter) then return 0 end
redis.call('HSET', KEYS[1], 'counter', ARGV[1])
return 1
`,
} as const;
