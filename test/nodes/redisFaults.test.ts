/**
 * Two real nodes while their redis-server fails: stopped mid-load, restarted without its data,
 * slow, out of memory, restarted with its append-only file. Every answer is a correct result or
 * a 503 store_unavailable, never a hang, a crash or a second redemption.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type AriadneNode, postVerifyAfterTrace, startNode, traceTimePassed } from '../helpers/ariadneNode.js';
import { buildSubmission, postJson } from '../helpers/client.js';
import { timed } from '../helpers/nodePair.js';
import { type RedisServerOptions, startRedis } from '../helpers/redisServer.js';
import { testKernel } from '../helpers/server.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';
import { until } from '../helpers/until.js';

const COMMAND_TIMEOUT_MS = 300;
/** Longest an answer may take while Redis misbehaves: the command timeout and generous slack. */
const ANSWER_WITHIN_MS = COMMAND_TIMEOUT_MS + 3_000;
/** A request that hangs fails the test. */
const timedHere = <T>(what: Promise<T>) => timed(what, ANSWER_WITHIN_MS);
const ORIGIN = 'https://shop.example.com';
const RP_ID = 'example.com';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(opts: RedisServerOptions = {}, env: Record<string, string> = {}) {
  const redis = await startRedis(opts);
  cleanup.push(() => redis.close());
  const shared = {
    SIGNING_SECRET: randomBytes(32).toString('base64url'),
    STORE: 'redis',
    REDIS_URL: redis.url,
    REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
    REDIS_CLOCK_SKEW_MS: '0',
    POW_DIFFICULTY: '4',
    RATE_LIMIT_PER_MINUTE: '0',
    SCORING_MODE: 'off',
    ...env,
  };
  const nodes = await Promise.all([startNode(shared), startNode(shared)]);
  cleanup.push(() => Promise.all(nodes.map((n) => n.stop())));
  return { redis, a: nodes[0]!, b: nodes[1]! };
}

async function ready(node: AriadneNode): Promise<boolean> {
  return (await fetch(node.at('/readyz'))).status === 200;
}

async function challenge(node: AriadneNode): Promise<Challenge> {
  const r = await postJson(node.at('/challenge'), { site_key: 'site-a' });
  expect(r.status).toBe(200);
  return r.body;
}

const isUnavailable = (r: { status: number; body: any }) =>
  r.status === 503 &&
  (r.body.error_code === 'store_unavailable' ||
    (Array.isArray(r.body['error-codes']) && r.body['error-codes'].includes('store_unavailable')));

