import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { metricSum } from '../helpers/metricSum.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let server: TestServer;
let clock = Date.UTC(2030, 0, 1);
beforeAll(async () => {
  server = await startTestServer({ trustProxy: 1, powDifficulty: 4, powMaxDifficulty: 9, powFreePerMinute: 5 }, { now: () => clock });
});
afterAll(async () => {
  await server.close();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const challengeFrom = async (ip: string) => (await postJson(server.at('/challenge'), { site_key: 's' }, from(ip))).body;

/** pow_difficulty of each `ariadne_pow_difficulty` bucket (cumulative counts), from /metrics. */
async function difficultyHistogram(): Promise<Map<string, number>> {
  const text = await (await fetch(server.at('/metrics'))).text();
  const bounds = new Set([...text.matchAll(/^ariadne_pow_difficulty_bucket\{le="([^"]+)"/gm)].map((m) => m[1]!));
  return new Map([...bounds].map((le) => [le, metricSum(text, 'ariadne_pow_difficulty_bucket', { le })!]));
}

describe('adaptive proof of work over HTTP', () => {
  it('rises under a burst from one address, leaves other addresses alone, and falls back', async () => {
    const burst: number[] = [];
    for (let i = 0; i < 60; i++) burst.push((await challengeFrom('203.0.113.1')).pow_difficulty);
    expect(burst.slice(0, 5)).toEqual([4, 4, 4, 4, 4]);
    expect(burst[59]).toBe(8); // 60 challenges / 5 free = 12x: 4 more bits
    expect(burst.every((d, i) => i === 0 || d >= burst[i - 1]!)).toBe(true);
    expect((await challengeFrom('203.0.113.2')).pow_difficulty).toBe(4);
    expect((await challengeFrom('2001:db8::1')).pow_difficulty).toBe(4);

    clock += 3 * 60_000;
    expect((await challengeFrom('203.0.113.1')).pow_difficulty).toBe(4);
  });

  it('failed /verify calls raise it faster', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await postVerify(
        server,
        buildSubmission(server.kernel, await challengeFrom('198.51.100.7'), { pow: { nonce: 0, hash: 'x' } }),
        from('198.51.100.7'),
      );
      expect(r.body.error_code).toBe('invalid_pow');
    }
    // 4 challenges + 4 failures x 4 = 20, plus this one: 21 / 5 -> 3 bits.
    expect((await challengeFrom('198.51.100.7')).pow_difficulty).toBe(7);
  });

  it('the raised difficulty is what /verify demands, from the id alone', async () => {
    let ch = await challengeFrom('192.0.2.50');
    while (ch.pow_difficulty < 8) ch = await challengeFrom('192.0.2.50');
    // A nonce good for the floor (4 bits) but not for this challenge's 8.
    let weak: { nonce: number; hash: string } | undefined;
    for (let from = 0; weak === undefined; ) {
      const r = server.kernel.solvePow(ch.pow_challenge, 4, from, 10_000);
      if (r.nonce !== null && !server.kernel.checkPow(ch.pow_challenge, r.nonce, 8).valid) weak = { nonce: r.nonce, hash: r.hash! };
      from = r.nonce !== null ? r.nonce + 1 : r.next;
    }
    const refused = await postVerify(server, buildSubmission(server.kernel, ch, { pow: weak }), from('192.0.2.50'));
    expect(refused.body.error_code).toBe('invalid_pow');
    const honest = await challengeFrom('192.0.2.50');
    expect((await postVerify(server, buildSubmission(server.kernel, honest), from('192.0.2.50'))).body.success).toBe(true);
  });

  it('/metrics shows the distribution of issued difficulties', async () => {
    const before = await difficultyHistogram();
    await challengeFrom('192.0.2.77');
    const after = await difficultyHistogram();
    expect(after.get('4')! - (before.get('4') ?? 0)).toBe(1);
    expect(after.get('3')).toBe(0);
    expect(after.get('+Inf')).toBeGreaterThan(60);
    expect(after.get('8')).toBe(after.get('+Inf'));
    expect(after.get('7')!).toBeLessThan(after.get('8')!);
  });
});
