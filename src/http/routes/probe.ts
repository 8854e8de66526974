import type { Failure } from '../../core/errors.js';
import { armProbe } from '../../core/probe/armProbe.js';
import { completeProbe } from '../../core/probe/completeProbe.js';
import { ProbeArmResponse, ProbeCompleteResponse, ProbeFailure } from '../responses.js';
import { ADMISSION_ERRORS, CHALLENGE_ID_ERRORS, type PostRoute, answer, failureReply } from '../route.js';
import type { ProbeArmBody, ProbeCompleteBody, Schemas } from '../schemas.js';

/** Probe failures carry `error` too: the deployed widget reads that field here. */
const probeFailure = (f: Failure) => failureReply(f, { error: f.code, error_code: f.code });

const probe = { bucket: 'probe', fail: probeFailure, failure: ProbeFailure } as const;

export const probeArmRoute = (schemas: Schemas): PostRoute => ({
  ...probe,
  path: '/probe/arm',
  summary: "Arm a probe once the trace reaches its trigger cell: a ticket with the server's arm time",
  check: schemas.probeArm,
  success: ProbeArmResponse,
  errors: [...ADMISSION_ERRORS, ...CHALLENGE_ID_ERRORS, 'probe_not_found', 'probe_not_reached', 'probe_attempts_exceeded'],
  handle: async (ctx, body: ProbeArmBody, info) =>
    answer(await armProbe(ctx, body, info), probeFailure, (r) => ({
      success: true,
      probe_ticket: r.probe_ticket,
      armed_at: r.armed_at,
      deadline_at: r.deadline_at,
    })),
});

export const probeCompleteRoute = (schemas: Schemas): PostRoute => ({
  ...probe,
  path: '/probe/complete',
  summary: 'Complete an armed probe with the tapped cell: a completion token for /verify',
  check: schemas.probeComplete,
  success: ProbeCompleteResponse,
  errors: [
    'invalid_ticket',
    'unknown_site_key',
    ...CHALLENGE_ID_ERRORS,
    'ticket_expired',
    'ticket_already_used',
    'reaction_out_of_window',
    'wrong_cell',
  ],
  handle: async (ctx, body: ProbeCompleteBody) =>
    answer(await completeProbe(ctx, body), probeFailure, (r) => ({ success: true, completion_token: r.completion_token })),
});
