/** A real Ariadne process (`node dist/cli.js`, built by `npm test`'s pretest) on a loopback port. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RawEvent } from '../../src/kernel/types.js';
import { postJson, traceSpanMs } from './client.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface AriadneNode {
  url: string;
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** The URL of a route, e.g. at('/verify'). */
  at(path: string): string;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts a node with `env` on top of a loopback host and port 0; resolves once it listens.
 * `nodeArgs` go to node before the script (its threads inherit them).
 */
export async function startNode(env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<AriadneNode> {
  const child = spawn(process.execPath, [...nodeArgs, 'dist/cli.js'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start: ${out}`)), 20_000);
    const look = () => {
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', () => reject(new Error(`node exited: ${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    at: (path) => url + path,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Resolves once the time the trace of a /verify `body` spans has passed since `ch` was issued:
 * the server refuses a trace longer than that, and a real process's clock cannot be moved.
 */
export async function traceTimePassed(ch: { created_at: number }, body: Record<string, unknown>): Promise<void> {
  const span = Array.isArray(body.events) ? traceSpanMs(body.events as RawEvent[]) : 0;
  const wait = ch.created_at + span - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

/** POSTs a /verify body for `ch` to `node` once its trace's time has passed. */
export async function postVerifyAfterTrace(
  node: AriadneNode,
  ch: { created_at: number },
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  await traceTimePassed(ch, body);
  return postJson(node.at('/verify'), body, headers);
}
