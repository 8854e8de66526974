import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** A constant-time check of a presented secret against `secret` (over digests, so lengths may differ). */
export function secretMatcher(secret: string): (given: string) => boolean {
  const expected = digest(secret);
  return (given) => timingSafeEqual(digest(given), expected);
}
