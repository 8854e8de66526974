/**
 * Two real Ariadne processes sharing one store (a Redis, a Redis Cluster or Redis through
 * Sentinel), and what tests do with them: challenges and tokens, 50-way races of one of them
 * over both nodes, and a steady load that classifies every answer while the store fails.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type AriadneNode, startNode, traceTimePassed } from './ariadneNode.js';
import { buildSubmission, postJson } from './client.js';
import { testKernel } from './server.js';

/** Two nodes with the same secret and store settings (`env`: REDIS_URL, REDIS_CLUSTER, ...), under a key prefix of their own. */
export async function startPair(env: Record<string, string>): Promise<[AriadneNode, AriadneNode]> {
  const shared = {
    SIGNING_SECRET: randomBytes(32).toString('base64url'),
    STORE: 'redis',
    REDIS_PREFIX: `pair${randomUUID().slice(0, 8)}:`,
    REDIS_CLOCK_SKEW_MS: '0',
    POW_DIFFICULTY: '4',
    RATE_LIMIT_PER_MINUTE: '0',
    SCORING_MODE: 'off',
    ...env,
  };
  const started = await Promise.all([startNode(shared), startNode(shared)]);
  return started as [AriadneNode, AriadneNode];
}

export async function challengeOf(
  node: AriadneNode,
  body: Record<string, unknown> = { site_key: 'site-a' },
  headers: Record<string, string> = {},
): Promise<Challenge & Record<string, any>> {
  const r = await postJson(node.at('/challenge'), body, headers);
  if (r.status !== 200) throw new Error(`/challenge answered ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A /verify body that passes every check for a fresh challenge of `node`, its trace's time passed. */
export async function submission(node: AriadneNode, sessionId = randomUUID()) {
  const ch = await challengeOf(node);
  const body = buildSubmission(await testKernel(), ch, { sessionId });
  await traceTimePassed(ch, body);
  return { ch, body, sessionId };
}

/** A token minted by `node`. */
export async function mintToken(node: AriadneNode): Promise<{ token: string; sessionId: string }> {
  const { body, sessionId } = await submission(node);
  const r = await postJson(node.at('/verify'), body);
  if (r.body.success !== true) throw new Error(`/verify answered ${r.status} ${JSON.stringify(r.body)}`);
  return { token: r.body.token, sessionId };
}

/** `count` concurrent /verify of one `body`, alternating over both nodes: every answer. */
export function raceVerify(a: AriadneNode, b: AriadneNode, body: unknown, count = 50) {
  return Promise.all(Array.from({ length: count }, (_, i) => postJson((i % 2 ? a : b).at('/verify'), body)));
}

/** `count` concurrent /siteverify of one token, alternating over both nodes: every answer. */
export function raceSiteverify(a: AriadneNode, b: AriadneNode, t: { token: string; sessionId: string }, count = 50) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => postJson((i % 2 ? a : b).at('/siteverify'), { token: t.token, session_id: t.sessionId })),
  );
}

type Answer = { status: number; body: any };

/** A 503 with the store's stable code (/verify's error_code, /siteverify's error-codes). */
export const isStoreUnavailable = (r: Answer) =>
  r.status === 503 &&
  (r.body.error_code === 'store_unavailable' ||
    (Array.isArray(r.body['error-codes']) && r.body['error-codes'].includes('store_unavailable')));

export interface LoadReport {
  /** Challenges verified and tokens redeemed. */
  verified: number;
  redeemed: number;
  /** When each 503 store_unavailable was answered (epoch ms). */
  unavailableAt: number[];
  /** Challenges and tokens issued before the fault ended and refused as used: what a fault costs. */
  refusedInFlight: number;
  /** Tokens redeemed more than once. */
  doubleRedemptions: number;
  /** Any other answer: a 5xx other than 503 store_unavailable, a refusal of something issued after the fault, a hang. */
  wrong: string[];
}

/** Longest an answer may take, whatever the store does. */
const ANSWER_WITHIN_MS = 5_000;

/** `what`, or a failure when it does not answer within `withinMs`: a hang fails the test. */
export async function timed<T>(what: Promise<T>, withinMs = ANSWER_WITHIN_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${withinMs} ms`)), withinMs);
  });
  try {
    return await Promise.race([what, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `workers` loops until `endAt`, each issuing a challenge on one node, verifying it on the other
 * and redeeming the token on both, and classifying every answer. `faultEnd()` says until when
 * (epoch ms) something issued may be refused as used: Infinity while the fault lasts, then the
 * time it ended (a new loss fence refuses what was issued before it).
 */
export async function loadPair(
  a: AriadneNode,
  b: AriadneNode,
  opts: { endAt: number; faultEnd: () => number; workers?: number },
): Promise<LoadReport> {
  const kernel = await testKernel();
  const report: LoadReport = { verified: 0, redeemed: 0, unavailableAt: [], refusedInFlight: 0, doubleRedemptions: 0, wrong: [] };
  const mayBeRefused = (issuedAt: number) => issuedAt < opts.faultEnd();
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < opts.endAt; i++) {
      const [issuer, verifier] = (w + i) % 2 ? [a, b] : [b, a];
      try {
        const issuedAt = Date.now();
        const ch = await timed(challengeOf(issuer)); // issuing needs no store
        const sessionId = randomUUID();
        const body = buildSubmission(kernel, ch, { sessionId });
        await traceTimePassed(ch, body);
        const v = await timed(postJson(verifier.at('/verify'), body));
        if (isStoreUnavailable(v)) {
          report.unavailableAt.push(Date.now());
          continue;
        }
        if (v.body.error_code === 'challenge_not_found' && mayBeRefused(issuedAt)) {
          report.refusedInFlight++;
          continue;
        }
        if (v.body.success !== true) {
          report.wrong.push(`verify: ${v.status} ${JSON.stringify(v.body)}`);
          continue;
        }
        report.verified++;
        let successes = 0;
        let refused = 0;
        for (const node of [issuer, verifier]) {
          const s = await timed(postJson(node.at('/siteverify'), { token: v.body.token, session_id: sessionId }));
          if (isStoreUnavailable(s)) report.unavailableAt.push(Date.now());
          else if (s.body.success === true) successes++;
          else if (s.body.error === 'token_already_used') refused++;
          else report.wrong.push(`siteverify: ${s.status} ${JSON.stringify(s.body)}`);
        }
        if (successes > 1) report.doubleRedemptions++;
        if (successes > 0) report.redeemed++;
        else if (refused > 0) {
          // A token counts from its challenge's creation (redeemSessionToken: the earliest it can
          // have been minted), so one of a challenge issued before the fault ended may be refused.
          if (mayBeRefused(issuedAt)) report.refusedInFlight++;
          else report.wrong.push('siteverify: a token of a challenge issued after the fault refused as used, never redeemed');
        }
      } catch (e) {
        report.wrong.push(String(e));
      }
    }
  };
  await Promise.all(Array.from({ length: opts.workers ?? 4 }, (_, w) => worker(w)));
  return report;
}
