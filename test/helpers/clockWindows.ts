/**
 * Tests of fixed windows of the clock: rate limits count per minute, a passkey's uses and a
 * client's keyboard budget per hour, so a test that spends one must not see its window turn.
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/**
 * A test server's clock (startTestServer's `now`): the real one, moved on to the start of the next
 * hour (and so of a minute), so no minute turns for a minute after and no hour for an hour.
 * postVerify moves a test server's clock on by each trace's span, which a clock near the end of a
 * window could not afford.
 */
export function clockFromHourStart(): () => number {
  const shift = HOUR_MS - (Date.now() % HOUR_MS);
  return () => Date.now() + shift;
}

/** For real processes, whose clocks cannot be moved: waits for the next window of `windowMs` when fewer than `needMs` remain of this one. */
export async function clearOfTurn(windowMs: number, needMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 100));
}
