/**
 * deploy/nginx.conf in front of `npm start` (TRUST_PROXY=1), both real processes on loopback:
 * every framing shape gets a 4xx from the proxy or a correct answer (never a 5xx, never nothing),
 * including those uWebSockets.js alone drops unanswered; the client address nginx saw reaches
 * the rate limits; the normal flow works through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type CliProcess, listeningUrl, runCli } from '../helpers/cliProcess.js';
import { buildSubmission, postJson, solution, traceEvents } from '../helpers/client.js';
import { freePort } from '../helpers/freePort.js';
import { type NginxFront, findNginx, startNginxFront } from '../helpers/nginxFront.js';
import { type Exchange, exchange, hasFirstResponse, statuses } from '../helpers/rawHttp.js';
import { testKernel } from '../helpers/server.js';
import { MINUTE_MS, clearOfTurn } from '../helpers/clockWindows.js';

const BODY = '{"site_key":"s"}';
const SMUGGLED = 'POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n{"site_key":"z"}';
const post = (headers: string, body: string) =>
  `POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
const chunk = (body: string, extension = '') => `${body.length.toString(16)}${extension}\r\n${body}\r\n0\r\n\r\n`;
/** /verify bodies that pass the schema and fail at the challenge id (after the rate limit). */
const VERIFY = JSON.stringify({
  challenge_id: 'c',
  site_key: 's',
  session_id: 'x',
  events: [],
  pow_proof: { nonce: 0, hash: '' },
  public_key: 'k',
  signature: 's',
  timestamp: 0,
});
const postVerify = (xff: string) =>
  `POST /verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Forwarded-For: ${xff}\r\nContent-Length: ${VERIFY.length}\r\n\r\n${VERIFY}`;

