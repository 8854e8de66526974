/**
 * An `idempotency_key` of /siteverify and verifyToken: 1-64 of A-Z a-z 0-9 . _ : - (a UUID fits).
 * It is kept with the token's single-use marker, so it is bounded like any stored field.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9._:-]{1,64}$';
const PATTERN = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export function isIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && PATTERN.test(value);
}
