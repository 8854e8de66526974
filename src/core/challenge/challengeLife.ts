import type { Config } from '../../config.js';

/** The two lives of a challenge, from the configuration. */
export type ChallengeLives = Pick<Config, 'challengeTtlMs' | 'keyboardChallengeTtlMs'>;

/**
 * How long after its creation a challenge is accepted: CHALLENGE_TTL_MS for a pointer solve (the
 * `expires_at` the client is given and signs), and for a keyboard solve the longer of that and
 * KEYBOARD_CHALLENGE_TTL_MS, since a screen-reader user explores the maze by its announcements
 * and takes minutes where a pointer takes seconds.
 */
export function acceptedLifeMs(lives: ChallengeLives, keyboard: boolean): number {
  return keyboard ? longestLifeMs(lives) : lives.challengeTtlMs;
}

/**
 * The longest any solve of a challenge is accepted: what its single-use markers (the challenge
 * consumed at /verify, its probe arms) and anything derived from it must outlive, so that it
 * cannot be used again while some solve of it would still be accepted.
 */
export function longestLifeMs(lives: ChallengeLives): number {
  return Math.max(lives.challengeTtlMs, lives.keyboardChallengeTtlMs);
}
