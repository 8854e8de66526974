import type { RawEvent } from '../../kernel/types.js';
import { authenticateChallengeId } from '../challenge/authenticateChallengeId.js';
import { consumeChallenge } from '../challenge/consumeChallenge.js';
import type { CoreContext } from '../context.js';
import type { ClientInfo } from '../challenge/issueChallenge.js';
import { derivedFromMac } from '../challenge/deriveChallenge.js';
import { type Failure, failure } from '../errors.js';
import { issueSessionToken } from '../redeem/issueSessionToken.js';
import { checkCompletionTokens } from '../probe/checkCompletionTokens.js';
import { PROBE_ID } from '../probe/probeLayout.js';
import { inferInputType } from '../scoring/inferInputType.js';
import { type PowProof, checkPow } from './checkPow.js';
import { checkScore } from './checkScore.js';
import { checkSignature } from './checkSignature.js';
import { checkTraceTime } from './checkTraceTime.js';
import { type WebAuthnAssertion, checkWebAuthn } from './checkWebAuthn.js';
import { checkWebAuthnShape } from './checkWebAuthnShape.js';
import { eventsDigest } from './eventsDigest.js';
import { challengeMaze } from '../challenge/challengeMaze.js';
import { notePowFailure } from '../pow/adaptiveDifficulty.js';
import { bindingFromAddress } from '../rateLimit.js';
import { admitSite } from '../sites/admitSite.js';
import { type Site, hostnameOf } from '../sites/Site.js';
import { sitePasskeys } from '../sites/sitePasskeys.js';
import { DUMMY_TOKEN } from '../sites/testKeys.js';
import { replayTrace } from '../challenge/replayTrace.js';
import type { VerifySeen } from '../traffic/TrafficCounters.js';
import { siteLabel } from '../traffic/siteLabel.js';
import { countForBudget } from '../keyboard/countForBudget.js';
import { strictKeyboardFor } from '../keyboard/strictKeyboardFor.js';
import { spendPasskeyRate } from '../webauthn/spendPasskeyRate.js';

/** /verify fields the server reads; `maze_seed`, `cell_size`, `rate_limit_binding` are never trusted. */
export interface VerifyInput {
  challenge_id: string;
  site_key: string;
  session_id: string;
  events: RawEvent[];
  pow_proof: PowProof;
  public_key: string;
  signature: string;
  stable_id?: string | undefined;
  input_type?: string | undefined;
  probe_completion_tokens?: string[] | undefined;
  webauthn?: WebAuthnAssertion | undefined;
  /** The action a reCAPTCHA v3 page executed with: carried by the token, checked by the site's verifier. */
  action?: string | undefined;
}

/** `test`: the answer of a test key (sites/testKeys.ts), not of a check. */
export type VerifyResult = { ok: true; token: string; score: number; test?: true } | { ok: false; failure: Failure; test?: true };

const fail = (code: Failure['code'], detail?: string): VerifyResult => ({ ok: false, failure: failure(code, detail) });

