/**
 * `npm start` under a process manager or a container: the SIGTERM they send to the process they
 * started (npm) must stop the server and release its port.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startProcess } from '../helpers/cliProcess.js';
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
    const npm = startProcess('npm', ['start'], {
      env: { PORT: '0', HOST: '127.0.0.1', SIGNING_SECRET: 'npm-start-signing-secret-0123456789abcdef' },
    });
    try {
      const ready = /"url":"http:\/\/127\.0\.0\.1:(\d+)"/;
      await until(() => ready.test(npm.output()), 30_000);
      const port = Number(ready.exec(npm.output())![1]);
      expect(await portFree(port)).toBe(false);
      npm.child.kill('SIGTERM');
      expect(await npm.exited).toBe(0);
      expect(npm.output()).toContain('"signal":"SIGTERM"');
      await until(() => portFree(port), 5_000);
    } finally {
      npm.killAll();
    }
  }, 60_000);
});
