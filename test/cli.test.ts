import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listeningUrl, runCli } from './helpers/cliProcess.js';
import { freePort } from './helpers/freePort.js';
import { postJson } from './helpers/client.js';
import { until } from './helpers/until.js';
import { SoftAuthenticator } from './helpers/softAuthenticator.js';

const run = runCli;

describe('npm start (src/cli.ts)', () => {
  it('invalid configuration stops start-up with a message naming the variable', async () => {
    const p = run({ MAZE_WIDTH: 'wide' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('MAZE_WIDTH');
  });

  it('NODE_ENV=production without SIGNING_SECRET does not start', async () => {
    const p = run({ NODE_ENV: 'production' });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('SIGNING_SECRET');
  });

  it('starts with a loud warning when the secret is missing, serves, and exits 0 on SIGTERM', async () => {
    const p = run({ PORT: '0', HOST: '127.0.0.1' });
    await until(() => /"url":"http:\/\/127\.0\.0\.1:\d+"/.test(p.output()), 15_000);
    expect(p.output()).toContain('WARNING: SIGNING_SECRET is not set');
    const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(p.output())![1]!;
    const r = await fetch(`${url}/api/captcha/healthz`);
    expect(r.status).toBe(200);
    // Passkeys are off by default: no registration.
    expect((await postJson(`${url}/webauthn/register/options`, { site_key: 's', stable_id: 'u' })).status).toBe(404);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('a second process on a taken port exits non-zero naming the port; the first keeps serving alone', async () => {
    const port = String(await freePort());
    const first = run({ PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    try {
      const url = await listeningUrl(first);
      const second = run({ PORT: port, HOST: '127.0.0.1' });
      expect(await second.exited).not.toBe(0);
      expect(second.output()).toContain(`127.0.0.1:${port}`);
      // Every connection still reaches the first (no split traffic with a second store).
      for (let i = 0; i < 10; i++) expect((await fetch(`${url}/healthz`)).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  it.each([
    [{ SCORING_MODE: 'strict' }, 'SCORING_MODE'],
    [{ SCORE_THRESHOLD: '2' }, 'SCORE_THRESHOLD'],
    [{ WEBAUTHN_MODE: 'required', WEBAUTHN_ORIGIN: 'https://example.com' }, 'WEBAUTHN_RP_ID'],
  ])('%j stops start-up naming %s', async (env, name) => {
    const p = run(env);
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain(name);
  });

  it('with passkeys on, keeps registered credentials under DATA_DIR', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-cli-'));
    const origin = 'http://localhost:5173';
    const p = run({
      PORT: '0',
      HOST: '127.0.0.1',
      WEBAUTHN_MODE: 'preferred',
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGIN: origin,
      DATA_DIR: dataDir,
    });
    try {
      await until(() => /"url":"http:\/\/127\.0\.0\.1:\d+"/.test(p.output()), 15_000);
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(p.output())![1]!;
      const auth = new SoftAuthenticator('ES256', origin, 'localhost');
      const opened = await postJson(`${url}/webauthn/register/options`, { site_key: 's', stable_id: 'u' });
      expect(opened.status).toBe(200);
      const done = await postJson(`${url}/webauthn/register/verify`, {
        session_id: opened.body.session_id,
        response: auth.register(opened.body.options),
      });
      expect(done.body).toEqual({ success: true, credential_id: auth.id });
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(await readFile(path.join(dataDir, 'credentials.jsonl'), 'utf8')).toContain(auth.id);
    } finally {
      p.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
