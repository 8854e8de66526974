import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../../src/client/api.js';

/** A loopback server answering each path as `answers` says: status, content type and body. */
const answers: Record<string, [number, string, string]> = {
  '/verify': [200, 'application/json', '{"success":true,"token":"t"}'],
  '/privacy-pass': [200, 'application/json', '{"success":true,"token":"pp"}'],
  '/refused': [400, 'application/json', '{"success":false,"error_code":"invalid_request"}'],
  '/dialect': [400, 'application/json', '{"success":false,"error":"token_expired"}'],
  '/unaccepted': [200, 'application/json', '{"success":false}'],
  '/html': [200, 'text/html', '<p>a proxy page</p>'],
  '/html-502': [502, 'text/html', '<p>bad gateway</p>'],
};
let server: Server;
let api: Api;
const seen: { method: string; url: string; type: string | undefined }[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, type: req.headers['content-type'] });
    const [status, type, body] = answers[new URL(req.url!, 'http://x').pathname] ?? [404, 'application/json', '{}'];
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api = new Api(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const accepted = (j: Record<string, unknown>) => j.success === true;

describe('Api', () => {
  it('posts JSON and resolves to the body the caller accepts', async () => {
    expect(await api.verify({ a: 1 })).toEqual({ ok: true, value: { success: true, token: 't' } });
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/verify', type: 'application/json' });
  });

  it("resolves to the answer's error code, in either field, else to the status", async () => {
    expect(await api.post('/refused', {}, accepted)).toEqual({ ok: false, code: 'invalid_request' });
    expect(await api.post('/dialect', {}, accepted)).toEqual({ ok: false, code: 'token_expired' });
    expect(await api.post('/unaccepted', {}, accepted)).toEqual({ ok: false, code: 'http_200' });
  });

  it('calls a 2xx that is not JSON an invalid response, and anything else not JSON by its status', async () => {
    expect(await api.post('/html', {}, accepted)).toEqual({ ok: false, code: 'invalid_response' });
    expect(await api.post('/html-502', {}, accepted)).toEqual({ ok: false, code: 'http_502' });
  });

  it('GETs /privacy-pass with the query, and answers as the other calls do', async () => {
    const q = { challenge_id: 'c', site_key: 's', session_id: 'x y' };
    expect(await api.privacyPass(q)).toEqual({ ok: true, value: { success: true, token: 'pp' } });
    expect(seen.at(-1)).toEqual({ method: 'GET', url: '/privacy-pass?challenge_id=c&site_key=s&session_id=x+y', type: undefined });
  });

  it('resolves to network when nothing comes back', async () => {
    expect(await new Api('http://127.0.0.1:1').verify({})).toEqual({ ok: false, code: 'network' });
  });
});
