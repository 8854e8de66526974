// The keyboard door over HTTP: the door a challenge announces, the surge's proof of work and strict
// model bound into the challenge, `method` on the tokens, a surge's beginning and end, and the
// per-client budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import type { RawEvent } from '../../src/kernel/types.js';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { personFor, scriptFor } from '../helpers/keyboardSolvesFor.js';
import { type TestServer, startTestServer, testKernel } from '../helpers/server.js';
import { secretOf } from '../helpers/sites.js';
import { until } from '../helpers/until.js';
import { clockFromHourStart } from '../helpers/clockWindows.js';

const site = (name: string, keyboard: Record<string, unknown>) => ({
  hostnames: ['shop.example'],
  secret: secretOf(name),
  policy: { keyboard },
});
const sitesFile = {
  sites: {
    pinned: site('pinned', { door: 'surge' }),
    strict: site('strict', { door: 'strict' }),
    auto: site('auto', { floor_per_minute: 1, client_per_hour: 0 }),
    budgeted: site('budgeted', { floor_per_minute: 1000, client_per_hour: 2 }),
  },
};
const ORIGIN = { origin: 'https://shop.example' };
/** The budget's minute, compressed (KEYBOARD_BUDGET_MINUTE_MS) so that its timer reads the store every half second. */
const MINUTE = 6_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    { scoring: defaultConfig().scoring, trustProxy: 1, powFreePerMinute: 1_000_000, keyboardBudgetMinuteMs: MINUTE },
    { sitesFile },
  );
});
afterAll(async () => {
  await server.close();
});

async function challenge(siteKey: string): Promise<Challenge> {
  const r = await postJson(server.at('/challenge'), { site_key: siteKey }, ORIGIN);
  expect(r.status).toBe(200);
  return r.body as Challenge;
}

/** Long enough for every serving thread to read the store's counts twice (twelve reads a budget minute). */
const readsOfTheStore = () => new Promise((r) => setTimeout(r, MINUTE / 6));

let sessions = 0;
/** The first nonce of `ch` with at least `min` and fewer than `below` leading zero bits. */
async function nonceWithBits(ch: Challenge, min: number, below = 257): Promise<{ nonce: number; hash: string }> {
  const kernel = await testKernel();
  for (let from = 0; ; ) {
    const r = kernel.solvePow(ch.pow_challenge, min, from, 1 << 20);
    if (r.nonce === null) {
      from = r.next;
      continue;
    }
    if (kernel.checkPow(ch.pow_challenge, r.nonce, 0).leadingZeroBits < below) return { nonce: r.nonce, hash: r.hash! };
    from = r.nonce + 1;
  }
}

/**
 * /verify with a proof of work of `bits` leading zero bits, at least and (with `bitsBelow`) fewer
 * than that (default: what the challenge asks of a keyboard solve), then /siteverify.
 */
async function solve(
  ch: Challenge,
  events: RawEvent[],
  opts: { bits?: number; bitsBelow?: number; address?: string; noAdvance?: boolean } = {},
) {
  const kernel = await testKernel();
  const pow = await nonceWithBits(ch, opts.bits ?? ch.pow_difficulty_keyboard, opts.bitsBelow);
  const sessionId = `kb-budget-${++sessions}`;
  const body = buildSubmission(kernel, ch, { events, sessionId, pow });
  const headers = { ...ORIGIN, ...(opts.address ? { 'x-forwarded-for': opts.address } : {}) };
  const v = opts.noAdvance ? await postJson(server.at('/verify'), body, headers) : await postVerify(server, body, headers);
  if (v.body.success !== true) return { verify: v.body, siteverify: undefined, claims: undefined };
  const claims = JSON.parse(Buffer.from(String(v.body.token).split('.')[1]!, 'base64url').toString());
  const s = await postJson(
    server.at('/siteverify'),
    { token: v.body.token, session_id: sessionId },
    { authorization: `Bearer ${secretOf(ch.site_key)}` },
  );
  return { verify: v.body, siteverify: s.body, claims };
}

describe('a site pinned to surge', () => {
  it('announces it, asks 3 more keyboard bits, and scores keyboard solves by the strict model', async () => {
    const ch = await challenge('pinned');
    expect(ch).toMatchObject({ keyboard_door: 'surge', pow_difficulty: 8, pow_difficulty_keyboard: 8 + 3 + 3 });
    const person = await personFor(ch);
    expect((await solve(ch, person, { bits: 11, bitsBelow: 14 })).verify).toMatchObject({
      error_code: 'invalid_pow',
      detail: 'a keyboard solve needs 14 leading zero bits',
    });
    const ch2 = await challenge('pinned');
    const ok = await solve(ch2, await personFor(ch2));
    expect(ok.claims).toMatchObject({ input_type: 'keyboard', method: 'keyboard_strict' });
    expect(ok.siteverify).toMatchObject({ success: true, method: 'keyboard_strict' });
    const ch3 = await challenge('pinned');
    expect((await solve(ch3, await scriptFor(ch3))).verify).toMatchObject({ success: false, error_code: 'behavioral_rejected' });
  });
});

