/**
 * Property-based fuzzing of every route of a real `npm start` process over loopback: hostile
 * bodies and headers (fast-check), tampered signatures and tokens. Never a 5xx, never a hang,
 * never an acceptance of a request the rules refuse; the valid flow still works after.
 * FUZZ_REQUESTS sets the count (`npm test`: 20,000; `npm run fuzz`: 100,000); the server's RSS is
 * reported before and after.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { SITE_KEY_PATTERN } from '../../src/core/sites/sitesFileSchema.js';
import type { Kernel } from '../../src/kernel/types.js';
import { type CliProcess, listeningUrl, runCli } from '../helpers/cliProcess.js';
import { buildSubmission, newSigner, solution, traceEvents } from '../helpers/client.js';
import { testIssuer } from '../helpers/privacyPassIssuer.js';
import { testKernel } from '../helpers/server.js';
import { type FuzzRequest, fuzzRequest, tamper } from './arbitraries.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 20_000);
/** Requests in flight at once. */
const BATCH = 16;
const PREFIX = '/api/captcha';
/** Routes whose success needs something only a valid flow has (no garbage can earn one). */
const NEVER_ACCEPTED = new Set([
  '/verify',
  '/siteverify',
  '/recaptcha/api/siteverify',
  '/turnstile/v0/siteverify',
  '/probe/arm',
  '/probe/complete',
  '/webauthn/register/verify',
  '/passkey',
]);
const SITE_KEY = new RegExp(SITE_KEY_PATTERN);

let cli: CliProcess;
let url: string;
let kernel: Kernel;
let dataDir: string;
let sent = 0;
const statusCounts = new Map<number, number>();

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-fuzz-'));
  cli = runCli({
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    SIGNING_SECRET: 'fuzz-signing-secret-0123456789abcdef0123',
    POW_DIFFICULTY: '8',
    POW_MAX_DIFFICULTY: '8',
    SCORING_MODE: 'off',
    // Limits counted (every request touches the counters) but never reached.
    RATE_LIMIT_PER_MINUTE: '10000000',
    TRUST_PROXY: '1',
    TEST_KEYS: 'off',
    WEBAUTHN_MODE: 'preferred',
    WEBAUTHN_RP_ID: 'localhost',
    WEBAUTHN_ORIGIN: 'http://localhost',
    DATA_DIR: dataDir,
    PRIVACY_PASS_ISSUERS: (await testIssuer('issuer.example')).entry,
  });
  url = await listeningUrl(cli);
  kernel = await testKernel();
}, 30_000);

afterAll(async () => {
  cli.child.kill('SIGTERM');
  await cli.exited;
  await rm(dataDir, { recursive: true, force: true });
});

