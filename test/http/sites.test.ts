import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmission, postJson, postVerify, solution, traceEvents } from '../helpers/client.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { secretOf, sitesSnapshot } from '../helpers/sites.js';

const OPERATOR = 'operator-token-0123456789abcdef';
const SHOP = 'https://shop.example';
const BLOG = 'https://www.blog.example';

const sitesFile = (shopMaze = { width: 6, height: 5 }) => ({
  sites: {
    shop: { hostnames: ['shop.example'], secret: secretOf('shop'), policy: { maze: shopMaze, pow: { difficulty: 6, max_difficulty: 6 } } },
    blog: { hostnames: ['*.blog.example'], secret: secretOf('blog'), policy: { remoteip: 'reject' } },
    probes: { hostnames: ['shop.example'], secret: secretOf('probes'), policy: { probe_probability: 1 } },
  },
});

let server: TestServer;
let clock = Date.UTC(2030, 0, 1);
beforeAll(async () => {
  server = await startTestServer({ siteverifyAuthToken: OPERATOR }, { sitesFile: sitesFile(), now: () => clock });
});
afterAll(async () => {
  await server.close();
});

const challenge = (siteKey: string, origin?: string) => postJson(server.at('/challenge'), { site_key: siteKey }, origin ? { origin } : {});
const verify = (body: Record<string, unknown>, origin?: string) => postVerify(server, body, origin ? { origin } : {});
const siteverify = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  postJson(server.at('/siteverify'), body, headers);
const bearer = (name: string) => ({ authorization: `Bearer ${secretOf(name)}` });

async function tokenOf(siteKey: string, origin: string, sessionId = 'sess'): Promise<string> {
  const ch = (await challenge(siteKey, origin)).body;
  const r = await verify(buildSubmission(server.kernel, ch, { sessionId }), origin);
  expect(r.body).toMatchObject({ success: true });
  return r.body.token;
}

describe('sites: which pages may ask', () => {
  it('serves a listed site from its hostnames, under its own policy', async () => {
    const r = await challenge('shop', SHOP);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ site_key: 'shop', maze_width: 6, maze_height: 5, pow_difficulty: 6 });
    const blog = await challenge('blog', BLOG);
    expect(blog.body).toMatchObject({ maze_width: 8, maze_height: 8 });
  });

  it('refuses another hostname, a missing Origin, and an unknown site key, at /challenge', async () => {
    expect(await challenge('shop', 'https://evil.example')).toMatchObject({
      status: 403,
      body: { success: false, error_code: 'hostname_not_allowed', detail: 'origin https://evil.example' },
    });
    expect(await challenge('shop', 'https://shop.example.evil.net')).toMatchObject({ status: 403 });
    expect(await challenge('blog', 'https://blog.example')).toMatchObject({ status: 403 });
    expect(await challenge('shop')).toMatchObject({
      status: 403,
      body: { error_code: 'hostname_not_allowed', detail: 'Origin header required' },
    });
    expect(await challenge('nope', SHOP)).toMatchObject({ status: 400, body: { success: false, error_code: 'unknown_site_key' } });
  });

  it('checks the Origin again at /verify, before the challenge is spent', async () => {
    const ch = (await challenge('shop', SHOP)).body;
    const body = buildSubmission(server.kernel, ch);
    expect(await verify(body, 'https://evil.example')).toMatchObject({
      status: 403,
      body: { success: false, score: 0, error_code: 'hostname_not_allowed' },
    });
    expect(await verify(body)).toMatchObject({ status: 403 });
    const ok = await verify(body, SHOP);
    expect(ok.body.success).toBe(true);
  });

  it('carries the hostname in the token', async () => {
    const t = await tokenOf('blog', BLOG);
    const r = await siteverify({ token: t, session_id: 'sess', remoteip: '127.0.0.1' }, bearer('blog'));
    expect(r.body).toMatchObject({ success: true, site_key: 'blog', hostname: 'www.blog.example' });
  });
});

