/** Debian's nginx in front of a server, with the shipped deploy/nginx.conf (ports filled in). */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot } from './cliProcess.js';
import { freePort } from './freePort.js';
import { until } from './until.js';

const CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx'];

/** The nginx binary, or undefined when it is not installed (the suite is then skipped). */
export function findNginx(): string | undefined {
  return CANDIDATES.find((p) => existsSync(p));
}

export interface NginxFront {
  port: number;
  stop(): Promise<void>;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
    s.on('error', () => resolve(false));
  });

/** Starts nginx on a free loopback port, proxying to 127.0.0.1:`upstreamPort`. */
export async function startNginxFront(upstreamPort: number): Promise<NginxFront> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ariadne-nginx-'));
  await mkdir(path.join(dir, 'tmp'));
  const port = await freePort();
  const shipped = await readFile(path.join(repoRoot, 'deploy/nginx.conf'), 'utf8');
  const conf = shipped
    .replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`)
    .replace('server 127.0.0.1:8787;', `server 127.0.0.1:${upstreamPort};`);
  if (conf === shipped) throw new Error('deploy/nginx.conf: listen/server lines not found');
  await writeFile(path.join(dir, 'nginx.conf'), conf);
  const child: ChildProcess = spawn(findNginx()!, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await until(() => accepts(port), 10_000);
  return {
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
