/**
 * Two real Ariadne processes on two ports sharing one real redis-server: any node verifies what
 * the other issued, nothing is redeemed twice across them, and a passkey's hourly rate is one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type AriadneNode, postVerifyAfterTrace, startNode, traceTimePassed } from '../helpers/ariadneNode.js';
import { buildSubmission, postJson } from '../helpers/client.js';
import { challengesWithHumanTrace, hasHumans, mazeOf } from '../helpers/humanTraces.js';
import { scriptAtKeys } from '../helpers/keyboardSolves.js';
import { type TestRedis, startRedis } from '../helpers/redisServer.js';
import { testKernel } from '../helpers/server.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';
import { HOUR_MS, MINUTE_MS, clearOfTurn } from '../helpers/clockWindows.js';

const ORIGIN = 'https://shop.example.com';
const RP_ID = 'example.com';

let redis: TestRedis;
const nodes: AriadneNode[] = [];

/** Two nodes with the same secret and Redis (under a prefix of their own) and `env`. */
async function pair(env: Record<string, string>): Promise<[AriadneNode, AriadneNode]> {
  const shared = {
    SIGNING_SECRET: randomBytes(32).toString('base64url'),
    STORE: 'redis',
    REDIS_URL: redis.url,
    REDIS_PREFIX: `pair${randomUUID().slice(0, 8)}:`,
    REDIS_CLOCK_SKEW_MS: '0',
    POW_DIFFICULTY: '8',
    RATE_LIMIT_PER_MINUTE: '0',
    SCORING_MODE: 'off',
    ...env,
  };
  const started = await Promise.all([startNode(shared), startNode(shared)]);
  nodes.push(...started);
  return started as [AriadneNode, AriadneNode];
}

async function challenge(node: AriadneNode, extra: Record<string, unknown> = {}): Promise<Challenge & Record<string, any>> {
  const r = await postJson(node.at('/challenge'), { site_key: 'site-a', ...extra }, { origin: ORIGIN });
  expect(r.status).toBe(200);
  return r.body;
}

/** A /verify body that passes every check for a fresh challenge of `node`. */
async function submission(node: AriadneNode, sessionId = randomUUID()) {
  const ch = await challenge(node);
  const body = buildSubmission(await testKernel(), ch, { sessionId });
  await traceTimePassed(ch, body);
  return { ch, body, sessionId };
}

async function token(node: AriadneNode): Promise<{ token: string; sessionId: string }> {
  const { body, sessionId } = await submission(node);
  const r = await postJson(node.at('/verify'), body);
  expect(r.body).toEqual({ success: true, token: expect.any(String) });
  return { token: r.body.token, sessionId };
}

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
  await redis.close();
});

