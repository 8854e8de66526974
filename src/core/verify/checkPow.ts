import type { Kernel } from '../../kernel/types.js';
import { type Failure, failure } from '../errors.js';
import type { InputType } from '../scoring/ScoringTable.js';

export interface PowProof {
  nonce: number;
  hash: string;
}

/**
 * kernel.md section 5: SHA-256 of `challenge + String(nonce)` must equal the submitted hash
 * exactly and carry `powDifficulty` leading zero bits, `powDifficulty + powKeyboardExtraBits`
 * for a keyboard solve (inferred from the events); the nonce is a non-negative safe integer.
 * Returns undefined when the proof holds, else invalid_pow (naming the keyboard requirement
 * when that is what it misses).
 */
export function checkPow(
  kernel: Kernel,
  challenge: string,
  proof: PowProof,
  config: { powDifficulty: number; powKeyboardExtraBits: number },
  inputType: InputType,
): Failure | undefined {
  if (!Number.isSafeInteger(proof.nonce) || proof.nonce < 0) return failure('invalid_pow');
  const r = kernel.checkPow(challenge, proof.nonce, config.powDifficulty);
  if (!r.valid || r.hash !== proof.hash) return failure('invalid_pow');
  if (inputType !== 'keyboard') return undefined;
  const needed = config.powDifficulty + config.powKeyboardExtraBits;
  return r.leadingZeroBits >= needed ? undefined : failure('invalid_pow', `a keyboard solve needs ${needed} leading zero bits`);
}