/**
 * unconsumed -> consumed, for a site admitted first (unknown_site_key, hostname_not_allowed; a
 * test key answers its fixed outcome here). The checks, in this order:
 *  1. the id is authentic (challenge_not_found), issued for `site_key` under the site's current
 *     policy (site_key_mismatch; challenge_expired after a policy change), unexpired
 *     (challenge_expired; a keyboard solve, by the events, is accepted for longer: see
 *     challengeLife.ts);
 *  2. the challenge is consumed: from here on, pass or fail, it is spent (a second attempt gets
 *     challenge_not_found; a full store refuses with store_unavailable);
 *  3. proof of work at the difficulty the id carries, plus the extra bits of a keyboard solve
 *     when the events are one, and the surge's bits when the id was issued in a keyboard surge
 *     (invalid_pow);
 *  4. the trace's span fits in the time the server saw since the challenge was issued
 *     (trace_time_mismatch): after the consume, so a refusal spends the challenge and its proof
 *     of work (no retrying one challenge until the bound passes), and after the proof of work, so
 *     no answer about the trace comes without paid work;
 *  5. path replay over the issued maze, on the canvas of the issued cell size or of the deployed
 *     widget (invalid_path; see replayTrace.ts);
 *  6. probe completion tokens, when the challenge has probes (probe_failed);
 *  7. ECDSA signature, deployed-widget text first (invalid_signature);
 *  8. passkeys, by the site's mode (webauthn_required, webauthn_failed);
 *  9. a keyboard solve meets a tightened door (strictKeyboardFor.ts) unless the site opened the
 *     passkey door and step 8 verified a passkey, which then spends one of that passkey's uses
 *     of the hour (passkey_rate_exceeded) and is scored people first, its token saying `passkey`;
 * 10. behavioural score, by the site's scoring mode (duplicate_trace, behavioral_rejected; see
 *     checkScore.ts), a keyboard solve by the strict keyboard model when step 9 found the door
 *     tightened; the solve is then counted for the keyboard budget (keyboard/countForBudget.ts);
 * then a session token carrying the score (and in shadow mode its reason codes when under the
 * threshold), the inferred input type, the method (pointer, keyboard, keyboard_strict or passkey), the page's hostname and the client's address is minted. A failure after admission adds to the client's adaptive
 * proof-of-work load.
 */
export async function verifySubmission(ctx: CoreContext, input: VerifyInput, client: ClientInfo): Promise<VerifyResult> {
  const admitted = admitSite(ctx.sites, input.site_key, client.origin);
  if (!admitted.ok) {
    ctx.traffic?.verified('', admitted.failure.code, {});
    return admitted;
  }
  const { site } = admitted;
  ctx.verifyStages?.('site');
  if (site.test === 'pass') return { ok: true, token: DUMMY_TOKEN, score: 1, test: true };
  if (site.test === 'fail') return { ok: false, failure: failure('behavioral_rejected'), test: true };
  const seen: VerifySeen = {};
  const result = await checkSubmission(ctx, site, input, client, seen);
  if (!result.ok && result.failure.code !== 'store_unavailable') {
    await notePowFailure(ctx.store, bindingFromAddress(client.address), site.policy.pow, ctx.now());
  }
  if (ctx.traffic !== undefined || ctx.traces !== undefined) observe(ctx, site.key, result, seen, input.events);
  return result;
}

/** Counts the outcome for the dashboard, and keeps the trace when the sampler picks it. */
function observe(ctx: CoreContext, siteKey: string, result: VerifyResult, seen: VerifySeen, events: readonly RawEvent[]): void {
  const site = siteLabel(ctx.sites, siteKey);
  const outcome = result.ok ? 'ok' : result.failure.code;
  ctx.traffic?.verified(site, outcome, seen);
  if (ctx.traces?.picks() === true) ctx.traces.keep({ now: ctx.now(), site, outcome, seen, events });
}

