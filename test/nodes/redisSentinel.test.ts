/**
 * Two real Ariadne processes on Redis through Sentinel (a primary, two replicas, three Sentinels,
 * started once for the file): 50-way races of one challenge and of one token, and the primary
 * killed under load. Never a second redemption, never a 5xx but 503 store_unavailable; the
 * replica promoted is a new Redis process, so what was issued before is refused, not redeemed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AriadneNode } from '../helpers/ariadneNode.js';
import { postJson } from '../helpers/client.js';
import { loadPair, mintToken, raceSiteverify, raceVerify, startPair, submission } from '../helpers/nodePair.js';
import { type TestSentinels, startRedisSentinels } from '../helpers/redisSentinels.js';
import { until } from '../helpers/until.js';

let sentinels: TestSentinels;
let a: AriadneNode;
let b: AriadneNode;

beforeAll(async () => {
  sentinels = await startRedisSentinels();
  [a, b] = await startPair({ REDIS_SENTINELS: sentinels.sentinels, REDIS_SENTINEL_NAME: 'ariadne', REDIS_COMMAND_TIMEOUT_MS: '1000' });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await sentinels?.close();
});

async function bothReady(): Promise<boolean> {
  const statuses = await Promise.all([a, b].map(async (n) => (await fetch(n.at('/readyz'))).status));
  return statuses.every((s) => s === 200);
}

describe('two nodes on Redis through Sentinel', () => {
  it('50 concurrent /verify of one challenge, and of one token, over both nodes: exactly one success each (3 of each)', async () => {
    const [prepared, tokens] = await Promise.all([
      Promise.all([0, 1, 2].map((round) => submission(round % 2 ? a : b))),
      Promise.all([0, 1, 2].map((round) => mintToken(round % 2 ? a : b))),
    ]);
    for (const { body } of prepared) {
      const answers = await raceVerify(a, b, body);
      expect(answers.filter((r) => r.status === 200 && r.body.success === true)).toHaveLength(1);
      expect(answers.filter((r) => r.body.error_code === 'challenge_not_found')).toHaveLength(49);
    }
    for (const t of tokens) {
      const answers = await raceSiteverify(a, b, t);
      expect(answers.filter((r) => r.body.success === true)).toHaveLength(1);
      expect(answers.filter((r) => r.body.error === 'token_already_used')).toHaveLength(49);
    }
  });

  // A split vote of the Sentinels delays the promotion by 2 x failover-timeout (4 s with the
  // helper's 2 s; with 3 s, once in about seven runs this test missed its bounds). Two splits in a
  // row would still put the last 503 past 10 s: a second attempt kills the promoted primary and
  // asserts the same bounds again.
  it('the primary killed under load: 503s, then the promoted replica; no double redemption, service back within 10 s', {
    retry: 1,
  }, async () => {
    const killed = await sentinels.primary();
    // A token minted and redeemed before the failover stays used after it, whatever the replica received.
    const before = await mintToken(a);
    expect((await postJson(a.at('/siteverify'), { token: before.token, session_id: before.sessionId })).body.success).toBe(true);
    let faultEnd = Infinity;
    const load = loadPair(a, b, { endAt: Date.now() + 10_000, faultEnd: () => faultEnd });
    await new Promise((r) => setTimeout(r, 1_000));
    const killedAt = Date.now();
    await killed.stop('SIGKILL');
    let seenDown = false;
    await until(async () => {
      seenDown ||= (await fetch(b.at('/readyz'))).status === 503;
      return (await sentinels.primary()) !== killed;
    }, 20_000);
    const promotedAt = Date.now();
    await until(bothReady, 20_000);
    // Both nodes have opened the fences on the new primary (at their first consume or check there).
    await new Promise((r) => setTimeout(r, 1_500));
    faultEnd = Date.now();
    const report = await load;
    const lastUnavailableMs = report.unavailableAt.length === 0 ? undefined : Math.max(...report.unavailableAt) - killedAt;
    console.log(
      `sentinel failover under load: ${JSON.stringify({ verified: report.verified, redeemed: report.redeemed, unavailable: report.unavailableAt.length, lastUnavailableMs, refusedInFlight: report.refusedInFlight, promotedAfterMs: promotedAt - killedAt })}`,
    );
    expect(report.wrong, report.wrong.join('\n')).toEqual([]);
    expect(report.doubleRedemptions).toBe(0);
    expect(seenDown).toBe(true);
    expect(report.unavailableAt.length).toBeGreaterThan(0);
    expect(lastUnavailableMs!).toBeLessThan(10_000);
    expect(report.verified).toBeGreaterThan(0);
    expect((await postJson(b.at('/siteverify'), { token: before.token, session_id: before.sessionId })).body).toMatchObject({
      success: false,
      error: 'token_already_used',
    });
  });
});