describe("sites: who may redeem a site's tokens", () => {
  it("one site's secret cannot redeem another site's token, nor burn it", async () => {
    const t = await tokenOf('blog', BLOG);
    const wrong = await siteverify({ token: t, session_id: 'sess' }, bearer('shop'));
    expect(wrong).toMatchObject({
      status: 200,
      body: { success: false, error: 'site_key_mismatch', 'error-codes': ['site_key_mismatch'] },
    });
    const asField = await siteverify({ token: t, session_id: 'sess', secret: secretOf('shop') });
    expect(asField.body.error).toBe('site_key_mismatch');
    const right = await siteverify({ token: t, session_id: 'sess', secret: secretOf('blog'), remoteip: '127.0.0.1' });
    expect(right.body).toMatchObject({ success: true, site_key: 'blog' });
  });

  it('401 without a site secret: none, a wrong one, or the operator token', async () => {
    const t = await tokenOf('shop', SHOP);
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer nope' }, { authorization: `Bearer ${OPERATOR}` }];
    for (const headers of attempts) {
      const r = await siteverify({ token: t, session_id: 'sess' }, headers);
      expect(r).toMatchObject({ status: 401, body: { success: false, error: 'unauthorized' } });
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await siteverify({ token: t, session_id: 'sess', secret: `${secretOf('shop')}!` })).status).toBe(401);
    expect((await siteverify({ token: t, session_id: 'sess' }, bearer('shop'))).body.success).toBe(true);
  });

  it('`sitekey`: the token must belong to it, and is not burned when it does not', async () => {
    const t = await tokenOf('shop', SHOP);
    expect((await siteverify({ token: t, session_id: 'sess', sitekey: 'blog' }, bearer('shop'))).body.error).toBe('site_key_mismatch');
    expect((await siteverify({ token: t, session_id: 'sess', sitekey: 'shop' }, bearer('shop'))).body.success).toBe(true);
  });

  it('`remoteip` is compared with the solving address: a flag by default, a refusal where the site says so', async () => {
    const flagged = await tokenOf('shop', SHOP);
    const f = await siteverify({ token: flagged, session_id: 'sess', remoteip: '198.51.100.9' }, bearer('shop'));
    expect(f.body).toMatchObject({ success: true, remoteip_mismatch: true });
    const same = await tokenOf('shop', SHOP);
    expect((await siteverify({ token: same, session_id: 'sess', remoteip: '::ffff:127.0.0.1' }, bearer('shop'))).body).toMatchObject({
      success: true,
      remoteip_mismatch: false,
    });
    const none = await tokenOf('shop', SHOP);
    expect((await siteverify({ token: none, session_id: 'sess' }, bearer('shop'))).body).not.toHaveProperty('remoteip_mismatch');

    const strict = await tokenOf('blog', BLOG);
    const refused = await siteverify({ token: strict, session_id: 'sess', remoteip: '198.51.100.9' }, bearer('blog'));
    expect(refused.body).toMatchObject({ success: false, error: 'remoteip_mismatch' });
    expect((await siteverify({ token: strict, session_id: 'sess', remoteip: '127.0.0.1' }, bearer('blog'))).body.success).toBe(true);
  });
});

describe('sites: a policy change', () => {
  it('reaches new challenges at once; challenges issued under the old policy answer challenge_expired; other sites are untouched', async () => {
    const old = (await challenge('shop', SHOP)).body;
    const blog = (await challenge('blog', BLOG)).body;
    const change = await server.sites.replace(sitesSnapshot(sitesFile({ width: 9, height: 7 }), server.config));
    try {
      expect(change.repoliced).toEqual(['shop']);
      const fresh = (await challenge('shop', SHOP)).body;
      expect(fresh).toMatchObject({ maze_width: 9, maze_height: 7 });
      expect((await verify(buildSubmission(server.kernel, fresh), SHOP)).body.success).toBe(true);
      const stale = await verify(buildSubmission(server.kernel, old), SHOP);
      expect(stale).toMatchObject({ status: 400, body: { error_code: 'challenge_expired', detail: 'site policy changed' } });
      expect((await verify(buildSubmission(server.kernel, blog), BLOG)).body.success).toBe(true);
    } finally {
      await server.sites.replace(sitesSnapshot(sitesFile(), server.config));
    }
  });

  it('a removed site is unknown from then on, also to its challenges in flight', async () => {
    const ch = (await challenge('blog', BLOG)).body;
    const { blog: _gone, ...rest } = sitesFile().sites;
    await server.sites.replace(sitesSnapshot({ sites: rest }, server.config));
    try {
      expect((await verify(buildSubmission(server.kernel, ch), BLOG)).body.error_code).toBe('unknown_site_key');
    } finally {
      await server.sites.replace(sitesSnapshot(sitesFile(), server.config));
    }
  });

  it("probes follow the site's policy through arm and complete, and a change in between ends the probe", async () => {
    const run = async (changeBeforeComplete: boolean) => {
      const ch = (await challenge('probes', SHOP)).body;
      expect(ch.challenge_type).toBe('maze_stroop');
      const path = solution(server.kernel, ch);
      const trigger = ch.probes[0].trigger_cell;
      const upTo = path.slice(0, path.findIndex((c) => c.x === trigger.x && c.y === trigger.y) + 1);
      const armed = await postJson(
        server.at('/probe/arm'),
        {
          challenge_id: ch.id,
          site_key: 'probes',
          session_id: 'sess',
          probe_id: ch.probes[0].id,
          events: traceEvents(ch, upTo, { up: false }),
        },
        { origin: SHOP },
      );
      expect(armed.body.success).toBe(true);
      if (changeBeforeComplete) {
        const file = sitesFile();
        await server.sites.replace(
          sitesSnapshot({ sites: { ...file.sites, probes: { ...file.sites.probes, policy: { probe_probability: 0.99 } } } }, server.config),
        );
      }
      clock += 400;
      const p = ch.probes[0];
      const cell = p.cells.find((c: any) => c.color === p.target_color);
      return postJson(server.at('/probe/complete'), {
        challenge_id: ch.id,
        session_id: 'sess',
        probe_ticket: armed.body.probe_ticket,
        tapped_cell: { x: cell.x, y: cell.y },
      });
    };
    try {
      expect((await run(false)).body.success).toBe(true);
      expect((await run(true)).body).toMatchObject({ success: false, error_code: 'challenge_expired', detail: 'site policy changed' });
    } finally {
      await server.sites.replace(sitesSnapshot(sitesFile(), server.config));
    }
  });
});
