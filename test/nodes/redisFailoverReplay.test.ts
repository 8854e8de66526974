/**
 * A redeemed challenge and token replayed on two real nodes, every few milliseconds, through a
 * failover that lost their markers and a promoted replica that refuses writes for a while: never
 * accepted a second time.
 *
 * A real primary and replica (redis-server), the replica replicating through a forwarder that is
 * cut before the redemption, so it never receives the markers; the nodes reach Redis through
 * another forwarder, moved to the replica when it is promoted by hand (`REPLICAOF NO ONE`), as a
 * virtual IP would be. The promoted replica then refuses writes for 2 s: out of memory
 * (`maxmemory` under what it holds, `noeviction`) or `min-replicas-to-write` without a replica
 * (NOREPLICAS). Its first re-opening of the loss fences fails, and the consume that follows the
 * re-opening that succeeds must still compare the challenge's and token's time with the new
 * fence's cutoff. Each case takes about 10 s.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_DEFAULTS } from '../../src/store/parseStoreConfig.js';
import type { AriadneNode } from '../helpers/ariadneNode.js';
import { postJson } from '../helpers/client.js';
import { isStoreUnavailable, mintToken, startPair, submission } from '../helpers/nodePair.js';
import { type TestRedis, startRedis } from '../helpers/redisServer.js';
import { type TcpForwarder, startForwarder } from '../helpers/tcpForwarder.js';
import { until } from '../helpers/until.js';

/** How long the promoted replica refuses writes. */
const REFUSING_MS = 2_000;
/** How long the replay goes on once it accepts writes again (the nodes' periodic check runs at least once). */
const AFTER_MS = 1_500;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const refusals = {
  'out of memory': { refuse: ['maxmemory', '1'], allow: ['maxmemory', '0'] },
  NOREPLICAS: { refuse: ['min-replicas-to-write', '1'], allow: ['min-replicas-to-write', '0'] },
} as const;

async function replicationOffset(server: TestRedis, field: 'master_repl_offset' | 'slave_repl_offset'): Promise<number> {
  const info = String(await server.command('INFO', 'replication'));
  return Number(new RegExp(`${field}:(\\d+)`).exec(info)?.[1] ?? -1);
}

async function start(
  skewMs: number,
): Promise<{ primary: TestRedis; replica: TestRedis; link: TcpForwarder; front: TcpForwarder; a: AriadneNode; b: AriadneNode }> {
  const primary = await startRedis({ args: () => ['--repl-diskless-sync-delay', '0'] });
  cleanup.push(() => primary.close());
  const link = await startForwarder(primary.port);
  cleanup.push(() => link.close());
  const replica = await startRedis({ args: () => ['--replicaof', '127.0.0.1', String(link.port), '--repl-diskless-sync-delay', '0'] });
  cleanup.push(() => replica.close());
  const front = await startForwarder(primary.port);
  cleanup.push(() => front.close());
  const [a, b] = await startPair({
    REDIS_URL: `redis://127.0.0.1:${front.port}`,
    REDIS_COMMAND_TIMEOUT_MS: '500',
    REDIS_CLOCK_SKEW_MS: String(skewMs),
  });
  cleanup.push(() => Promise.all([a.stop(), b.stop()]));
  return { primary, replica, link, front, a, b };
}