/** `seen`: filled with what the checks learn as they pass (the input type, the maze, the score). */
async function checkSubmission(
  ctx: CoreContext,
  site: Site,
  input: VerifyInput,
  client: ClientInfo,
  seen: VerifySeen,
): Promise<VerifyResult> {
  const { config, kernel } = ctx;
  const { policy } = site;
  const now = ctx.now();
  const inputType = inferInputType(input.events);
  const auth = authenticateChallengeId(ctx.challengeKeys, input.challenge_id, site, now, config, inputType === 'keyboard');
  if (!auth.ok) return auth;
  const { challenge } = auth;
  const passkeys = sitePasskeys(ctx.passkeys, site);
  const malformed = checkWebAuthnShape(passkeys, input.stable_id, input.webauthn);
  if (malformed !== undefined) return { ok: false, failure: malformed };
  ctx.verifyStages?.('authentication');

  const spent = await consumeChallenge(ctx.store, challenge);
  if (spent !== undefined) return { ok: false, failure: spent };
  ctx.verifyStages?.('consume');

  const derived = derivedFromMac(challenge.mac, policy.probeProbability);
  seen.inputType = inputType;
  const surgeBits = challenge.keyboardSurge ? config.powKeyboardSurgeExtraBits : 0;
  const powNeeds = { powDifficulty: challenge.powDifficulty, powKeyboardExtraBits: config.powKeyboardExtraBits + surgeBits };
  const pow = checkPow(kernel, derived.powChallenge, input.pow_proof, powNeeds, inputType);
  if (pow !== undefined) return { ok: false, failure: pow };
  ctx.verifyStages?.('pow');

  const late = checkTraceTime(input.events, challenge.createdAt, now);
  if (late !== undefined) return fail('trace_time_mismatch', late);
  ctx.verifyStages?.('timeBound');

  const maze = challengeMaze(policy.maze, derived.seed);
  const packed = kernel.packEvents(input.events);
  const { replay, cellSize } = replayTrace(kernel, maze, packed, config.cellSize, { kind: 'verify' });
  seen.maze = maze;
  seen.cellSize = cellSize;
  if (!replay.valid) return fail('invalid_path');
  ctx.verifyStages?.('replay');

  const probeReactionsMs = derived.hasProbe
    ? checkCompletionTokens(ctx.ring, challenge.id, input.session_id, [PROBE_ID], input.probe_completion_tokens, ctx.now())
    : [];
  if (probeReactionsMs === undefined) return fail('probe_failed');
  ctx.verifyStages?.('probe');

  const prefix = `${challenge.id}:${input.site_key}:${challenge.expiresAt}`;
  const texts = (function* () {
    const digest = eventsDigest(input.events);
    ctx.verifyStages?.('digest');
    yield `${prefix}:${digest}`;
    yield prefix;
  })();
  if (!(await checkSignature(ctx.signatures, input.public_key, input.signature, texts))) return fail('invalid_signature');
  ctx.verifyStages?.('signature');

  const webauthn = await checkWebAuthn({
    passkeys,
    challenge,
    siteKey: input.site_key,
    stableId: input.stable_id,
    assertion: input.webauthn,
  });
  if (!webauthn.ok) return webauthn;
  ctx.verifyStages?.('passkey');

  const binding = bindingFromAddress(client.address);
  const tightened = inputType === 'keyboard' && (await strictKeyboardFor(ctx, site, challenge.keyboardSurge, binding));
  // A returning passkey is what the passkey door lets through without a maze: with a maze solved
  // by keyboard it lets the solve past the tightening too, under the same rate (docs/doors.md).
  const door = policy.passkeyDoor;
  const { credentialId } = webauthn;
  const byPasskey = tightened && door !== undefined && credentialId !== undefined;
  if (byPasskey) {
    const overRate = await spendPasskeyRate(ctx, credentialId, door.perHour);
    if (overRate !== undefined) return { ok: false, failure: overRate };
  }
  const strictKeyboard = tightened && !byPasskey;
  const scored = await checkScore(ctx, {
    siteKey: input.site_key,
    scoring: policy.scoring,
    maze,
    cellSize,
    events: input.events,
    packed,
    probeReactionsMs,
    strictKeyboard,
  });
  seen.scored = scored.scored;
  await countForBudget(ctx, site, { keyboard: inputType === 'keyboard', binding }, scored);
  if (!scored.ok) return { ok: false, failure: scored.failure };
  const { score, reasons } = scored;

  const token = issueSessionToken(ctx.ring, {
    challengeId: challenge.id,
    sessionId: input.session_id,
    siteKey: input.site_key,
    score,
    reasons,
    inputType,
    method:
      inputType !== 'keyboard' ? 'pointer' : byPasskey ? 'passkey' : scored.keyboard?.strict === true ? 'keyboard_strict' : 'keyboard',
    hostname: hostnameOf(client.origin),
    ip: client.address,
    now: ctx.now(),
    action: input.action,
  });
  ctx.verifyStages?.('token');
  return { ok: true, token, score };
}
