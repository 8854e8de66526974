/**
 * The dashboard of real processes: two nodes on one redis-server (each on two threads) show the
 * traffic of both, and the sampled traces of both; one node on the embedded store with two
 * threads shows the traffic of both threads.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type AriadneNode, postVerifyAfterTrace, startNode } from '../helpers/ariadneNode.js';
import { buildSubmission, postJson } from '../helpers/client.js';
import { startRedis } from '../helpers/redisServer.js';
import { testKernel } from '../helpers/server.js';
import { until } from '../helpers/until.js';

const TOKEN = 'dashboard-token-0123456789';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const env = () => ({
  SIGNING_SECRET: randomBytes(32).toString('base64url'),
  DASHBOARD_TOKEN: TOKEN,
  TRACE_SAMPLE_RATE: '1',
  POW_DIFFICULTY: '4',
  RATE_LIMIT_PER_MINUTE: '0',
  SCORING_MODE: 'off',
  WORKERS: '2',
});

async function login(node: AriadneNode): Promise<string> {
  const r = await fetch(node.at('/dashboard/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN }),
    redirect: 'manual',
  });
  expect(r.status).toBe(303);
  return r.headers.get('set-cookie')!.split(';')[0]!;
}

async function totals(node: AriadneNode, cookie: string): Promise<Record<string, number>> {
  const r = await fetch(node.at('/dashboard/data'), { headers: { cookie } });
  const { series } = (await r.json()) as { series: Record<string, number[]> };
  return Object.fromEntries(Object.entries(series).map(([name, values]) => [name, values.reduce((a, b) => a + b, 0)]));
}

async function traces(node: AriadneNode, cookie: string): Promise<{ outcome: string }[]> {
  const text = await (await fetch(node.at('/dashboard/traces.jsonl'), { headers: { cookie } })).text();
  return text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const sorted = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).sort(([x], [y]) => x.localeCompare(y)));

/** A new connection per request, so the kernel spreads them over a node's threads. */
const challenge = async (node: AriadneNode): Promise<Challenge> =>
  (await postJson(node.at('/challenge'), { site_key: 'any' }, { connection: 'close' })).body;

describe('dashboard across nodes and threads', () => {
  it('shows every node’s traffic and traces with STORE=redis', async () => {
    const redis = await startRedis();
    cleanup.push(() => redis.close());
    // A loaded machine must not turn a slow Redis answer into a 503 here; one clock for both nodes
    // (a fresh Redis is a data loss: whatever is issued within the clock skew after it is refused).
    const shared = { ...env(), STORE: 'redis', REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '5000', REDIS_CLOCK_SKEW_MS: '0' };
    const [a, b] = await Promise.all([startNode(shared), startNode(shared)]);
    cleanup.push(() => Promise.all([a!.stop(), b!.stop()]));
    const kernel = await testKernel();

    for (let i = 0; i < 2; i++) await challenge(a!);
    const fromB = [await challenge(b!), await challenge(b!), await challenge(b!)];
    // B's challenge verified on A (one store), redeemed on B, and a refused submission on B.
    const ok = await postVerifyAfterTrace(a!, fromB[0]!, buildSubmission(kernel, fromB[0]!, { sessionId: 's' }));
    expect(ok.body, JSON.stringify(ok.body)).toMatchObject({ success: true });
    const bad = buildSubmission(kernel, fromB[1]!);
    bad.signature = `${String(bad.signature).slice(0, -4)}AAAA`;
    expect((await postVerifyAfterTrace(b!, fromB[1]!, bad)).body.error_code).toBe('invalid_signature');
    expect((await postJson(b!.at('/siteverify'), { token: ok.body.token, session_id: 's' })).body.success).toBe(true);

    // One session opens both dashboards: the same secret and token.
    const cookie = await login(a!);
    const want = { challenge: 5, 'pow:4': 5, 'verify:ok': 1, 'verify:invalid_signature': 1, 'input:mouse': 2, 'siteverify:ok': 1 };
    for (const node of [a!, b!]) {
      // Each thread of each node flushes once a second: wait for the last flush, then nothing more.
      await until(async () => JSON.stringify(sorted(await totals(node, cookie))) === JSON.stringify(sorted(want)), 10_000).catch(
        () => undefined,
      );
      expect(sorted(await totals(node, cookie))).toEqual(sorted(want));
      expect((await traces(node, cookie)).map((t) => t.outcome).sort()).toEqual(['invalid_signature', 'ok']);
    }
  });

  it('shows the traffic of every thread with the embedded store', async () => {
    const node = await startNode(env());
    cleanup.push(() => node.stop());
    for (let i = 0; i < 8; i++) await challenge(node);
    const cookie = await login(node);
    await until(async () => (await totals(node, cookie)).challenge === 8, 10_000).catch(() => undefined);
    expect(await totals(node, cookie)).toEqual({ challenge: 8, 'pow:4': 8 });
  });
});
