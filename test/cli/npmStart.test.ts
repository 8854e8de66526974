/**
 * `npm start` under a process manager or a container: the SIGTERM they send to the process they
 * started (npm) must stop the server and release its port.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cliProcess.js';
import { until } from '../helpers/until.js';

/** Whether `port` on 127.0.0.1 can be listened on now (nothing else holds it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

describe('npm start', () => {
  it('stops on the SIGTERM sent to npm, exiting 0 and releasing the port', async () => {
    const npm = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        SIGNING_SECRET: 'npm-start-signing-secret-0123456789abcdef',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A group of its own, so that whatever is left after the test can be killed with it.
      detached: true,
    });
    let out = '';
    npm.stdout!.on('data', (d) => (out += d));
    npm.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    try {
      const ready = /"url":"http:\/\/127\.0\.0\.1:(\d+)"/;
      await until(() => ready.test(out), 30_000);
      const port = Number(ready.exec(out)![1]);
      expect(await portFree(port)).toBe(false);
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('"signal":"SIGTERM"');
      await until(() => portFree(port), 5_000);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        /* all gone, as it should be */
      }
    }
  }, 60_000);
});