/** The server's resident set and its high-water mark (from /proc), and its V8 heap in use (from /metrics), MB. */
async function memory(): Promise<{ rss: number; peak: number; heap: number }> {
  const status = await readFile(`/proc/${cli.child.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  // One series per server thread (label `thread`) when WORKERS > 1: the process's heap is their sum.
  const heap = [...metrics.matchAll(/^ariadne_nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024), heap: Math.round(heap / 2 ** 20) };
}

interface Answer {
  status: number;
  body: any;
}

async function send(r: FuzzRequest): Promise<Answer> {
  sent++;
  const res = await fetch(url + r.path, {
    method: r.method,
    headers: r.headers,
    ...(r.body === undefined ? {} : { body: r.body }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json');
  // A JSON answer that does not parse throws here, and fails the property.
  return { status: res.status, body: json && r.method !== 'OPTIONS' ? JSON.parse(text) : text };
}

const post = (route: string, body: unknown) =>
  send({ method: 'POST', path: route, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The request's JSON body, when it has one that parses to an object. */
function jsonOf(r: FuzzRequest): Record<string, unknown> | undefined {
  if (typeof r.body !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(r.body);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const wellFormedId = (v: unknown, max: number) => typeof v === 'string' && v.length >= 1 && v.length <= max && !/\p{Cs}/u.test(v);

/** What the rules forbid in this answer to `r`, or undefined. */
function violation(r: FuzzRequest, a: Answer): string | undefined {
  if (a.status >= 500) return `${a.status}`;
  if (a.status !== 200 || typeof a.body !== 'object') return undefined;
  const route = r.path.startsWith(PREFIX) ? r.path.slice(PREFIX.length) : r.path;
  // No fuzzed token is an issuer's: a success would be a forgery.
  if (route.startsWith('/privacy-pass?')) return 'accepted';
  if (r.method !== 'POST') return undefined;
  if (NEVER_ACCEPTED.has(route) && a.body.success !== false) return 'accepted';
  const sentBody = jsonOf(r);
  if (
    route === '/challenge' &&
    !(typeof sentBody?.site_key === 'string' && SITE_KEY.test(sentBody.site_key) && a.body.site_key === sentBody.site_key)
  ) {
    return 'challenge for a site key outside the rules';
  }
  if (
    route === '/webauthn/register/options' &&
    !(typeof sentBody?.site_key === 'string' && SITE_KEY.test(sentBody.site_key) && wellFormedId(sentBody.stable_id, 256))
  ) {
    return 'registration for identifiers outside the rules';
  }
  return undefined;
}

/** A challenge and a /verify body that passes every check (the trace fits the time since issue). */
async function validSubmission(sessionId: string): Promise<{ ch: Challenge; body: Record<string, unknown> }> {
  const ch = (await post('/challenge', { site_key: 'fuzz-site' })).body as Challenge;
  const events = traceEvents(ch, solution(kernel, ch), { stepMs: 1 });
  return { ch, body: buildSubmission(kernel, ch, { sessionId, events }) };
}

async function validToken(sessionId: string): Promise<string> {
  const { body } = await validSubmission(sessionId);
  const v = await post('/verify', body);
  expect(v.body).toMatchObject({ success: true });
  return v.body.token as string;
}

describe(`fuzzing every route (${REQUESTS} requests)`, { timeout: 30 * 60_000 }, () => {
  it('never a 5xx, a hang or an acceptance the rules refuse; tampered signatures and tokens refused; the valid flow works after', async () => {
    // Warm up (the first requests compile code paths), then measure.
    await validToken('warm-up');
    const before = await memory();
    const started = Date.now();

    const tampered = Math.max(50, Math.round(REQUESTS / 200));
    for (let i = 0; i < tampered; i++) {
      const { body } = await validSubmission(`tamper-${i}`);
      const breakOne: Record<string, unknown>[] = [
        { signature: tamper(body.signature as string, i) },
        { public_key: newSigner().publicKey },
        { challenge_id: tamper(body.challenge_id as string, i) },
        { site_key: 'fuzz-other' },
      ];
      const r = await post('/verify', { ...body, ...breakOne[i % breakOne.length] });
      expect(r.status, JSON.stringify(breakOne[i % breakOne.length])).toBeLessThan(500);
      expect(r.body.success).toBe(false);
    }
    for (let i = 0; i < tampered / 5; i++) {
      const sessionId = `token-${i}`;
      const token = await validToken(sessionId);
      const [header, payload, mac] = token.split('.') as [string, string, string];
      for (const forged of [
        tamper(token, i),
        tamper(token, token.length - 1 - i),
        `${header}.${payload}.${tamper(mac, i)}`,
        `${header}.${tamper(payload, i)}.${mac}`,
        token.slice(0, -1),
        `${token}A`,
        `${payload}.${header}.${mac}`,
      ]) {
        const r = await post('/siteverify', { token: forged, session_id: sessionId });
        expect(r.status).toBeLessThan(500);
        expect(r.body.success, forged).toBe(false);
        const compat = await post(i % 2 === 0 ? '/recaptcha/api/siteverify' : '/turnstile/v0/siteverify', {
          secret: 'any',
          response: forged,
        });
        expect(compat).toEqual({ status: 200, body: { success: false, 'error-codes': ['invalid-input-response'], score: 0 } });
      }
      expect((await post('/siteverify', { token, session_id: sessionId })).body.success).toBe(true);
      expect((await post('/siteverify', { token, session_id: sessionId })).body).toMatchObject({
        success: false,
        error: 'token_already_used',
      });
    }

    const remaining = Math.max(0, REQUESTS - sent);
    const run = await fc.check(
      fc.asyncProperty(fc.array(fuzzRequest, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const answers = await Promise.all(batch.map(send));
        for (let i = 0; i < batch.length; i++) {
          const v = violation(batch[i]!, answers[i]!);
          if (v !== undefined)
            throw new Error(
              `${v}: ${batch[i]!.method} ${batch[i]!.path} ${String(batch[i]!.body).slice(0, 300)} -> ${answers[i]!.status} ${JSON.stringify(answers[i]!.body).slice(0, 300)}`,
            );
        }
      }),
      { numRuns: Math.ceil(remaining / BATCH), seed: Number(process.env.FUZZ_SEED ?? 20261125), endOnFailure: true },
    );
    // The violation names the request (cut short): fast-check's own report would print every
    // hostile value of the batch.
    if (run.failed) throw new Error(`after ${run.numRuns} batches (seed ${run.seed}): ${String(run.errorInstance)}`);

    // The valid flow still works, from challenge to redemption.
    const token = await validToken('after');
    expect((await post('/siteverify', { token, session_id: 'after' })).body).toMatchObject({ success: true });
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(cli.child.exitCode).toBeNull();

    const after = await memory();
    const statuses = [...statusCounts]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    console.log(
      `fuzz: ${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ` +
        `${[...statusCounts].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0)} 5xx; statuses ${statuses}; ` +
        `server RSS ${before.rss} MB before, ${after.rss} MB after, peak ${after.peak} MB; V8 heap in use ${before.heap} MB before, ${after.heap} MB after`,
    );
  });
});
