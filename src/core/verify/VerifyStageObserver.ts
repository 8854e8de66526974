/**
 * The stages of a /verify in the core, in the order they run (verifySubmission, checkScore,
 * scoreSubmission): `features` to `logging` run only when the site scores, `logging` only in
 * shadow mode.
 */
export type VerifyStage =
  | 'site'
  | 'authentication'
  | 'consume'
  | 'pow'
  | 'timeBound'
  | 'replay'
  | 'probe'
  | 'digest'
  | 'signature'
  | 'passkey'
  | 'features'
  | 'duplicateLookup'
  | 'scoring'
  | 'remember'
  | 'logging'
  | 'token';

/**
 * Told as each stage of a valid /verify ends (the stage account of the bench reads its clock
 * there). Absent when serving: the core then reads no clock and each stage costs one check of
 * `undefined`.
 */
export type VerifyStageObserver = (ended: VerifyStage) => void;
