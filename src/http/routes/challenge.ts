import { issueChallenge } from '../../core/challenge/issueChallenge.js';
import { challengeJson } from '../challengeJson.js';
import { JSON_TYPE } from '../reply.js';
import { ChallengeResponse, PlainFailure } from '../responses.js';
import { ADMISSION_ERRORS, type PostRoute, plainFailure } from '../route.js';
import type { ChallengeBody, Schemas } from '../schemas.js';

export const challengeRoute = (schemas: Schemas): PostRoute => ({
  path: '/challenge',
  summary: 'Issue a challenge: a maze, a proof of work (adaptive per client), requirements, optional probes and passkey options',
  check: schemas.challenge,
  bucket: 'challenge',
  success: ChallengeResponse,
  failure: PlainFailure,
  errors: ADMISSION_ERRORS,
  fail: plainFailure,
  handle: async (ctx, body: ChallengeBody, info) => {
    const r = await issueChallenge(ctx, body, info);
    return r.ok ? { status: 200, body: challengeJson(r.challenge), contentType: JSON_TYPE } : plainFailure(r.failure);
  },
});
