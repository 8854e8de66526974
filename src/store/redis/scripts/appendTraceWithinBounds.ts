/**
 * append-trace-within-bounds: appends one sampled trace to the stream, then drops the oldest
 * entries while the stream holds more than the most entries or the most bytes (kept beside it):
 * a MAXLEN that also bounds bytes, atomically.
 *
 * KEYS[1]: the stream, KEYS[2]: its byte count (same hash tag). ARGV[1]: the trace (a JSON
 * line), ARGV[2]: the most entries, ARGV[3]: the most bytes. Returns the entries kept.
 */
export const appendTraceWithinBounds = {
  numberOfKeys: 2,
  lua: `
local line, maxCount, maxBytes = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
if #line > maxBytes then return redis.call('XLEN', KEYS[1]) end
redis.call('XADD', KEYS[1], '*', 't', line)
local bytes = redis.call('INCRBY', KEYS[2], #line)
local count = redis.call('XLEN', KEYS[1])
while count > maxCount or bytes > maxBytes do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  redis.call('XDEL', KEYS[1], oldest[1])
  bytes = redis.call('DECRBY', KEYS[2], #oldest[2][2])
  count = count - 1
end
return count
`,
} as const;
