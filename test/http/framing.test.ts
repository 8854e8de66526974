/**
 * HTTP framing over raw sockets (node:net): what uWebSockets.js leaves to the application. Every
 * refusal is a 400 `invalid_framing` followed by a close, and nothing after it on the
 * connection is answered (no smuggled request runs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, statuses } from '../helpers/rawHttp.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const BODY = '{"site_key":"s"}';
const SMUGGLED = 'POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Length: 16\r\n\r\n{"site_key":"z"}';
const post = (headers: string, body: string) => `POST /challenge HTTP/1.1\r\nHost: x\r\n${headers}\r\n${body}`;
const chunked = (body: string) => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
const get = (path: string, headers = '') => `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`;

function expectRefusedAndClosed(r: Awaited<ReturnType<typeof exchange>>, detail: string) {
  expect(r.closed).toBe(true);
  expect(statuses(r.text)).toEqual([400]);
  expect(r.text).toContain(`{"success":false,"error_code":"invalid_framing","detail":"${detail}"}`);
}

function expectNothingAnsweredAfter(r: Awaited<ReturnType<typeof exchange>>) {
  expect(r.closed).toBe(true);
  // A smuggled request was never run: at most the refusal, never a challenge.
  expect(statuses(r.text).filter((s) => s !== 400)).toEqual([]);
  expect(r.text).not.toContain('"site_key":"z"');
}

describe('framing refused with 400 invalid_framing, then the connection closed', () => {
  it.each([
    ['two equal Content-Length headers', 'Content-Length: 16\r\nContent-Length: 16\r\n', BODY, 'more than one Content-Length header'],
    [
      'two different Content-Length headers',
      'Content-Length: 16\r\nContent-Length: 17\r\n',
      `${BODY} `,
      'more than one Content-Length header',
    ],
    ['Transfer-Encoding: identity', 'Transfer-Encoding: identity\r\n', chunked(BODY), 'a Transfer-Encoding other than chunked'],
    ['Transfer-Encoding: xchunked', 'Transfer-Encoding: xchunked\r\n', chunked(BODY), 'a Transfer-Encoding other than chunked'],
    ['Transfer-Encoding: chunkedx', 'Transfer-Encoding: chunkedx\r\n', chunked(BODY), 'a Transfer-Encoding other than chunked'],
    ['Transfer-Encoding: gzip, chunked', 'Transfer-Encoding: gzip, chunked\r\n', chunked(BODY), 'a Transfer-Encoding other than chunked'],
    [
      'two Transfer-Encoding headers',
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n',
      chunked(BODY),
      'more than one Transfer-Encoding header',
    ],
  ])('%s', async (_name, headers, body, detail) => {
    expectRefusedAndClosed(await exchange(server.port, [post(headers, body)]), detail);
  });

  it('a request smuggled behind two Content-Length headers is never answered', async () => {
    // uWS reads the first length (16): without the check, the rest ran as a second request.
    const r = await exchange(server.port, [post(`Content-Length: 16\r\nContent-Length: ${16 + SMUGGLED.length}\r\n`, BODY + SMUGGLED)]);
    expectNothingAnsweredAfter(r);
  });

  it('a request smuggled behind Transfer-Encoding: identity is never answered', async () => {
    const r = await exchange(server.port, [post('Transfer-Encoding: identity\r\n', chunked(BODY) + SMUGGLED)]);
    expectNothingAnsweredAfter(r);
  });

  it('a request sent after the refusal, on the same connection, is never answered', async () => {
    const r = await exchange(server.port, [post('Transfer-Encoding: identity\r\n', chunked(BODY)), { delay: 200 }, SMUGGLED]);
    expectRefusedAndClosed(r, 'a Transfer-Encoding other than chunked');
  });

  it('Content-Length with Transfer-Encoding is never answered 200 (the parser drops it), and the connection closes', async () => {
    const r = await exchange(server.port, [post('Content-Length: 16\r\nTransfer-Encoding: chunked\r\n', BODY + SMUGGLED)]);
    expectNothingAnsweredAfter(r);
  });

  it('plain chunked (any case) and a single Content-Length are served', async () => {
    for (const headers of ['Transfer-Encoding: chunked\r\n', 'Transfer-Encoding: Chunked\r\n']) {
      const r = await exchange(server.port, [post(headers, chunked(BODY))], 1000, (t) => t.includes('}}}'));
      expect(statuses(r.text)).toEqual([200]);
    }
    const r = await exchange(server.port, [post('Content-Length: 16\r\n', BODY)], 1000, (t) => t.includes('}}}'));
    expect(statuses(r.text)).toEqual([200]);
  });
});

describe('HEAD, methods, pipelining, Connection: close', () => {
  it('HEAD answers the headers of GET, its Content-Length included, without a body; the connection stays usable', async () => {
    const body = await (await fetch(server.at('/healthz'))).text();
    const r = await exchange(server.port, [`HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n`, { delay: 100 }, get('/readyz')], 1500, (t) =>
      t.includes('{"status":"ready"}'),
    );
    const [head, rest] = [r.text.slice(0, r.text.indexOf('\r\n\r\n') + 4), r.text.slice(r.text.indexOf('\r\n\r\n') + 4)];
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(new RegExp(`content-length: ${Buffer.byteLength(body)}\r\n`, 'i'));
    expect(head).toMatch(/content-type: application\/json/);
    // The next thing on the wire is the next answer, not a body.
    expect(rest).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(statuses(r.text)).toEqual([200, 200]);
  });

  it("HEAD with Connection: close: the GET answer's headers and length, no body, then the connection closes", async () => {
    const body = await (await fetch(server.at('/healthz'))).text();
    const r = await exchange(server.port, ['HEAD /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], 1000);
    expect(r.closed).toBe(true);
    expect(statuses(r.text)).toEqual([200]);
    expect(r.text).toMatch(new RegExp(`\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`, 'i'));
    expect(r.text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('HEAD of a POST route is 405 with Allow, without a body', async () => {
    const r = await exchange(server.port, ['HEAD /verify HTTP/1.1\r\nHost: x\r\n\r\n'], 500);
    expect(statuses(r.text)).toEqual([405]);
    expect(r.text).toMatch(/allow: POST, OPTIONS\r\n/i);
    expect(r.text.endsWith('\r\n\r\n')).toBe(true);
  });

  it.each(['PUT', 'DELETE', 'PATCH'])('%s on /verify is 405 method_not_allowed with Allow', async (method) => {
    const r = await exchange(server.port, [`${method} /verify HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`]);
    expect(statuses(r.text)).toEqual([405]);
    expect(r.text).toMatch(/allow: POST, OPTIONS\r\n/i);
    expect(r.text).toContain('"error_code":"method_not_allowed"');
    expect(r.closed).toBe(true);
  });

  it('pipelined requests answered at once are answered in order on one connection', async () => {
    const options = (path: string) => `OPTIONS ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const r = await exchange(
      server.port,
      [options('/verify') + get('/openapi.json') + options('/challenge')],
      2000,
      (t) => statuses(t).length === 3,
    );
    expect(statuses(r.text)).toEqual([204, 200, 204]);
    expect(r.text.indexOf('"openapi"')).toBeGreaterThan(r.text.indexOf('204 No Content'));
    expect(r.closed).toBe(false);
  });

  it('pipelined requests are answered in order; behind an answer that waits on the store, the connection closes instead', async () => {
    // uWebSockets.js drops a connection on which a request arrives while the previous answer is
    // still pending (a Redis round trip); answers that complete at once go out in order.
    const r = await exchange(server.port, [post('Content-Length: 16\r\n', BODY) + SMUGGLED + get('/readyz')], 2000, (t) =>
      t.includes('"ready"'),
    );
    const answers = [...r.text.matchAll(/"site_key":"(s|z)"|"status":"ready"/g)].map((m) => m[1] ?? 'ready');
    expect(['s', 'z', 'ready'].slice(0, answers.length)).toEqual(answers);
    if (answers.length < 3) expect(r.closed).toBe(true);
    expect(statuses(r.text)).toEqual(answers.map(() => 200));
  });

  it('the answer to Connection: close closes the connection; a request sent after it is not answered', async () => {
    const r = await exchange(server.port, [post('Connection: close\r\nContent-Length: 16\r\n', BODY), { delay: 200 }, get('/healthz')]);
    expect(r.closed).toBe(true);
    expect(statuses(r.text)).toEqual([200]);
    expect(r.text).not.toContain('"store"');
  });

  it('close in a second Connection header, or in a list, closes too', async () => {
    for (const headers of ['Connection: keep-alive\r\nConnection: close\r\n', 'Connection: TE, Close\r\n']) {
      const r = await exchange(server.port, [post(`${headers}Content-Length: 16\r\n`, BODY), { delay: 200 }, get('/healthz')]);
      expect(r.closed).toBe(true);
      expect(statuses(r.text)).toEqual([200]);
      expect(r.text).not.toContain('"store"');
    }
  });

  it('requests pipelined behind Connection: close are not answered', async () => {
    for (const first of [
      get('/healthz', 'Connection: close\r\n'),
      get('/nowhere', 'Connection: close\r\n'),
      post('Connection: close\r\nContent-Length: 16\r\n', BODY),
    ]) {
      const r = await exchange(server.port, [first + get('/readyz') + SMUGGLED]);
      expect(r.closed).toBe(true);
      expect(r.text).not.toContain('"ready"');
      expect(r.text).not.toContain('"site_key":"z"');
      expect(statuses(r.text).length).toBeLessThanOrEqual(1);
    }
  });

  it('the server serves normally after all of the above', async () => {
    expect((await fetch(server.at('/healthz'))).status).toBe(200);
  });
});