describe('two nodes, one Redis', () => {
  let a: AriadneNode;
  let b: AriadneNode;
  beforeAll(async () => {
    [a, b] = await pair({ WEBAUTHN_MODE: 'preferred', WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN });
  });

  it('a challenge issued by A verifies on B; a token minted on B is redeemed once, and again on A fails', async () => {
    const { body, sessionId } = await submission(a);
    const minted = await postJson(b.at('/verify'), body);
    expect(minted.body).toEqual({ success: true, token: expect.any(String) });
    // The same challenge again, on the node that issued it.
    expect((await postJson(a.at('/verify'), body)).body).toMatchObject({ success: false, error_code: 'challenge_not_found' });
    const once = await postJson(b.at('/siteverify'), { token: minted.body.token, session_id: sessionId });
    expect(once.body).toMatchObject({ success: true });
    const again = await postJson(a.at('/siteverify'), { token: minted.body.token, session_id: sessionId });
    expect(again.body).toMatchObject({ success: false, error: 'token_already_used' });
  });

  it('50 concurrent /verify of one challenge over both nodes give exactly one token (5 challenges)', async () => {
    for (let round = 0; round < 5; round++) {
      const { body } = await submission(round % 2 ? a : b);
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => postJson((i % 2 ? a : b).at('/verify'), body)));
      expect(answers.filter((r) => r.status === 200 && r.body.success === true)).toHaveLength(1);
      expect(answers.filter((r) => r.body.error_code === 'challenge_not_found')).toHaveLength(49);
    }
  });

  it('50 concurrent /siteverify of one token over both nodes give exactly one success (5 tokens)', async () => {
    for (let round = 0; round < 5; round++) {
      const t = await token(round % 2 ? a : b);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => postJson((i % 2 ? a : b).at('/siteverify'), { token: t.token, session_id: t.sessionId })),
      );
      expect(answers.filter((r) => r.body.success === true)).toHaveLength(1);
      expect(answers.filter((r) => r.body.error === 'token_already_used')).toHaveLength(49);
    }
  });

  it('a passkey registered on A asserts on B, and its signature counter is shared', async () => {
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID, true);
    const opened = await postJson(a.at('/webauthn/register/options'), { site_key: 'site-a', stable_id: 'alice' }, { origin: ORIGIN });
    const done = await postJson(
      a.at('/webauthn/register/verify'),
      { session_id: opened.body.session_id, response: auth.register(opened.body.options) },
      { origin: ORIGIN },
    );
    expect(done.body).toEqual({ success: true, credential_id: auth.id });

    const verifyOn = async (node: AriadneNode) => {
      const ch = await challenge(node, { stable_id: 'alice', client_capabilities: { webauthn_available: true } });
      expect(ch.webauthn_request_options?.allowCredentials).toEqual([expect.objectContaining({ id: auth.id })]);
      const body = { ...buildSubmission(await testKernel(), ch, { sessionId: randomUUID() }), stable_id: 'alice' };
      return postVerifyAfterTrace(node, ch, { ...body, webauthn: auth.assert(ch.webauthn_request_options!.challenge) }, { origin: ORIGIN });
    };
    expect((await verifyOn(b)).body).toEqual({ success: true, token: expect.any(String) }); // counter 1, on B
    expect((await verifyOn(a)).body).toEqual({ success: true, token: expect.any(String) }); // counter 2, on A
    // A clone of the authenticator reporting 2 again: B knows the counter A stored.
    auth.signCount = 1;
    expect((await verifyOn(b)).body).toMatchObject({ success: false, error_code: 'webauthn_failed' });
  });

  it('the registration session opened on A is single-use across nodes', async () => {
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
    const opened = await postJson(a.at('/webauthn/register/options'), { site_key: 'site-a', stable_id: 'bob' }, { origin: ORIGIN });
    const response = auth.register(opened.body.options);
    const first = await postJson(b.at('/webauthn/register/verify'), { session_id: opened.body.session_id, response }, { origin: ORIGIN });
    expect(first.body).toEqual({ success: true, credential_id: auth.id });
    const second = await postJson(a.at('/webauthn/register/verify'), { session_id: opened.body.session_id, response }, { origin: ORIGIN });
    expect(second.body.success).toBe(false);
  });
});

describe('shared rate limits', () => {
  it('RATE_LIMIT_PER_MINUTE counts the requests of one client on both nodes together', async () => {
    const [a, b] = await pair({ RATE_LIMIT_PER_MINUTE: '4' });
    // The window is the clock's minute: do not start right before it turns.
    await clearOfTurn(MINUTE_MS, 10_000);
    const { body } = await submission(a);
    const statuses: number[] = [];
    for (const node of [a, b, a, b, a, b]) statuses.push((await postJson(node.at('/verify'), body)).status);
    // One token, three refusals of the used challenge, then the shared limit of 4 is reached.
    expect(statuses).toEqual([200, 400, 400, 400, 429, 429]);
  });
});

