/**
 * How a session token was earned, carried as its `method` claim: `pointer` (a maze traced with a
 * mouse, a finger or a pen), `keyboard` (a maze walked with the keys), `keyboard_strict` (a
 * keyboard solve under a site's tightened keyboard path), `privacy_pass` (no maze: a Privacy Pass
 * token from an issuer the site trusts, see docs/doors.md) and `passkey` (no maze: a returning
 * passkey). A site reads it to weigh what the token proves.
 */
export type SolveMethod = 'pointer' | 'keyboard' | 'keyboard_strict' | 'privacy_pass' | 'passkey';

/** Every SolveMethod, for schemas and for checking a claim read back from a token. */
export const SOLVE_METHODS: readonly SolveMethod[] = ['pointer', 'keyboard', 'keyboard_strict', 'privacy_pass', 'passkey'];