describe('a site pinned to strict', () => {
  it('announces it, asks the usual keyboard bits, and its keyboard tokens say keyboard_strict', async () => {
    const ch = await challenge('strict');
    expect(ch).toMatchObject({ keyboard_door: 'strict', pow_difficulty_keyboard: 8 + 3 });
    const ok = await solve(ch, await personFor(ch));
    expect(ok.siteverify).toMatchObject({ success: true, input_type: 'keyboard', method: 'keyboard_strict' });
  });
});

describe('a site on auto', () => {
  it('people first, then a surge once its keyboard tokens pass the budget, then people first a few minutes after', async () => {
    const early = await challenge('auto');
    const ch = await challenge('auto');
    expect(ch).toMatchObject({ keyboard_door: 'people_first', pow_difficulty_keyboard: 11 });
    const first = await solve(ch, await scriptFor(ch));
    expect(first.siteverify).toMatchObject({ success: true, method: 'keyboard' });
    // Floor 1 a minute: a surge above 3 keyboard tokens in the last minute (and a share above 0.15).
    // Two minutes on, the first solve is out of that minute: the fourth of these makes the surge.
    server.advance(2 * MINUTE);
    const more = await Promise.all([1, 2, 3, 4].map(() => challenge('auto')));
    const events = [];
    for (const c of more) events.push(await scriptFor(c));
    server.advance(Math.max(...events.map((e) => e[e.length - 1]!.t - e[0]!.t)));
    const answers = [];
    for (let i = 0; i < more.length; i++) answers.push(await solve(more[i]!, events[i]!, { noAdvance: true }));
    expect(answers.map((a) => a.verify.error_code ?? a.siteverify?.method)).toEqual(['keyboard', 'keyboard', 'keyboard', 'keyboard']);
    // The serving thread that counted knows at once; another (WORKERS=2) at its next read of the store.
    await until(async () => (await challenge('auto')).keyboard_door === 'surge');
    await readsOfTheStore();
    const inSurge = await challenge('auto');
    expect(inSurge).toMatchObject({ keyboard_door: 'surge', pow_difficulty_keyboard: 14 });
    // A challenge issued before the surge is judged by the strict model during it.
    expect((await solve(early, await scriptFor(early))).verify).toMatchObject({ success: false, error_code: 'behavioral_rejected' });
    // A minute on the last minute's counts are gone; once calm has held two minutes the door opens.
    server.advance(MINUTE + 1);
    await readsOfTheStore();
    expect((await challenge('auto')).keyboard_door).toBe('surge');
    server.advance(2 * MINUTE);
    await until(async () => (await challenge('auto')).keyboard_door === 'people_first');
    await readsOfTheStore();
    // A challenge issued in the surge keeps the surge's proof of work and the strict model after it.
    const person = await personFor(inSurge);
    expect((await solve(inSurge, person, { bits: 11, bitsBelow: 14 })).verify).toMatchObject({ success: false, error_code: 'invalid_pow' });
    const later = await challenge('auto');
    expect((await solve(later, await personFor(later))).siteverify).toMatchObject({ success: true, method: 'keyboard' });
  });
});

describe('the per-client budget', () => {
  // Its hour is 60 of the budget's minutes, at full length here, and starts with the server's clock.
  let compressed: TestServer;
  beforeAll(async () => {
    compressed = server;
    server = await startTestServer(
      { scoring: defaultConfig().scoring, trustProxy: 1, powFreePerMinute: 1_000_000 },
      { sitesFile, now: clockFromHourStart() },
    );
  });
  afterAll(async () => {
    await server.close();
    server = compressed;
  });

  it('client_per_hour keyboard tokens, then that client is scored strictly; another client is not', async () => {
    const methods = [];
    for (let i = 0; i < 3; i++) {
      const ch = await challenge('budgeted');
      methods.push((await solve(ch, await personFor(ch), { address: '198.51.100.20' })).siteverify?.method);
    }
    expect(methods).toEqual(['keyboard', 'keyboard', 'keyboard_strict']);
    const other = await challenge('budgeted');
    expect((await solve(other, await personFor(other), { address: '198.51.100.21' })).siteverify?.method).toBe('keyboard');
  });
});
