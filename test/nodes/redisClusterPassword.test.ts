/**
 * REDIS_PASSWORD against a real Redis Cluster whose nodes have `requirepass` and `masterauth`
 * (3 primaries, 3 replicas, started once for the file): two real Ariadne processes with the
 * password reach every primary, keep single use across each other, and a node without the
 * password, or with a wrong one, fails closed (503 store_unavailable), never open.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AriadneNode, startNode } from '../helpers/ariadneNode.js';
import { postJson } from '../helpers/client.js';
import { isStoreUnavailable, mintToken, raceVerify, startPair, submission } from '../helpers/nodePair.js';
import { type TestCluster, startRedisCluster } from '../helpers/redisCluster.js';

const run = promisify(execFile);
const PASSWORD = 'cluster-password-0123456789';
const SIGNING_SECRET = 'cluster-password-test-secret-0123456789abcdef';

let cluster: TestCluster;
let a: AriadneNode;
let b: AriadneNode;
const prefix = `pw${process.pid}:`;

beforeAll(async () => {
  // The helper returns once every replica's link to its primary is up: masterauth works.
  cluster = await startRedisCluster({ password: PASSWORD });
  [a, b] = await startPair({
    SIGNING_SECRET,
    REDIS_CLUSTER: cluster.seeds,
    REDIS_PASSWORD: PASSWORD,
    REDIS_PREFIX: prefix,
    REDIS_COMMAND_TIMEOUT_MS: '1000',
  });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cluster?.close();
});

it('the cluster refuses clients without the password (the test is about something)', async () => {
  const { stdout } = await run('redis-cli', ['-p', String(cluster.nodes[0]!.port), 'GET', 'x']);
  expect(stdout).toMatch(/NOAUTH/);
  const replication = await Promise.all(cluster.nodes.map(async (n) => String(await n.command('INFO', 'replication'))));
  expect(replication.filter((r) => r.includes('role:slave') && r.includes('master_link_status:up'))).toHaveLength(3);
});

it('with REDIS_PASSWORD both nodes serve from every primary, and single use holds across them', async () => {
  for (const node of [a, b]) expect((await fetch(node.at('/readyz'))).status).toBe(200);

  // Challenges spread over the 16 marker shards, so over the 3 primaries.
  const bodies = await Promise.all(Array.from({ length: 24 }, () => submission(a)));
  const answers = await Promise.all(bodies.map(({ body }, i) => postJson((i % 2 ? a : b).at('/verify'), body)));
  expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
  expect(answers.every((r) => r.body.success === true)).toBe(true);
  const primaries = await Promise.all(
    cluster.nodes.map(async (n) => (String(await n.command('INFO', 'replication')).includes('role:master') ? n : undefined)),
  );
  for (const primary of primaries.filter((p) => p !== undefined)) {
    expect((await primary.command('KEYS', `${prefix}*:marker:*`)) as string[]).not.toEqual([]);
  }

  // A second /verify of each, on the other node: already used.
  const again = await Promise.all(bodies.map(({ body }, i) => postJson((i % 2 ? b : a).at('/verify'), body)));
  expect(again.every((r) => r.status === 400 && r.body.error_code === 'challenge_not_found')).toBe(true);

  const { body } = await submission(b);
  const race = await raceVerify(a, b, body);
  expect(race.filter((r) => r.status === 200 && r.body.success === true)).toHaveLength(1);

  const token = await mintToken(a);
  expect((await postJson(b.at('/siteverify'), { token: token.token, session_id: token.sessionId })).body.success).toBe(true);
  expect((await postJson(a.at('/siteverify'), { token: token.token, session_id: token.sessionId })).body.success).toBe(false);
});

it('without the password, or with a wrong one, a node fails closed: 503 store_unavailable', async () => {
  const { body } = await submission(a);
  for (const password of [undefined, 'not-the-password']) {
    const node = await startNode({
      SIGNING_SECRET,
      STORE: 'redis',
      REDIS_CLUSTER: cluster.seeds,
      REDIS_PREFIX: prefix,
      REDIS_COMMAND_TIMEOUT_MS: '500',
      ...(password === undefined ? {} : { REDIS_PASSWORD: password }),
    });
    try {
      expect((await fetch(node.at('/readyz'))).status).toBe(503);
      const r = await postJson(node.at('/verify'), body);
      expect(isStoreUnavailable(r)).toBe(true);
    } finally {
      await node.stop();
    }
  }
  // The challenge was never consumed by the refused nodes: it still verifies with the password.
  expect((await postJson(a.at('/verify'), body)).body.success).toBe(true);
});
