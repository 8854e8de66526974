/**
 * `Connection: close` over raw sockets (node:net), several requests in one write as a pipelining
 * client or a proxy sends them: an answer that closes the connection (the client asked, or the
 * server decided: 405, 404, 413, framing) is the last thing written on it, and nothing read after
 * it is processed. uWebSockets.js (20.30) runs every request of a read before it writes any answer,
 * and drops the connection, unwritten answers and all, when a request arrives while an answer is
 * pending: so a close answer with requests behind it in the same read is withheld until the read
 * is over, those requests drop the connection, and none of them runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricSum } from '../helpers/metricSum.js';
import { type Exchange, type WireResponse, closeHeaders, exchange, responses } from '../helpers/rawHttp.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { storeWith } from '../helpers/storeWith.js';

const request = (method: string, path: string, headers = '') => `${method} ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;
const TOKEN = 'operator-token-of-this-test';
/**
 * GET /metrics without the operator's token: a small 401 at once on every store, counted in
 * /metrics, so the count tells how many of these requests the server processed.
 */
const PROBE = request('GET', '/metrics');
const PROBE_CLOSE = request('GET', '/metrics', 'Connection: close\r\n');
/** 204 at once, not counted. */
const PREFLIGHT = request('OPTIONS', '/verify');
/** 405, on which the server closes the connection. */
const WRONG_METHOD = request('GET', '/verify');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ siteverifyAuthToken: TOKEN });
});
afterAll(async () => {
  await server.close();
});

