/** `npm start` (src/cli.ts) as a child process, with only the environment given. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { until } from './until.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

export function runCli(env: Record<string, string>): CliProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts'], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The URL the process logs once it listens on 127.0.0.1. */
export async function listeningUrl(p: CliProcess, ms = 15_000): Promise<string> {
  const pattern = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/;
  await until(() => pattern.test(p.output()), ms);
  return pattern.exec(p.output())![1]!;
}
