import { passWithPasskey } from '../../core/webauthn/passWithPasskey.js';
import { PasskeyDoorResponse, PlainFailure } from '../responses.js';
import { ADMISSION_ERRORS, CHALLENGE_ID_ERRORS, type PostRoute, answer, plainFailure } from '../route.js';
import type { PasskeyDoorBody, Schemas } from '../schemas.js';

export const passkeyDoorRoute = (schemas: Schemas): PostRoute => ({
  path: '/passkey',
  summary: "The passkey door: a returning passkey's assertion over a challenge, a session token without a maze (sites that open it)",
  check: schemas.passkeyDoor,
  bucket: 'verify',
  success: PasskeyDoorResponse,
  failure: PlainFailure,
  errors: [...ADMISSION_ERRORS, ...CHALLENGE_ID_ERRORS, 'not_found', 'webauthn_failed', 'passkey_rate_exceeded'],
  fail: plainFailure,
  handle: async (ctx, body: PasskeyDoorBody, info) =>
    answer(await passWithPasskey(ctx, body, info), plainFailure, (r) => ({ success: true, token: r.token })),
});