/** PROBE requests processed so far (every thread's). */
async function processed(on: TestServer): Promise<number> {
  const text = await (await fetch(on.at('/metrics'), { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return metricSum(text, 'ariadne_http_requests_total', { route: '/metrics', status: '401' }) ?? 0;
}

interface Outcome extends Exchange {
  answers: WireResponse[];
  /** PROBE requests the server processed meanwhile. */
  processed: number;
}

/** Writes `chunks` on one connection and reads until the server closes it (or 2 s pass). */
async function send(chunks: Parameters<typeof exchange>[1], on = server): Promise<Outcome> {
  const before = await processed(on);
  const r = await exchange(on.port, chunks, 2000);
  return { ...r, answers: responses(r.text), processed: (await processed(on)) - before };
}

const summary = (answers: WireResponse[]) => answers.map((a) => `${a.status}${closeHeaders(a) > 0 ? ' close' : ''}`);

/** The rule itself, whatever was answered: no answer after one that says close. */
function expectNothingAfterClose(answers: WireResponse[]) {
  const first = answers.findIndex((a) => closeHeaders(a) > 0);
  if (first !== -1) expect(answers.length).toBe(first + 1);
}

describe('a close answer with nothing behind it in the read is answered, then the connection closes', () => {
  it('a Connection: close request alone: answered with exactly one Connection: close, then closed', async () => {
    const r = await send([PROBE_CLOSE]);
    expect(summary(r.answers)).toEqual(['401 close']);
    expect(closeHeaders(r.answers[0]!)).toBe(1);
    expect(JSON.parse(r.answers[0]!.body)).toMatchObject({ error_code: 'unauthorized' });
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(1);
  });

  it.each([
    ['Connection: close'],
    ['Connection: CLOSE'],
    ['Connection: keep-alive, close'],
    ['Connection: keep-alive\r\nConnection: close'],
    // Any five-character first value: uWebSockets.js closes after the answer whatever it says.
    ['Connection: other'],
  ])('%s: one Connection: close on the answer', async (connection) => {
    const r = await send([request('GET', '/metrics', `${connection}\r\n`)]);
    expect(r.answers.map(closeHeaders)).toEqual([1]);
    expect(r.closed).toBe(true);
  });

  it('a close request at the end of a pipeline: everything answered in order, the last with close, then closed', async () => {
    const r = await send([PREFLIGHT + PROBE + PROBE_CLOSE]);
    expect(summary(r.answers)).toEqual(['204', '401', '401 close']);
    expect(r.answers.map(closeHeaders)).toEqual([0, 0, 1]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(2);
  });

  it('a 405 at the end of a pipeline: answered in order, the 405 with close, then closed', async () => {
    const r = await send([PROBE + PREFLIGHT + WRONG_METHOD]);
    expect(summary(r.answers)).toEqual(['401', '204', '405 close']);
    expect(r.closed).toBe(true);
  });

  it('HEAD of a POST route (405): the head with one Connection: close and no body, then closed', async () => {
    const r = await exchange(server.port, [request('HEAD', '/verify')]);
    expect(r.text).toMatch(/^HTTP\/1\.1 405 /);
    expect(r.text.match(/\r\nconnection: close\r\n/gi)).toHaveLength(1);
    expect(r.text.endsWith('\r\n\r\n')).toBe(true);
    expect(r.closed).toBe(true);
  });

  it('a POST with Connection: close: its body is read though reading stops after it, whether it comes with the head, later, or not at all', async () => {
    const post = (headers: string) => request('POST', '/challenge', `Content-Type: application/json\r\nConnection: close\r\n${headers}`);
    const withBody = await send([`${post('Content-Length: 16\r\n')}{"site_key":"s"}`]);
    const bodyLater = await send([post('Content-Length: 16\r\n'), { delay: 100 }, '{"site_key":"s"}', { delay: 100 }, PROBE]);
    const noBody = await send([post('')]);
    for (const r of [withBody, bodyLater]) {
      expect(summary(r.answers)).toEqual(['200 close']);
      expect(JSON.parse(r.answers[0]!.body)).toMatchObject({ site_key: 's' });
      expect(r.closed).toBe(true);
      expect(r.processed).toBe(0);
    }
    expect(summary(noBody.answers)).toEqual(['400 close']);
    expect(noBody.closed).toBe(true);
  });

  it('an OPTIONS request to an unknown path is a 404 that keeps the connection', async () => {
    const r = await exchange(server.port, [request('OPTIONS', '/nowhere') + PROBE], 2000, (t) => responses(t).length === 2);
    expect(summary(responses(r.text))).toEqual(['404', '401']);
    expect(r.closed).toBe(false);
  });

  it('keep-alive pipelining without a close is answered in order and the connection stays open', async () => {
    const r = await exchange(server.port, [PROBE + PREFLIGHT + PROBE], 2000, (t) => responses(t).length === 3);
    expect(summary(responses(r.text))).toEqual(['401', '204', '401']);
    expect(r.closed).toBe(false);
  });
});

describe('requests read behind a close answer are neither processed nor answered', () => {
  // uWebSockets.js cannot write the answers of a read and stop before the next request of that
  // read, so the whole read goes unanswered and the connection closes: the client retries.
  it('a close request, then another (the first row of the issue)', async () => {
    const r = await send([PROBE_CLOSE + PROBE]);
    expect(summary(r.answers)).toEqual([]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(1);
  });

  it.each([
    ['at the start', [PROBE_CLOSE, PROBE, PROBE, PREFLIGHT], 1],
    ['in the middle', [PROBE, PREFLIGHT, PROBE_CLOSE, PROBE, PROBE], 2],
  ])('a close request %s of a pipeline: nothing after it runs', async (_where, pipeline, upToClose) => {
    const r = await send([pipeline.join('')]);
    expectNothingAfterClose(r.answers);
    expect(summary(r.answers)).toEqual([]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(upToClose);
  });

  it('a 405 between two requests (the second row): the request after it does not run', async () => {
    const r = await send([PROBE + WRONG_METHOD + PROBE]);
    expectNothingAfterClose(r.answers);
    expect(summary(r.answers)).toEqual([]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(1);
  });

  it('50 requests, the 25th a 405 (the third row): none of the 25 after it runs', async () => {
    const r = await send([PROBE.repeat(24) + WRONG_METHOD + PROBE.repeat(25)]);
    expectNothingAfterClose(r.answers);
    expect(summary(r.answers)).toEqual([]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(24);
  });

  it('a 404 in the middle: the request after it does not run', async () => {
    const r = await send([PROBE + request('GET', '/nowhere') + PROBE]);
    expect(summary(r.answers)).toEqual([]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(1);
  });

  it('the server answers normally afterwards', async () => {
    expect((await fetch(server.at('/healthz'))).status).toBe(200);
  });
});

describe('a close answer that waits (on the store)', () => {
  /** A server whose store takes 500 ms to say it is healthy: GET /healthz answers late. */
  let slow: TestServer;
  beforeAll(async () => {
    slow = await startTestServer(
      { siteverifyAuthToken: TOKEN },
      { store: storeWith({ health: () => new Promise((r) => setTimeout(() => r({ ok: true }), 500)) }) },
    );
  });
  afterAll(async () => {
    await slow.close();
  });

  it('bytes written after a close request while its answer waits are not read: the answer goes out, then the close', async () => {
    const r = await send([request('GET', '/healthz', 'Connection: close\r\n'), { delay: 50 }, PROBE], slow);
    expect(summary(r.answers)).toEqual(['200 close']);
    expect(JSON.parse(r.answers[0]!.body)).toMatchObject({ status: 'ok' });
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(0);
  });

  it('a 405 behind an answer that waits, in one write: the connection drops, nothing after the wait runs', async () => {
    const r = await send([request('GET', '/healthz') + WRONG_METHOD + PROBE_CLOSE], slow);
    expect(summary(r.answers)).toEqual([]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(0);
  });

  it('a close request behind an answer that waits, written later: the connection drops, the close request does not run', async () => {
    const r = await send([request('GET', '/healthz'), { delay: 50 }, PROBE_CLOSE], slow);
    expect(summary(r.answers)).toEqual([]);
    expect(r.closed).toBe(true);
    expect(r.processed).toBe(0);
  });
});
