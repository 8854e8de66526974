/**
 * Tests of hourly windows: a passkey's uses of the hour and a client's keyboard budget are
 * counted per hour of the server's clock, so a test that spends one must not see the hour turn.
 */
const HOUR_MS = 3_600_000;

/**
 * A test server's clock (startTestServer's `now`): the real one, moved on to the start of the next
 * hour, so an hourly window does not turn for the hour after. postVerify moves a test server's
 * clock on by each trace's span, which a clock near the end of an hour could not afford.
 */
export function clockFromHourStart(): () => number {
  const shift = HOUR_MS - (Date.now() % HOUR_MS);
  return () => Date.now() + shift;
}

/** For real processes, whose clocks cannot be moved: waits for the next hour when fewer than `needMs` remain of this one. */
export async function clearOfHourTurn(needMs: number): Promise<void> {
  const left = HOUR_MS - (Date.now() % HOUR_MS);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 100));
}
