import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsumeResult } from '../../src/store/Store.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

/** The embedded store, counting what each token's `consume` answered. */
class CountingStore extends MemoryStore {
  readonly answers: ConsumeResult[] = [];
  override async consume(...args: Parameters<MemoryStore['consume']>): Promise<ConsumeResult> {
    const r = await super.consume(...args);
    if (args[0].startsWith('token:')) this.answers.push(r);
    return r;
  }
}

const store = new CountingStore({ maxMarkers: 10_000, maxCounters: 10_000 });
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { store });
});
afterAll(async () => {
  await server.close();
  await store.close();
});

async function token(sessionId = 'sess'): Promise<string> {
  const ch = (await postJson(server.at('/challenge'), { site_key: 'site-i' })).body;
  const r = await postVerify(server, buildSubmission(server.kernel, ch, { sessionId }));
  expect(r.body.success).toBe(true);
  return r.body.token;
}

const redeem = (body: Record<string, unknown>) => postJson(server.at('/siteverify'), body);

describe('/siteverify idempotency_key', () => {
  it('the same token with the same key returns the first answer again; another key, or none, fails', async () => {
    const t = await token();
    const first = await redeem({ token: t, session_id: 'sess', idempotency_key: 'retry-1' });
    expect(first.body).toMatchObject({ success: true, site_key: 'site-i' });
    const again = await redeem({ token: t, session_id: 'sess', idempotency_key: 'retry-1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await redeem({ token: t, session_id: 'sess', idempotency_key: 'retry-2' })).body).toEqual({
      success: false,
      score: 0,
      error: 'token_already_used',
      'error-codes': ['token_already_used'],
    });
    expect((await redeem({ token: t, session_id: 'sess' })).body.error).toBe('token_already_used');
    // A retry with the key does not skip the other checks.
    expect((await redeem({ token: t, session_id: 'other', idempotency_key: 'retry-1' })).body.error).toBe('session_mismatch');
  });

  it('accepts it form-encoded too', async () => {
    const t = await token();
    const form = (key: string) =>
      fetch(server.at('/siteverify'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: t, session_id: 'sess', idempotency_key: key }).toString(),
      }).then((r) => r.json());
    const first = await form('f-1');
    expect(first.success).toBe(true);
    expect(await form('f-1')).toEqual(first);
  });

  it('50 concurrent calls with one key: 50 identical answers, one redemption', async () => {
    const t = await token();
    const before = store.answers.length;
    const all = await Promise.all(Array.from({ length: 50 }, () => redeem({ token: t, session_id: 'sess', idempotency_key: 'burst' })));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(new Set(all.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(all[0]!.body.success).toBe(true);
    const answers = store.answers.slice(before);
    expect(answers.filter((a) => a === 'fresh')).toHaveLength(1);
    expect(answers.filter((a) => a === 'again')).toHaveLength(49);
  });

  it('50 concurrent calls with 50 different keys: exactly one success', async () => {
    const t = await token();
    const all = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem({ token: t, session_id: 'sess', idempotency_key: `k-${i}` })),
    );
    expect(all.filter((r) => r.body.success === true)).toHaveLength(1);
    expect(all.filter((r) => r.body.error === 'token_already_used')).toHaveLength(49);
  });

  it.each([
    ['65 characters', 'k'.repeat(65)],
    ['a space', 'a b'],
    ['empty', ''],
    ['a slash', 'a/b'],
  ])('refuses a key of %s with 400 invalid_request, and the token survives', async (_what, key) => {
    const t = await token();
    const r = await redeem({ token: t, session_id: 'sess', idempotency_key: key });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: 'invalid_request' });
    expect(r.body.detail).toMatch(/^idempotency_key: /);
    expect((await redeem({ token: t, session_id: 'sess', idempotency_key: 'k'.repeat(64) })).body.success).toBe(true);
  });
});