describe('Redis faults under two nodes', () => {
  it('stopped mid-load: 503s or correct results, no hang, no crash, no double redemption; service resumes', async () => {
    const { redis, a, b } = await setup();
    const kernel = await testKernel();
    const redeemed = new Map<string, number>();
    const answers = { ok: 0, unavailable: 0, afterRestart: 0 };
    const wrong: string[] = [];
    let phase: 'up' | 'down' | 'back' = 'up';
    /** Once Redis is back: challenges issued before may be refused as used (its markers are gone). */
    let backAt = Infinity;
    /** The load runs until 1.5 s after Redis is back, however long coming back takes. */
    let end = Infinity;
    const worker = async (w: number) => {
      for (let i = 0; Date.now() < end; i++) {
        const [issuer, verifier] = (w + i) % 2 ? [a, b] : [b, a];
        const issuedAt = Date.now();
        const ch = await timedHere(challenge(issuer)); // issuing needs no store
        const sessionId = randomUUID();
        const body = buildSubmission(kernel, ch, { sessionId });
        await traceTimePassed(ch, body);
        const v = await timedHere(postJson(verifier.at('/verify'), body));
        if (isUnavailable(v)) {
          answers.unavailable++;
          continue;
        }
        if (v.body.error_code === 'challenge_not_found' && issuedAt < backAt) continue;
        if (v.body.success !== true) {
          wrong.push(`verify: ${v.status} ${JSON.stringify(v.body)}`);
          continue;
        }
        for (const node of [issuer, verifier]) {
          const s = await timedHere(postJson(node.at('/siteverify'), { token: v.body.token, session_id: sessionId }));
          if (isUnavailable(s)) answers.unavailable++;
          else if (s.body.success === true) redeemed.set(v.body.token, (redeemed.get(v.body.token) ?? 0) + 1);
          else if (s.body.error !== 'token_already_used') wrong.push(`siteverify: ${s.status} ${JSON.stringify(s.body)}`);
        }
        answers.ok++;
        if (phase === 'back') answers.afterRestart++;
      }
    };
    const load = Promise.all([0, 1, 2, 3].map((w) => worker(w)));
    await new Promise((r) => setTimeout(r, 1_500));
    await redis.stop('SIGKILL');
    phase = 'down';
    await new Promise((r) => setTimeout(r, 1_500));
    // While down: /challenge works, /readyz says 503, /healthz says degraded.
    expect((await postJson(a.at('/challenge'), { site_key: 's' })).status).toBe(200);
    expect((await fetch(b.at('/readyz'))).status).toBe(503);
    expect(await (await fetch(a.at('/healthz'))).json()).toMatchObject({ status: 'degraded', store: { ok: false } });
    await redis.start();
    await until(async () => (await ready(a)) && (await ready(b)));
    backAt = Date.now();
    phase = 'back';
    end = backAt + 1_500;
    await load;
    expect(wrong, wrong.join('\n')).toEqual([]);
    expect([...redeemed.values()].every((n) => n === 1)).toBe(true);
    expect(answers.unavailable).toBeGreaterThan(0);
    expect(answers.afterRestart).toBeGreaterThan(0);
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
  });

  it('restarted without its data between two redemptions: a token and a challenge used before stay used', async () => {
    const { redis, a, b } = await setup();
    const kernel = await testKernel();
    const ch = await challenge(a);
    const body = buildSubmission(kernel, ch, { sessionId: 'sess' });
    const minted = await postVerifyAfterTrace(b, ch, body);
    expect(minted.body.success).toBe(true);
    expect((await postJson(a.at('/siteverify'), { token: minted.body.token, session_id: 'sess' })).body.success).toBe(true);
    await redis.stop('SIGKILL');
    await redis.start();
    // Every marker is gone (the nodes may have written their fences again already).
    expect(await redis.command('KEYS', '*:marker:*')).toEqual([]);
    await until(async () => (await ready(a)) && (await ready(b)));
    expect((await postJson(b.at('/siteverify'), { token: minted.body.token, session_id: 'sess' })).body).toMatchObject({
      success: false,
      error: 'token_already_used',
    });
    expect((await postJson(a.at('/verify'), body)).body).toMatchObject({ success: false, error_code: 'challenge_not_found' });
    // New work goes through.
    const next = await challenge(b);
    const fresh = await postVerifyAfterTrace(a, next, buildSubmission(kernel, next, { sessionId: 'new' }));
    expect(fresh.body.success).toBe(true);
  });

  it('FLUSHALL between two redemptions: a token used before stays used', async () => {
    const { redis, a, b } = await setup();
    const ch = await challenge(a);
    const minted = await postVerifyAfterTrace(a, ch, buildSubmission(await testKernel(), ch, { sessionId: 'sess' }));
    expect((await postJson(a.at('/siteverify'), { token: minted.body.token, session_id: 'sess' })).body.success).toBe(true);
    await redis.command('FLUSHALL');
    expect((await postJson(b.at('/siteverify'), { token: minted.body.token, session_id: 'sess' })).body).toMatchObject({
      success: false,
      error: 'token_already_used',
    });
  });

  it('slow (a command outlives the timeout) and out of memory: 503 store_unavailable in bounded time, then recovery', async () => {
    const { redis, a } = await setup();
    const kernel = await testKernel();
    // Three valid submissions, ready to send (their traces' time passed).
    const bodies = await Promise.all(
      [0, 1, 2].map(async () => {
        const ch = await challenge(a);
        const body = buildSubmission(kernel, ch);
        await traceTimePassed(ch, body);
        return body;
      }),
    );
    const sleeping = redis.command('DEBUG', 'SLEEP', 1.5);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const slow = await timedHere(postJson(a.at('/verify'), bodies[0]));
    expect(isUnavailable(slow)).toBe(true);
    expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
    await sleeping;

    await redis.command('CONFIG', 'SET', 'maxmemory', '1');
    const oom = await timedHere(postJson(a.at('/verify'), bodies[1]));
    expect(isUnavailable(oom)).toBe(true);
    await redis.command('CONFIG', 'SET', 'maxmemory', '0');
    await until(() => ready(a));
    expect((await postJson(a.at('/verify'), bodies[2])).body.success).toBe(true);
  });

  it('refuses markers while Redis may evict them (maxmemory with an eviction policy)', async () => {
    const { redis, a } = await setup();
    await redis.command('CONFIG', 'SET', 'maxmemory', '100mb');
    await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru');
    // Not ready as soon as one serving thread has found the policy (each checks every second).
    await until(async () => !(await ready(a)));
    expect(await (await fetch(a.at('/readyz'))).json()).toMatchObject({
      error_code: 'store_unavailable',
      detail: expect.stringContaining('noeviction'),
    });
    const ch = await challenge(a);
    expect(isUnavailable(await postVerifyAfterTrace(a, ch, buildSubmission(await testKernel(), ch)))).toBe(true);
    await redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    await until(() => ready(a));
  });

  it('restarted with its append-only file (appendfsync always): passkey credentials intact', async () => {
    const { redis, a, b } = await setup({ aof: 'always' }, { WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN });
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
    const opened = await postJson(a.at('/webauthn/register/options'), { site_key: 'site-a', stable_id: 'carol' }, { origin: ORIGIN });
    const done = await postJson(
      a.at('/webauthn/register/verify'),
      { session_id: opened.body.session_id, response: auth.register(opened.body.options) },
      { origin: ORIGIN },
    );
    expect(done.body.success).toBe(true);
    await redis.stop('SIGKILL'); // a crash: only what the AOF holds comes back
    await redis.start();
    await until(async () => (await ready(a)) && (await ready(b)));
    const r = await postJson(
      b.at('/challenge'),
      { site_key: 'site-a', stable_id: 'carol', client_capabilities: { webauthn_available: true } },
      { origin: ORIGIN },
    );
    const ch = r.body;
    expect(ch.webauthn_request_options.allowCredentials).toEqual([expect.objectContaining({ id: auth.id })]);
    const body = {
      ...buildSubmission(await testKernel(), ch, { sessionId: 'x' }),
      stable_id: 'carol',
      webauthn: auth.assert(ch.webauthn_request_options.challenge),
    };
    expect((await postVerifyAfterTrace(b, ch, body, { origin: ORIGIN })).body).toEqual({ success: true, token: expect.any(String) });
  });
});
