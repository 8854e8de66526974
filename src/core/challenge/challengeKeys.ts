import { createHmac } from 'node:crypto';

const LABEL = 'ariadne/challenge/v2';

/**
 * k_challenge for every signing secret, current first, so a challenge issued before a key
 * rotation still authenticates after it.
 */
export function challengeKeys(secrets: readonly string[]): Buffer[] {
  return [...new Set(secrets)].map((s) => createHmac('sha256', s).update(LABEL).digest());
}
