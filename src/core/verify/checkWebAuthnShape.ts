import type { Passkeys } from '../context.js';
import { type Failure, failure } from '../errors.js';
import { readAssertionResponse } from '../webauthn/readCredentialResponse.js';

/**
 * The request checks of the passkey step (invalid_request), run before the challenge is consumed
 * so a malformed field never spends it: with passkeys on, an assertion that comes must have the
 * shape of a navigator.credentials.get() result and a stable_id beside it. Off: the field is ignored.
 */
export function checkWebAuthnShape(passkeys: Passkeys | undefined, stableId: string | undefined, assertion: unknown): Failure | undefined {
  if (passkeys === undefined || passkeys.config.mode === 'off' || assertion === undefined) return undefined;
  if (stableId === undefined || stableId === '') return failure('invalid_request', 'stable_id: required with a webauthn assertion');
  const read = readAssertionResponse(assertion, 'webauthn');
  return read.ok ? undefined : failure(read.code, read.detail);
}
