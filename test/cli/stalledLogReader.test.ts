/**
 * A real process whose stdout reader stops reading (a supervisor gone with the pipe open): the
 * logs fill the pipe, and the server must go on answering, and stop on SIGTERM, rather than sleep
 * in a write that never completes.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startNode } from '../helpers/ariadneNode.js';
import { buildSubmission, postJson } from '../helpers/client.js';
import { startRedis } from '../helpers/redisServer.js';
import { testKernel } from '../helpers/server.js';

/** Each answer logs a warning of about 200 bytes: well past what a pipe holds. */
const REQUESTS = 3_000;

describe('a stdout reader that stops reading', () => {
  it('neither stalls the server nor its shutdown', { timeout: 120_000 }, async () => {
    const redis = await startRedis();
    const node = await startNode({
      SIGNING_SECRET: randomBytes(32).toString('base64url'),
      STORE: 'redis',
      REDIS_URL: redis.url,
      WORKERS: '1',
      POW_DIFFICULTY: '4',
      RATE_LIMIT_PER_MINUTE: '100',
      SCORING_MODE: 'off',
    });
    try {
      const ch = (await postJson(node.at('/challenge'), { site_key: 'site-a' })).body;
      const body = JSON.stringify(buildSubmission(await testKernel(), ch));
      node.child.stdout!.pause();
      // With Redis gone every /verify fails closed and logs `store unavailable`.
      await redis.stop('SIGKILL');
      const statuses = new Map<number, number>();
      for (let i = 0; i < REQUESTS; i++) {
        const r = await fetch(node.at('/verify'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(5_000),
        });
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
      expect(statuses).toEqual(new Map([[503, REQUESTS]]));
      const started = Date.now();
      expect(await node.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      node.child.kill('SIGKILL');
      await redis.stop().catch(() => undefined);
    }
  });
});
