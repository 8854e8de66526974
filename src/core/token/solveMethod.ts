/**
 * How a token was earned, as the server judged it (never the client's claim), carried as its
 * `method` claim: `pointer` for a maze traced with a mouse, touch or pen; `keyboard` for one solved
 * with the arrow keys and scored by the people-first keyboard model; `keyboard_strict` for a
 * keyboard solve scored by the strict keyboard model (a site in surge or pinned `strict`, or a
 * client over its keyboard budget); `privacy_pass` (no maze: a Privacy Pass token from an issuer
 * the site trusts, docs/doors.md) and `passkey`: a returning passkey, without a maze (no
 * `input_type`) or with a maze solved by keyboard past a tightened keyboard door (`input_type`
 * `keyboard`, scored by the people-first model): either way the passkey is what the token rests
 * on. A site may ask more of a keyboard token for a risky action (docs/embedding.md).
 */
export type SolveMethod = 'pointer' | 'keyboard' | 'keyboard_strict' | 'privacy_pass' | 'passkey';

/** Every SolveMethod, for schemas and for checking a claim read back from a token. */
export const SOLVE_METHODS: readonly SolveMethod[] = ['pointer', 'keyboard', 'keyboard_strict', 'privacy_pass', 'passkey'];
