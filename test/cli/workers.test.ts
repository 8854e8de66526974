/**
 * Real Ariadne processes with WORKERS=2: both threads serve one port on one shared store, so
 * nothing is redeemed twice however the connections are spread; the port is the process's
 * alone; a sites reload reaches every thread; /metrics counts every thread; SIGTERM stops them all.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type AriadneNode, startNode, traceTimePassed } from '../helpers/ariadneNode.js';
import { buildSubmission, postJson } from '../helpers/client.js';
import { freePort } from '../helpers/freePort.js';
import { startRedis } from '../helpers/redisServer.js';
import { answersByThread, burst, onNewConnection } from '../helpers/threadsOfNode.js';
import { testKernel } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { MINUTE_MS, clearOfTurn } from '../helpers/clockWindows.js';

const BASE = {
  SIGNING_SECRET: randomBytes(32).toString('base64url'),
  POW_DIFFICULTY: '8',
  RATE_LIMIT_PER_MINUTE: '0',
  SCORING_MODE: 'off',
};
const CONNECTIONS = 50;

/** `count` valid /verify bodies for `node`, once the time their traces span has passed. */
async function submissions(node: AriadneNode, count: number): Promise<{ body: Record<string, unknown>; sessionId: string }[]> {
  const kernel = await testKernel();
  const made = await Promise.all(
    Array.from({ length: count }, async () => {
      const ch: Challenge & Record<string, any> = (await postJson(node.at('/challenge'), { site_key: 'site-a' })).body;
      const sessionId = randomUUID();
      return { ch, sessionId, body: buildSubmission(kernel, ch, { sessionId }) };
    }),
  );
  for (const m of made) await traceTimePassed(m.ch, m.body);
  return made;
}

describe('WORKERS=2: one port, one store', () => {
  let node: AriadneNode;
  beforeAll(async () => {
    node = await startNode({ ...BASE, WORKERS: '2' });
  });
  afterAll(async () => {
    expect(await node.stop()).toBe(0);
    expect(node.output()).toContain('shutting down');
  });

  it(`${CONNECTIONS} concurrent /verify of one challenge over ${CONNECTIONS} connections give exactly one token (10 challenges), both threads answering`, async () => {
    for (const { body } of await submissions(node, 10)) {
      const answers = (await burst(CONNECTIONS, node.at('/verify'), body)).map((a) => ({ status: a.status, ...JSON.parse(a.text) }));
      expect(answers.filter((a) => a.status === 200 && a.success === true)).toHaveLength(1);
      expect(answers.filter((a) => a.error_code === 'challenge_not_found')).toHaveLength(CONNECTIONS - 1);
    }
    // Both threads answered some, and every request is counted once.
    const byThread = await answersByThread(node, '/verify');
    expect([...byThread.keys()].sort()).toEqual(['1', '2']);
    for (const n of byThread.values()) expect(n).toBeGreaterThan(0);
    expect([...byThread.values()].reduce((a, b) => a + b)).toBe(10 * CONNECTIONS);
  });

  it(`${CONNECTIONS} concurrent /siteverify of one token over ${CONNECTIONS} connections give exactly one success (10 tokens)`, async () => {
    for (const { body, sessionId } of await submissions(node, 10)) {
      const minted = await postJson(node.at('/verify'), body);
      expect(minted.body).toEqual({ success: true, token: expect.any(String) });
      const answers = (await burst(CONNECTIONS, node.at('/siteverify'), { token: minted.body.token, session_id: sessionId })).map((a) =>
        JSON.parse(a.text),
      );
      expect(answers.filter((a) => a.success === true)).toHaveLength(1);
      expect(answers.filter((a) => a.error === 'token_already_used')).toHaveLength(CONNECTIONS - 1);
    }
  });

  it('an idempotent /siteverify retry succeeds on either thread, another idempotency key does not', async () => {
    const [made] = await submissions(node, 1);
    const minted = await postJson(node.at('/verify'), made!.body);
    const redeem = { token: minted.body.token, session_id: made!.sessionId, idempotency_key: 'retry-1' };
    const answers = (await burst(20, node.at('/siteverify'), redeem)).map((a) => JSON.parse(a.text));
    expect(answers.filter((a) => a.success === true)).toHaveLength(20);
    const other = JSON.parse((await onNewConnection(node.at('/siteverify'), { ...redeem, idempotency_key: 'retry-2' })).text);
    expect(other).toMatchObject({ success: false, error: 'token_already_used' });
  });
});

