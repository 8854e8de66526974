/**
 * Whether an entry expiring at `expiresAt` is gone at `now`: past the whole millisecond it falls
 * in (the clock reads whole ms).
 */
export function isStale(expiresAt: number, now: number): boolean {
  return now > Math.ceil(expiresAt);
}
