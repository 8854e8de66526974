import { authenticateChallengeId } from '../challenge/authenticateChallengeId.js';
import type { CoreContext } from '../context.js';
import { deriveChallenge } from '../challenge/deriveChallenge.js';
import { type Failure, failure } from '../errors.js';
import { readToken } from '../token/readToken.js';
import { signToken } from '../token/signToken.js';
import { probeLayout } from './probeLayout.js';
import { COMPLETION_TYP, type CompletionClaims, MIN_REACTION_MS, TICKET_TYP, ticketClaims } from './probeTokens.js';
import { challengeMaze } from '../challenge/challengeMaze.js';

export interface CompleteInput {
  challenge_id: string;
  session_id: string;
  probe_ticket: string;
  tapped_cell: { x: number; y: number };
}

export type CompleteResult = { ok: true; completion_token: string } | { ok: false; failure: Failure };

/**
 * armed -> completed. Checks, in order: the ticket is ours and bound to this challenge and
 * session (invalid_ticket); its site is still served, and the challenge is still live under the
 * site's current policy; the deadline has not passed
 * (ticket_expired); the ticket is consumed (ticket_already_used), so every later failure burns
 * it; the server-measured reaction time is at least MIN_REACTION_MS (reaction_out_of_window);
 * the tapped cell is the target (wrong_cell).
 */
export async function completeProbe(ctx: CoreContext, input: CompleteInput): Promise<CompleteResult> {
  const read = readToken(input.probe_ticket, ctx.ring, TICKET_TYP);
  const ticket = read.ok ? ticketClaims(read.claims) : undefined;
  if (ticket === undefined || ticket.cid !== input.challenge_id || ticket.sid !== input.session_id) {
    return { ok: false, failure: failure('invalid_ticket') };
  }
  const site = ctx.sites.resolve(ticket.site);
  if (site === undefined) return { ok: false, failure: failure('unknown_site_key') };
  const now = ctx.now();
  // The ticket was armed within the life of its solve's kind and lives PROBE_DEADLINE_MS: the
  // challenge only has to be within its longest life here; /verify holds each kind to its own.
  const auth = authenticateChallengeId(ctx.challengeKeys, ticket.cid, site, now, ctx.config, true);
  if (!auth.ok) return auth;
  if (now > ticket.deadline_at) return { ok: false, failure: failure('ticket_expired') };

  const used = await ctx.store.consume(`probe-ticket:${ticket.jti}`, { issuedAt: ticket.armed_at, expiresAt: ticket.deadline_at });
  if (used === 'used' || used === 'again') return { ok: false, failure: failure('ticket_already_used') };
  if (used === 'full') return { ok: false, failure: failure('store_unavailable') };

  const reactionMs = ctx.now() - ticket.armed_at;
  if (reactionMs < MIN_REACTION_MS) return { ok: false, failure: failure('reaction_out_of_window') };

  const { challenge } = auth;
  const derived = deriveChallenge(challenge.key, challenge.bytes, site.policy.probeProbability);
  const maze = challengeMaze(site.policy.maze, derived.seed);
  const { target, id } = probeLayout(ctx.kernel, maze, derived.probeSeed);
  if (id !== ticket.pid || input.tapped_cell.x !== target.x || input.tapped_cell.y !== target.y) {
    return { ok: false, failure: failure('wrong_cell') };
  }
  const claims: CompletionClaims = {
    typ: COMPLETION_TYP,
    cid: challenge.id,
    pid: ticket.pid,
    sid: ticket.sid,
    reaction_ms: reactionMs,
    exp: Math.ceil(challenge.spentUntil / 1000),
  };
  return { ok: true, completion_token: signToken({ ...claims }, ctx.ring.current) };
}
