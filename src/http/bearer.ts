import { secretMatcher } from '../core/token/secretMatcher.js';

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(authorization: string): string | undefined {
  const m = /^Bearer (.+)$/i.exec(authorization);
  return m === null ? undefined : m[1]!.trim();
}

/**
 * A check of `Authorization: Bearer <token>` against the operator token, in constant time. Without
 * a token configured every request passes.
 */
export function bearerCheck(token: string | undefined): (authorization: string) => boolean {
  if (token === undefined) return () => true;
  const matches = secretMatcher(token);
  return (authorization) => {
    const given = bearerToken(authorization);
    return given !== undefined && matches(given);
  };
}

/** The WWW-Authenticate header of a 401 answer. */
export const BEARER_CHALLENGE = [['www-authenticate', 'Bearer']] as const;