describe.skipIf(!findNginx())('deploy/nginx.conf in front of Ariadne', { timeout: 60_000 }, () => {
  let ariadne: CliProcess;
  let nginx: NginxFront;
  let url: string;

  beforeAll(async () => {
    const upstream = await freePort();
    ariadne = runCli({
      HOST: '127.0.0.1',
      PORT: String(upstream),
      LOG_LEVEL: 'info',
      TRUST_PROXY: '1',
      // /verify: 2 a minute per client address (the other routes 20).
      RATE_LIMIT_PER_MINUTE: '2',
      POW_DIFFICULTY: '8',
      POW_MAX_DIFFICULTY: '8',
      SCORING_MODE: 'off',
    });
    await listeningUrl(ariadne);
    nginx = await startNginxFront(upstream);
    url = `http://127.0.0.1:${nginx.port}`;
  }, 60_000);

  afterAll(async () => {
    await nginx?.stop();
    ariadne?.child.kill('SIGTERM');
    await ariadne?.exited;
  });

  /** Sends `chunks` through nginx (from the loopback address `from`) and reads the first answer. */
  const through = (chunks: string[], from?: string): Promise<Exchange> => exchange(nginx.port, chunks, 3000, hasFirstResponse, from);

  it.each([
    ['two equal Content-Length headers', post('Content-Length: 16\r\nContent-Length: 16\r\n', BODY)],
    [
      'two different Content-Length headers, a request smuggled after',
      post(`Content-Length: 16\r\nContent-Length: ${16 + SMUGGLED.length}\r\n`, BODY + SMUGGLED),
    ],
    [
      'Content-Length with Transfer-Encoding, a request smuggled after',
      post('Content-Length: 16\r\nTransfer-Encoding: chunked\r\n', chunk(BODY) + SMUGGLED),
    ],
    ['Transfer-Encoding: identity', post('Transfer-Encoding: identity\r\n', chunk(BODY) + SMUGGLED)],
    ['Transfer-Encoding: xchunked', post('Transfer-Encoding: xchunked\r\n', chunk(BODY))],
    ['Transfer-Encoding: gzip, chunked', post('Transfer-Encoding: gzip, chunked\r\n', chunk(BODY))],
    ['an unknown method (PROPFIND)', 'PROPFIND /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['PUT', 'PUT /verify HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'],
    ['a header line over 8 KiB', `GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(9000)}\r\n\r\n`],
    ['a body over MAX_BODY_BYTES', post('Content-Length: 300000\r\n', ' '.repeat(300_000))],
  ])('%s: a 4xx from the proxy, nothing smuggled answered', async (_name, request) => {
    const r = await through([request]);
    const got = statuses(r.text);
    expect(got.length).toBeGreaterThan(0);
    for (const s of got) expect(s).toBeGreaterThanOrEqual(400);
    for (const s of got) expect(s).toBeLessThan(500);
    expect(r.text).not.toContain('"site_key":"z"');
  });

  it.each([
    [
      'more header lines than uWebSockets.js takes',
      `GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 80 }, (_, i) => `x-${i}: y\r\n`).join('')}\r\n`,
      '"status":"ok"',
    ],
    ['HTTP/1.0 without Host', 'GET /healthz HTTP/1.0\r\n\r\n', '"status":"ok"'],
    ['bare LF line ends', 'GET /healthz HTTP/1.1\nHost: x\n\n', '"status":"ok"'],
    ['a chunk extension', post('Transfer-Encoding: chunked\r\n', chunk(BODY, ';ext=1')), '"maze_seed"'],
    [
      'Content-Type in capitals on /siteverify',
      'POST /siteverify HTTP/1.1\r\nHost: x\r\nContent-Type: Application/X-WWW-Form-Urlencoded\r\nContent-Length: 7\r\n\r\ntoken=a',
      '"missing_input"',
    ],
  ])('%s: answered correctly through the proxy (uWebSockets.js alone drops or misreads it)', async (_name, request, expected) => {
    const r = await through([request]);
    expect(statuses(r.text)).toHaveLength(1);
    expect(statuses(r.text)[0]).toBeLessThan(500);
    expect(r.text).toContain(expected);
  });

  it('pipelined requests are all answered, in order (nginx queues them; Ariadne alone may close)', async () => {
    const pipelined =
      post('Content-Length: 16\r\n', BODY) + 'GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n' + post('Content-Length: 16\r\n', '{"site_key":"t"}');
    const r = await exchange(nginx.port, [pipelined], 3000, (t) => statuses(t).length === 3 && t.includes('"site_key":"t"'));
    expect(statuses(r.text)).toEqual([200, 200, 200]);
    expect(r.text.indexOf('"site_key":"s"')).toBeLessThan(r.text.indexOf('"ready"'));
    expect(r.text.indexOf('"ready"')).toBeLessThan(r.text.indexOf('"site_key":"t"'));
  });

  it('pipelined behind answers on which Ariadne closes (404, 405): every request answered, in order (nginx reconnects)', async () => {
    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const r = await exchange(nginx.port, [get('/nowhere') + get('/verify') + get('/readyz')], 3000, (t) => t.includes('"ready"'));
    expect(statuses(r.text)).toEqual([404, 405, 200]);
  });

  it('HEAD: the headers of GET, no body', async () => {
    const r = await exchange(nginx.port, ['HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n', { delay: 300 }], 600);
    expect(statuses(r.text)).toEqual([200]);
    expect(r.text).toMatch(/\r\ncontent-length: 35\r\n/i);
    expect(r.text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('the address nginx saw reaches the rate limits; an X-Forwarded-For the client writes does not', async () => {
    // The window is the clock's minute: do not start right before it turns.
    await clearOfTurn(MINUTE_MS, 10_000);
    // 127.0.0.4 spends its 2 /verify a minute, each time claiming another address.
    const fromA = [];
    for (const claimed of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      fromA.push(statuses((await through([postVerify(claimed)], '127.0.0.4')).text)[0]);
    }
    expect(fromA).toEqual([400, 400, 429]);
    // Another client address is counted on its own.
    expect(statuses((await through([postVerify('198.51.100.3')], '127.0.0.5')).text)[0]).toBe(400);
  });

  it('the normal flow works through the proxy: challenge, verify, siteverify once', async () => {
    const kernel = await testKernel();
    const ch = (await postJson(`${url}/api/captcha/challenge`, { site_key: 'through-nginx' })).body as Challenge;
    const body = buildSubmission(kernel, ch, { sessionId: 'via-nginx', events: traceEvents(ch, solution(kernel, ch), { stepMs: 1 }) });
    const v = await postJson(`${url}/api/captcha/verify`, body);
    expect(v.body).toMatchObject({ success: true });
    const redeem = () => postJson(`${url}/siteverify`, { token: v.body.token, session_id: 'via-nginx' });
    expect((await redeem()).body).toMatchObject({ success: true, site_key: 'through-nginx' });
    expect((await redeem()).body).toMatchObject({ success: false, error: 'token_already_used' });
  });
});
