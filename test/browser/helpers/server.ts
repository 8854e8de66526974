// The real server as a child process (`node dist/cli.js`) on a free port, with the built
// browser client served by it; pages are opened on http://localhost:PORT (a secure context).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClient } from '../../../src/client/build.js';
import { freePort } from '../../helpers/freePort.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const distClient = path.join(repoRoot, 'dist/client');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    const st = statSync(file);
    newest = Math.max(newest, st.isDirectory() ? newestMtime(file) : st.mtimeMs);
  }
  return newest;
}

/**
 * Builds dist/client when it is missing or older than src/client or build/kernel.wasm. Test
 * files run in parallel, so one builds under a lock directory and the others wait for it.
 */
export async function ensureClientBuilt(): Promise<void> {
  const marker = path.join(distClient, 'ariadne.js');
  const stale = () =>
    !existsSync(marker) ||
    statSync(marker).mtimeMs <
      Math.max(newestMtime(path.join(repoRoot, 'src/client')), statSync(path.join(repoRoot, 'build/kernel.wasm')).mtimeMs);
  if (!stale()) return;
  const lock = path.join(repoRoot, 'dist/.client-build-lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  for (let i = 0; i < 600; i++) {
    try {
      mkdirSync(lock);
    } catch {
      await sleep(100);
      continue;
    }
    try {
      if (stale()) await buildClient(distClient);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
    return;
  }
  throw new Error('timed out waiting for another client build (remove dist/.client-build-lock if stale)');
}

export interface Ariadne {
  port: number;
  /** http://localhost:PORT */
  url: string;
  /** Output of the server so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export type ServerEnv = Record<string, string>;

/**
 * Starts the server with test settings plus `env` (or `env(port)`, for settings that name the
 * page origin); resolves once it serves the browser client.
 */
export async function startAriadne(env: ServerEnv | ((port: number) => ServerEnv) = {}): Promise<Ariadne> {
  await ensureClientBuilt();
  const entry = process.env.ARIADNE_TEST_ENTRY ?? path.join(repoRoot, 'dist/cli.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const args = /\.m?ts$/.test(entry) ? ['--import', 'tsx', entry] : [entry];
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      SIGNING_SECRET: 'browser-test-secret-0123456789abcdef',
      POW_DIFFICULTY: '6',
      PROBE_PROBABILITY: '0',
      RATE_LIMIT_PER_MINUTE: '10000',
      // Playwright's pointer is a synthetic mover, which the behavioural scorer exists to reject;
      // these tests are about the client, so scores are computed and logged but not enforced.
      SCORING_MODE: 'shadow',
      ...(typeof env === 'function' ? env(port) : env),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  // Never outlive the test process, even when it ends without running afterAll.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', killOnExit);
      resolve();
    }),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    }
  };
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`http://127.0.0.1:${port}/ariadne.js`, { method: 'GET' })
      .then((r) => r.ok || Promise.reject(new Error(`GET /ariadne.js: ${r.status}`)))
      .catch((e: Error) => (e.message.startsWith('GET') ? e : false));
    if (ok === true) return { port, url: `http://localhost:${port}`, output: () => output, stop };
    if (ok instanceof Error) {
      await stop();
      throw new Error(`the server does not serve the browser client (${ok.message}); output:\n${output}`);
    }
    await sleep(100);
  }
  await stop();
  throw new Error(`the server did not start; output:\n${output}`);
}