describe('WORKERS=2: rate limits', () => {
  it("RATE_LIMIT_PER_MINUTE counts one client's requests on both threads together", async () => {
    const node = await startNode({ ...BASE, WORKERS: '2', RATE_LIMIT_PER_MINUTE: '4' });
    try {
      // The window is the clock's minute: do not start right before it turns.
      await clearOfTurn(MINUTE_MS, 10_000);
      const ch = (await postJson(node.at('/challenge'), { site_key: 'site-a' })).body;
      const body = buildSubmission(await testKernel(), ch, { sessionId: randomUUID() });
      await traceTimePassed(ch, body);
      const statuses = (await burst(12, node.at('/verify'), body)).map((a) => a.status);
      // Four within the limit (one token, three refusals of the used challenge), then 429s.
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 429)).toHaveLength(8);
      // The limit held although both threads answered.
      const byThread = await answersByThread(node, '/verify');
      expect(byThread.size).toBe(2);
      for (const n of byThread.values()) expect(n).toBeGreaterThan(0);
    } finally {
      expect(await node.stop()).toBe(0);
    }
  });
});

/**
 * A fault put into a real process from outside, the way a bug would strike: loaded before the
 * server in the main thread and in every thread, it makes server thread 2 throw an uncaught
 * error when the process gets SIGUSR2 (nothing in Ariadne listens to that signal).
 */
const THREAD_2_THROWS_ON_SIGUSR2 = `data:text/javascript,${encodeURIComponent(`
import { BroadcastChannel, isMainThread, workerData } from 'node:worker_threads';
const fault = new BroadcastChannel('ariadne-test-fault');
fault.unref();
if (isMainThread) process.on('SIGUSR2', () => fault.postMessage(2));
else fault.onmessage = ({ data }) => {
  if (workerData && workerData.config && workerData.thread === data) throw new Error('injected fault in server thread ' + data);
};
`)}`;

describe('WORKERS=2: a thread that dies', () => {
  it('is reported, and the process exits 1 instead of serving on with the other thread', async () => {
    const node = await startNode({ ...BASE, WORKERS: '2' }, ['--import', THREAD_2_THROWS_ON_SIGUSR2]);
    try {
      const served = await burst(20, node.at('/challenge'), { site_key: 'site-a' });
      expect(served.every((a) => a.status === 200)).toBe(true);
      expect([...(await answersByThread(node, '/challenge')).keys()].sort()).toEqual(['1', '2']);

      const exited = new Promise<number | null>((resolve) => node.child.once('exit', (code) => resolve(code)));
      node.child.kill('SIGUSR2');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
      expect(code).toBe(1);
      expect(node.output()).toMatch(
        /server thread 2 of 2 crashed: Error: injected fault in server thread 2[\s\S]*exiting rather than serving without it/,
      );
      await expect(onNewConnection(node.at('/healthz'))).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await node.stop();
    }
  });
});

