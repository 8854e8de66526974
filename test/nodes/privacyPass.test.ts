/**
 * The Privacy Pass door on two real nodes sharing one real redis-server, behind one public host
 * (the Host both are reached at): a token redeemed on one node is refused on the other, and of
 * concurrent redemptions over both nodes exactly one passes.
 */
import { request } from 'node:http';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AriadneNode, startNode } from '../helpers/ariadneNode.js';
import { postJson } from '../helpers/client.js';
import { type TestIssuer, testIssuer } from '../helpers/privacyPassIssuer.js';
import { type TestRedis, startRedis } from '../helpers/redisServer.js';

/** The public host of both nodes, as a load balancer in front of them would pass it on. */
const HOST = 'verify.example';

let redis: TestRedis;
let issuer: TestIssuer;
let a: AriadneNode;
let b: AriadneNode;

beforeAll(async () => {
  [redis, issuer] = await Promise.all([startRedis(), testIssuer('issuer.example')]);
  const env = {
    SIGNING_SECRET: randomBytes(32).toString('base64url'),
    STORE: 'redis',
    REDIS_URL: redis.url,
    REDIS_PREFIX: `pp${randomUUID().slice(0, 8)}:`,
    REDIS_CLOCK_SKEW_MS: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    PRIVACY_PASS_ISSUERS: issuer.entry,
  };
  [a, b] = await Promise.all([startNode(env), startNode(env)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.close();
});

/** GET /privacy-pass on `node` with the public Host (fetch cannot set Host). */
function door(
  node: AriadneNode,
  challengeId: string,
  authorization?: string,
): Promise<{ status: number; wwwAuthenticate: string[]; body: any }> {
  const q = new URLSearchParams({ challenge_id: challengeId, site_key: 'site-a', session_id: 'sess' });
  return new Promise((resolve, reject) => {
    const req = request(node.at(`/privacy-pass?${q}`), { headers: { host: HOST, ...(authorization ? { authorization } : {}) } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        const w = res.headers['www-authenticate'];
        resolve({ status: res.statusCode!, wwwAuthenticate: w === undefined ? [] : [w].flat(), body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function challengeId(node: AriadneNode): Promise<string> {
  const r = await postJson(node.at('/challenge'), { site_key: 'site-a' });
  expect(r.body.privacy_pass).toBe(true);
  return r.body.id;
}

describe('Privacy Pass over two nodes', () => {
  it('a token redeemed on A is refused on B (its challenge is spent in Redis)', async () => {
    const id = await challengeId(a);
    const asked = await door(b, id);
    expect(asked.status).toBe(401);
    const auth = (await issuer.answer(asked.wwwAuthenticate))!;
    expect(auth).toBeDefined();
    expect(await door(a, id, auth)).toMatchObject({ status: 200, body: { success: true, token: expect.any(String) } });
    expect(await door(b, id, auth)).toMatchObject({ status: 400, body: { success: false, error_code: 'challenge_not_found' } });
  });

  it('of 20 concurrent redemptions of one token over both nodes, exactly one passes', async () => {
    const id = await challengeId(b);
    const auth = await issuer.tokenFor({ challengeId: id, host: HOST });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => door(i % 2 ? a : b, id, auth)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.body.error_code === 'challenge_not_found')).toHaveLength(19);
  });
});