describe('a passkey past a tightened keyboard door', () => {
  it("spends one hourly rate over both nodes, shared with the passkey door's", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ariadne-nodes-passkey-'));
    const sitesFile = path.join(dir, 'sites.json');
    const passkeys = { mode: 'preferred', rp_id: RP_ID, origins: [ORIGIN], without_maze: { per_hour: 2 } };
    const site = {
      hostnames: ['shop.example.com'],
      secret: 'passkey-nodes-secret-0123456789abcdef',
      policy: { keyboard: { door: 'strict' }, passkeys },
    };
    await writeFile(sitesFile, JSON.stringify({ sites: { 'site-a': site } }));
    const [a, b] = await pair({ SITES_FILE: sitesFile, WEBAUTHN_MODE: 'preferred', WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN });
    await rm(dir, { recursive: true, force: true });
    // The rate's window is the clock's hour: do not start right before it turns.
    await clearOfTurn(HOUR_MS, 30_000);
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID, true);
    const opened = await postJson(a.at('/webauthn/register/options'), { site_key: 'site-a', stable_id: 'kim' }, { origin: ORIGIN });
    const registered = await postJson(
      b.at('/webauthn/register/verify'),
      { session_id: opened.body.session_id, response: auth.register(opened.body.options) },
      { origin: ORIGIN },
    );
    expect(registered.body).toEqual({ success: true, credential_id: auth.id });

    // The door on A spends the first use of the hour.
    const forDoor = await challenge(a, { stable_id: 'kim' });
    const door = await postJson(
      a.at('/passkey'),
      {
        challenge_id: forDoor.id,
        site_key: 'site-a',
        session_id: 'd',
        stable_id: 'kim',
        webauthn: auth.assert(forDoor.webauthn_request_options!.challenge),
      },
      { origin: ORIGIN },
    );
    expect(door.body).toMatchObject({ success: true });
    // Keyboard solves on B then A, each with the passkey: the second use, then past the rate.
    const kernel = await testKernel();
    const solves = [];
    for (const [i, node] of [b, a].entries()) {
      const ch = await challenge(node, { stable_id: 'kim' });
      const events = scriptAtKeys(kernel.generateMaze(mazeOf(ch)), 'uniform', 'random', i + 1);
      const pow = kernel.solvePow(ch.pow_challenge, ch.pow_difficulty_keyboard, 0, 1 << 26);
      solves.push({
        node,
        ch,
        body: {
          ...buildSubmission(kernel, ch, { events, sessionId: `k${i}`, pow: { nonce: pow.nonce!, hash: pow.hash! } }),
          stable_id: 'kim',
        },
      });
    }
    const answers = [];
    for (const { node, ch, body } of solves) {
      answers.push(
        await postVerifyAfterTrace(
          node,
          ch,
          { ...body, webauthn: auth.assert(ch.webauthn_request_options!.challenge) },
          { origin: ORIGIN },
        ),
      );
    }
    expect(answers.map((r) => r.status)).toEqual([200, 429]);
    expect(JSON.parse(Buffer.from(String(answers[0]!.body.token).split('.')[1]!, 'base64url').toString())).toMatchObject({
      method: 'passkey',
      input_type: 'keyboard',
    });
    expect(answers[1]!.body).toMatchObject({ success: false, error_code: 'passkey_rate_exceeded' });
  });
});

describe('duplicate traces', () => {
  it.skipIf(!hasHumans)("a person's trace accepted on A is caught as a duplicate on B", async () => {
    const [a, b] = await pair({ SCORING_MODE: 'enforce' });
    const {
      chs: [first, second],
      events,
    } = await challengesWithHumanTrace(() => challenge(a), 2, 30);
    const kernel = await testKernel();
    const onA = await postVerifyAfterTrace(a, first!, buildSubmission(kernel, first!, { sessionId: 's1', events: events[0]! }));
    expect(onA.body).toEqual({ success: true, token: expect.any(String) });
    const onB = await postVerifyAfterTrace(b, second!, buildSubmission(kernel, second!, { sessionId: 's2', events: events[1]! }));
    expect(onB.body).toMatchObject({ success: false, error_code: 'duplicate_trace' });
  });
});
