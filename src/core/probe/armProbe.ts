import { randomUUID } from 'node:crypto';
import type { RawEvent } from '../../kernel/types.js';
import type { Lifetime, Store } from '../../store/Store.js';
import { authenticateChallengeId } from '../challenge/authenticateChallengeId.js';
import type { CoreContext } from '../context.js';
import { deriveChallenge } from '../challenge/deriveChallenge.js';
import { type Failure, failure } from '../errors.js';
import { signToken } from '../token/signToken.js';
import { probeLayout } from './probeLayout.js';
import { MAX_ARM_ATTEMPTS, PROBE_DEADLINE_MS, TICKET_TYP, type TicketClaims } from './probeTokens.js';
import { challengeMaze } from '../challenge/challengeMaze.js';
import type { ClientInfo } from '../challenge/issueChallenge.js';
import { admitSite } from '../sites/admitSite.js';
import { replayTrace } from '../challenge/replayTrace.js';
import { inferInputType } from '../scoring/inferInputType.js';

export interface ArmInput {
  challenge_id: string;
  site_key: string;
  session_id: string;
  probe_id: string;
  events: RawEvent[];
}

export type ArmResult = { ok: true; probe_ticket: string; armed_at: number; deadline_at: number } | { ok: false; failure: Failure };

/**
 * issued -> armed. Checks: the site is admitted (unknown_site_key, hostname_not_allowed);
 * authentic, unexpired challenge for this site under its current policy (a keyboard trace, by
 * its events, for the keyboard life: challengeLife.ts); the probe exists;
 * the trace is a strict wall-respecting path from the start cell that ends on the trigger cell;
 * fewer than MAX_ARM_ATTEMPTS tickets of it so far. Returns a ticket bound to challenge, probe and
 * session, with the server's own arm time.
 */
export async function armProbe(ctx: CoreContext, input: ArmInput, client: Pick<ClientInfo, 'origin'>): Promise<ArmResult> {
  const admitted = admitSite(ctx.sites, input.site_key, client.origin);
  if (!admitted.ok) return admitted;
  const { site } = admitted;
  if (site.test !== undefined) return { ok: false, failure: failure('probe_not_found') };
  const now = ctx.now();
  const keyboard = inferInputType(input.events) === 'keyboard';
  const auth = authenticateChallengeId(ctx.challengeKeys, input.challenge_id, site, now, ctx.config, keyboard);
  if (!auth.ok) return auth;
  const { challenge } = auth;
  const derived = deriveChallenge(challenge.key, challenge.bytes, site.policy.probeProbability);
  const { config } = ctx;
  const maze = challengeMaze(site.policy.maze, derived.seed);
  if (!derived.hasProbe) return { ok: false, failure: failure('probe_not_found') };
  const probe = probeLayout(ctx.kernel, maze, derived.probeSeed);
  if (input.probe_id !== probe.id) return { ok: false, failure: failure('probe_not_found') };

  const packed = ctx.kernel.packEvents(input.events);
  const { replay } = replayTrace(ctx.kernel, maze, packed, config.cellSize, { kind: 'probe', trigger: probe.trigger });
  if (!replay.valid) return { ok: false, failure: failure('probe_not_reached') };

  // Spent only by a trace that reaches the trigger: each attempt is one ticket (one tap), and a
  // flood of junk arms writes nothing.
  const attempt = await takeArmAttempt(ctx.store, `probe-arm:${challenge.id}:${probe.id}`, {
    issuedAt: challenge.createdAt,
    expiresAt: challenge.spentUntil,
  });
  if (attempt === 'used') return { ok: false, failure: failure('probe_attempts_exceeded') };
  if (attempt === 'full') return { ok: false, failure: failure('store_unavailable') };

  const armedAt = ctx.now();
  const deadlineAt = armedAt + PROBE_DEADLINE_MS;
  const claims: TicketClaims = {
    typ: TICKET_TYP,
    cid: challenge.id,
    pid: probe.id,
    sid: input.session_id,
    site: site.key,
    jti: randomUUID(),
    armed_at: armedAt,
    deadline_at: deadlineAt,
    exp: Math.ceil(deadlineAt / 1000),
  };
  return { ok: true, probe_ticket: signToken({ ...claims }, ctx.ring.current), armed_at: armedAt, deadline_at: deadlineAt };
}

/**
 * Consumes the first free of MAX_ARM_ATTEMPTS single-use markers `${key}:1..n`, alive until the
 * challenge expires: 'fresh' when one was free, 'used' when all are spent, 'full' when the store
 * could not record one. Markers, not a counter: the cap is strict on every node sharing the
 * store, and a full store refuses rather than forgets.
 */
async function takeArmAttempt(store: Store, key: string, life: Lifetime): Promise<'fresh' | 'used' | 'full'> {
  for (let n = 1; n <= MAX_ARM_ATTEMPTS; n++) {
    const r = await store.consume(`${key}:${n}`, life);
    if (r === 'fresh' || r === 'full') return r;
  }
  return 'used';
}
