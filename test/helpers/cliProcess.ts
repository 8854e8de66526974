/** `npm start` (src/cli.ts) as a child process, with only the environment given. */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { until } from './until.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The built command line (`npm run build`), as `npx ariadne` runs it. */
export const ARIADNE_BIN = path.join(repoRoot, 'dist/cli/ariadne.js');

const run = promisify(execFile);

/**
 * Runs `ariadne <args>` to its end with only `env` (and PATH) in its environment, from `cwd`
 * (default the repository), killed after `timeoutMs`: its exit code and output.
 */
export async function runAriadne(
  args: readonly string[],
  opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [ARIADNE_BIN, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: { PATH: process.env.PATH ?? '', ...opts.env },
      timeout: opts.timeoutMs ?? 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

export interface CliProcess {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** A long-running command with its output collected; `killAll` ends it and whatever it started. */
export interface StartedProcess extends CliProcess {
  killAll: (signal?: NodeJS.Signals) => void;
}

/**
 * Starts `command` with only `env` (and PATH and HOME) in its environment, from `cwd` (default the
 * repository), in a process group of its own, so that `killAll` also reaches what it started
 * (`npm start` runs node under sh under npm).
 */
export function startProcess(
  command: string,
  args: readonly string[],
  opts: { cwd?: string; env: Record<string, string> },
): StartedProcess {
  const child = spawn(command, args, {
    cwd: opts.cwd ?? repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killAll = (signal: NodeJS.Signals = 'SIGKILL') => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* all gone */
    }
  };
  return { child, output: () => out, exited, killAll };
}

/** The server from its source (src/cli.ts), as `npm start` runs it once built. */
export function runCli(env: Record<string, string>): StartedProcess {
  return startProcess(process.execPath, ['--import', 'tsx', 'src/cli.ts'], { env });
}

/** The URL the process logs once it listens on 127.0.0.1. */
export async function listeningUrl(p: CliProcess, ms = 15_000): Promise<string> {
  const pattern = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/;
  await until(() => pattern.test(p.output()), ms);
  return pattern.exec(p.output())![1]!;
}
