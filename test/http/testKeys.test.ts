import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DUMMY_TOKEN } from '../../src/core/sites/testKeys.js';
import { postJson } from '../helpers/client.js';
import { type TestServer, startTestServer, withServer } from '../helpers/server.js';
import { secretOf } from '../helpers/sites.js';

/** What the widget sends for a test challenge: no trace, no proof of work, no real signature. */
const emptySubmission = (ch: any) => ({
  challenge_id: ch.id,
  site_key: ch.site_key,
  session_id: 'sess',
  events: [],
  pow_proof: { nonce: 0, hash: '' },
  public_key: 'test',
  signature: 'test',
  timestamp: 0,
});

describe('test keys (development)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ siteverifyAuthToken: 'operator-token-0123456789abcdef' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('test-always-pass: a flagged challenge with nothing to solve, then the dummy token', async () => {
    const ch = await postJson(server.at('/challenge'), { site_key: 'test-always-pass' }, { origin: 'https://anywhere.example' });
    expect(ch.status).toBe(200);
    expect(ch.body).toMatchObject({
      test: true,
      site_key: 'test-always-pass',
      pow_difficulty: 0,
      requirements: { probe: { mode: 'none' } },
    });
    const v = await postJson(server.at('/verify'), emptySubmission(ch.body));
    expect(v).toMatchObject({ status: 200, body: { success: true, token: DUMMY_TOKEN, test: true } });
  });

  it('test-always-fail: the same, then a flagged failure', async () => {
    const ch = (await postJson(server.at('/challenge'), { site_key: 'test-always-fail' })).body;
    expect(ch.test).toBe(true);
    const v = await postJson(server.at('/verify'), emptySubmission(ch));
    expect(v).toMatchObject({ status: 400, body: { success: false, score: 0, error_code: 'behavioral_rejected', test: true } });
  });

  it.each([
    ['test-secret-always-pass', { success: true, score: 1, test: true, 'error-codes': [] }],
    ['test-secret-always-fail', { success: false, error: 'invalid_token', test: true }],
    ['test-secret-already-used', { success: false, error: 'token_already_used', 'error-codes': ['token_already_used'], test: true }],
  ])('%s answers its fixed verdict for the dummy token, as a field or as the bearer', async (secret, verdict) => {
    const asField = await postJson(server.at('/siteverify'), { token: DUMMY_TOKEN, session_id: 'sess', secret });
    expect(asField).toMatchObject({ status: 200, body: verdict });
    const asBearer = await postJson(
      server.at('/siteverify'),
      { token: DUMMY_TOKEN, session_id: 'sess' },
      { authorization: `Bearer ${secret}` },
    );
    expect(asBearer.body).toEqual(asField.body);
  });

  it('the dummy token is worthless with a real secret', async () => {
    const r = await postJson(
      server.at('/siteverify'),
      { token: DUMMY_TOKEN, session_id: 'sess' },
      { authorization: 'Bearer operator-token-0123456789abcdef' },
    );
    expect(r.body).toEqual({ success: false, score: 0, error: 'invalid_token', 'error-codes': ['invalid_token'] });
  });
});

describe('test keys in production', () => {
  it('are off by default when NODE_ENV=production, on when TEST_KEYS=on (with a warning), and TEST_KEYS is checked', () => {
    const secret = 's'.repeat(40);
    const prod = loadConfig({ NODE_ENV: 'production', SIGNING_SECRET: secret });
    expect(prod.ok && prod.config.testKeys).toBe(false);
    const on = loadConfig({ NODE_ENV: 'production', SIGNING_SECRET: secret, TEST_KEYS: 'on' });
    expect(on.ok && on.config.testKeys).toBe(true);
    expect(on.ok && on.warnings.join('\n')).toContain('TEST_KEYS=on with NODE_ENV=production');
    const dev = loadConfig({ SIGNING_SECRET: secret });
    expect(dev.ok && dev.config.testKeys).toBe(true);
    const off = loadConfig({ SIGNING_SECRET: secret, TEST_KEYS: 'off' });
    expect(off.ok && off.config.testKeys).toBe(false);
    expect(loadConfig({ SIGNING_SECRET: secret, TEST_KEYS: 'maybe' })).toEqual({
      ok: false,
      error: 'Invalid configuration: TEST_KEYS: expected on or off, got "maybe"',
    });
  });

  for (const sitesFile of [undefined, { sites: { shop: { hostnames: ['shop.example'], secret: secretOf('shop') } } }]) {
    it(`refuses the test site keys and secrets ${sitesFile ? 'with' : 'without'} a sites file`, async () => {
      await withServer({ testKeys: false, siteverifyAuthToken: 'operator-token-0123456789abcdef' }, { sitesFile }, async (server) => {
        const ch = await postJson(server.at('/challenge'), { site_key: 'test-always-pass' });
        expect(ch).toMatchObject({ status: 400, body: { error_code: 'unknown_site_key', detail: 'test keys are off (TEST_KEYS)' } });
        const v = await postJson(
          server.at('/verify'),
          emptySubmission({ id: '00000000-0000-0000-0000-000000000000', site_key: 'test-always-pass' }),
        );
        expect(v).toMatchObject({ status: 400, body: { error_code: 'unknown_site_key' } });
        const sv = await postJson(server.at('/siteverify'), { token: DUMMY_TOKEN, session_id: 'sess', secret: 'test-secret-always-pass' });
        expect(sv).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
      });
    });
  }
});
