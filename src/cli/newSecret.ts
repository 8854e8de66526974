import { randomBytes } from 'node:crypto';

/** A new signing (or site) secret: 32 random bytes as base64url, 43 characters. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