describe('a redeemed challenge and token replayed through a lossy failover onto a replica that refuses writes', () => {
  it.each([
    { refusal: 'out of memory' as const, skewMs: 0 },
    { refusal: 'out of memory' as const, skewMs: STORE_DEFAULTS.REDIS_CLOCK_SKEW_MS },
    { refusal: 'NOREPLICAS' as const, skewMs: STORE_DEFAULTS.REDIS_CLOCK_SKEW_MS },
  ])('$refusal, REDIS_CLOCK_SKEW_MS $skewMs: never accepted again, on either node', { timeout: 60_000 }, async ({ refusal, skewMs }) => {
    const { primary, replica, link, front, a, b } = await start(skewMs);
    // Once the nodes' fences' cutoff (their start plus the skew) has passed, a token works.
    let token: { token: string; sessionId: string } | undefined;
    const [, { ch, body }] = await Promise.all([
      until(async () => (token = await mintToken(a).catch(() => undefined)) !== undefined, 15_000),
      submission(b),
    ]);
    // The replica has everything written so far (the fences among it), then is cut off.
    await until(
      async () => (await replicationOffset(replica, 'slave_repl_offset')) === (await replicationOffset(primary, 'master_repl_offset')),
      10_000,
    );
    link.cut();

    // Redeemed on the primary only.
    expect((await postJson(a.at('/verify'), body)).body.success).toBe(true);
    expect((await postJson(b.at('/siteverify'), { token: token!.token, session_id: token!.sessionId })).body.success).toBe(true);
    const markers = async (server: TestRedis) => ((await server.command('KEYS', '*:marker:*')) as string[]).length;
    expect(await primary.command('KEYS', `*:marker:challenge:${ch.id}`)).toHaveLength(1);
    expect(await replica.command('KEYS', `*:marker:challenge:${ch.id}`)).toEqual([]);
    expect((await markers(primary)) - (await markers(replica))).toBe(2);

    const answers: { at: number; route: string; status: number; body: any }[] = [];
    let replaying = true;
    const replay = async (node: AriadneNode, route: '/verify' | '/siteverify') => {
      const payload = route === '/verify' ? body : { token: token!.token, session_id: token!.sessionId };
      while (replaying) {
        const r = await postJson(node.at(route), payload);
        answers.push({ at: Date.now(), route, ...r });
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    };
    const replays = Promise.all([a, b].flatMap((node) => [replay(node, '/verify'), replay(node, '/siteverify')]));

    const { refuse, allow } = refusals[refusal];
    await replica.command('CONFIG', 'SET', ...refuse);
    await primary.stop('SIGKILL');
    await replica.command('REPLICAOF', 'NO', 'ONE');
    front.retarget(replica.port);
    const promotedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, REFUSING_MS));
    await replica.command('CONFIG', 'SET', ...allow);
    const allowedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
    replaying = false;
    await replays;

    const accepted = answers.filter((r) => r.body.success === true);
    const refused = (r: (typeof answers)[number]) => r.body.error_code === 'challenge_not_found' || r.body.error === 'token_already_used';
    const other = answers.filter((r) => !isStoreUnavailable(r) && !refused(r) && r.body.success !== true);
    console.log(
      `replay through a lossy failover (${refusal}, skew ${skewMs} ms): ${JSON.stringify({
        answers: answers.length,
        accepted: accepted.map((r) => `${r.route} ${r.at - allowedAt} ms after writes were allowed`),
        unavailableWhileRefusing: answers.filter((r) => r.at > promotedAt && r.at < allowedAt && isStoreUnavailable(r)).length,
        refusedAfter: answers.filter((r) => r.at > allowedAt && refused(r)).length,
      })}`,
    );
    expect(accepted).toEqual([]);
    expect(other).toEqual([]);
    // The window was there: the promoted replica's refusal was answered 503, and the replays
    // reached it once it accepted writes (refused as used, on both routes and both nodes).
    expect(answers.filter((r) => r.at > promotedAt && r.at < allowedAt && isStoreUnavailable(r)).length).toBeGreaterThan(0);
    for (const route of ['/verify', '/siteverify'])
      expect(answers.filter((r) => r.at > allowedAt + 500 && r.route === route && refused(r)).length).toBeGreaterThan(10);
    expect(await replica.command('KEYS', `*:marker:challenge:${ch.id}`)).toEqual([]);

    // And the nodes serve on the promoted replica: fresh challenges and tokens work on both.
    await Promise.all(
      [a, b].map(async (node) => {
        let fresh: { token: string; sessionId: string } | undefined;
        await until(async () => (fresh = await mintToken(node).catch(() => undefined)) !== undefined, 10_000);
        expect((await postJson(node.at('/siteverify'), { token: fresh!.token, session_id: fresh!.sessionId })).body.success).toBe(true);
      }),
    );
  });
});