describe("WORKERS=2: readiness is the process's", () => {
  it('/readyz answers for every thread and the passkey credentials: 503 naming each while Redis is down; once 200, every thread verifies', async () => {
    const redis = await startRedis();
    // Passkeys preferred: the credentials live in Redis, on a connection of the main thread.
    const passkeys = { WEBAUTHN_MODE: 'preferred', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://shop.example.com' };
    const node = await startNode({
      ...passkeys,
      ...BASE,
      WORKERS: '2',
      STORE: 'redis',
      REDIS_URL: redis.url,
      REDIS_COMMAND_TIMEOUT_MS: '300',
      REDIS_CLOCK_SKEW_MS: '0',
    });
    try {
      await redis.stop();
      // Every part names itself once each has seen the connection drop.
      const everyPart = /^thread 1: .*; thread 2: .*; passkey credentials: redis: /;
      await until(async () => everyPart.test(JSON.parse((await onNewConnection(node.at('/readyz'))).text).detail ?? ''));
      // Whichever thread a connection lands on, it answers for the process.
      for (const r of await burst(10, node.at('/readyz'))) {
        expect(r.status).toBe(503);
        expect(JSON.parse(r.text)).toMatchObject({ error_code: 'store_unavailable', detail: expect.stringMatching(everyPart) });
      }
      const health = JSON.parse((await onNewConnection(node.at('/healthz'))).text);
      expect(health).toMatchObject({ status: 'degraded', store: { ok: false, detail: expect.stringContaining('thread 2: ') } });

      await redis.start();
      await until(async () => (await onNewConnection(node.at('/readyz'))).status === 200);
      const made = await submissions(node, 20);
      const answers = await Promise.all(made.map(({ body }) => onNewConnection(node.at('/verify'), body)));
      expect(answers.map((a) => JSON.parse(a.text).success)).toEqual(Array(20).fill(true));
      expect([...(await answersByThread(node, '/verify')).keys()].sort()).toEqual(['1', '2']);
    } finally {
      expect(await node.stop()).toBe(0);
      await redis.close();
    }
  });
});

describe("WORKERS: the port is the process's alone", () => {
  it.each([
    ['2', '2'],
    ['1', '2'],
    ['2', '1'],
  ])('with WORKERS=%s serving, a second process with WORKERS=%s on the same port exits 1 naming the port', async (first, second) => {
    const port = String(await freePort());
    const serving = await startNode({ ...BASE, WORKERS: first, PORT: port });
    try {
      await expect(startNode({ ...BASE, WORKERS: second, PORT: port })).rejects.toThrow(`could not listen on 127.0.0.1:${port}`);
      // Still serving, alone.
      expect((await postJson(serving.at('/challenge'), { site_key: 'site-a' })).status).toBe(200);
    } finally {
      expect(await serving.stop()).toBe(0);
    }
  });
});

describe('WORKERS: SHARE_PORT cannot join a port held alone', () => {
  it.each(['1', '2'])(
    'with WORKERS=2 serving, a SHARE_PORT process (STORE=redis, WORKERS=%s) on the same port exits 1 naming the port',
    async (second) => {
      const redis = await startRedis();
      const port = String(await freePort());
      const serving = await startNode({ ...BASE, WORKERS: '2', PORT: port });
      try {
        // The kernel would let its SO_REUSEPORT listeners join the threads', splitting traffic between two stores.
        const sharing = startNode({ ...BASE, WORKERS: second, PORT: port, STORE: 'redis', REDIS_URL: redis.url, SHARE_PORT: 'true' });
        try {
          await expect(sharing).rejects.toThrow(`could not listen on 127.0.0.1:${port} (another Ariadne process holds the port)`);
        } finally {
          // Started after all (the check failed): stopped, not left serving.
          await sharing.then(
            (node) => node.stop(),
            () => undefined,
          );
        }
        const answers = await burst(20, serving.at('/challenge'), { site_key: 'site-a' });
        expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      } finally {
        expect(await serving.stop()).toBe(0);
        await redis.stop();
      }
    },
  );
});

describe('WORKERS=2: SIGHUP', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ariadne-workers-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a sites reload reaches every thread before it is reported', async () => {
    const file = path.join(dir, 'sites.json');
    const site = (key: string) => ({ [key]: { hostnames: ['127.0.0.1'], secret: key.repeat(40).slice(0, 40) } });
    await writeFile(file, JSON.stringify({ sites: site('local') }));
    const node = await startNode({ ...BASE, WORKERS: '2', SITES_FILE: file });
    try {
      const codes = async (siteKey: string) =>
        (await burst(20, node.at('/challenge'), { site_key: siteKey }, { origin: 'http://127.0.0.1' })).map(
          (a) => JSON.parse(a.text).error_code ?? 'ok',
        );
      expect(new Set(await codes('blog'))).toEqual(new Set(['unknown_site_key']));
      await writeFile(file, JSON.stringify({ sites: { ...site('local'), ...site('blog') } }));
      node.child.kill('SIGHUP');
      const end = Date.now() + 10_000;
      while (!node.output().includes('sites reloaded') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(node.output()).toContain('sites reloaded');
      expect(new Set(await codes('blog'))).toEqual(new Set(['ok']));
    } finally {
      expect(await node.stop()).toBe(0);
    }
  });
});
