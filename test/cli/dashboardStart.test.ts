/**
 * The dashboard's documented start (docs/dashboard.md, "Starting it"), run as written: it must
 * show the operator the token it made, and that token must open the dashboard.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, startProcess } from '../helpers/cliProcess.js';
import { until } from '../helpers/until.js';

/** The first `sh` block after the heading "## Starting it" of docs/dashboard.md. */
function documentedStart(): string {
  const doc = readFileSync(path.join(repoRoot, 'docs/dashboard.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Starting it'));
  return /```sh\n([\s\S]*?)```/.exec(section)![1]!;
}

describe('the documented dashboard start', () => {
  it('prints a token that logs in, and start-up says the dashboard and trace sampling are on', async () => {
    const script = documentedStart();
    // PORT and HOST as an operator would add them; the block itself is run unchanged.
    const sh = startProcess('sh', ['-c', script], {
      env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: 'dashboard-start-signing-secret-0123456789' },
    });
    try {
      const ready = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/;
      await until(() => ready.test(sh.output()) && sh.output().includes('trace sampling on'), 60_000);
      const url = ready.exec(sh.output())![1]!;
      const shown = /dashboard password: (\S+)/.exec(sh.output());
      expect(shown).not.toBeNull();
      const token = shown![1]!;
      // Named, never logged.
      expect(sh.output().split(token)).toHaveLength(2);
      expect(sh.output()).toContain(`dashboard on: ${url}/dashboard, log in with the value of DASHBOARD_TOKEN`);
      expect(sh.output()).toContain('trace sampling on: 5% of /verify submissions kept, at most 1000 traces and 16 MiB');

      const login = await fetch(`${url}/dashboard/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
        redirect: 'manual',
      });
      expect(login.status).toBe(303);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${url}/dashboard/data?window=hour`, { headers: { cookie } })).status).toBe(200);
    } finally {
      sh.killAll('SIGTERM');
    }
  }, 90_000);
});
