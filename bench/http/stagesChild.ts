import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_HEAP_FLAGS } from '../../src/cli/heapBounds.js';
import type { StageResult } from '../verifyStages.js';
import { PIN } from './processes.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The stage accounts of /verify: at the bench's body sizes and at 2,000 events. */
export interface VerifyStages {
  bench: StageResult;
  long: StageResult;
}

/** One run of bench/verifyStages.ts in a child pinned like the server, with its heap flags. */
function stagesChild(events: number | undefined): Promise<StageResult> {
  const args = [
    ...PIN.server,
    'node',
    ...NODE_HEAP_FLAGS,
    '--import',
    'tsx',
    join(repoRoot, 'bench', 'verifyStages.ts'),
    ...(events === undefined ? [] : [String(events)]),
  ];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(args[0]!, args.slice(1), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2_000)));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`verifyStages exited ${code}: ${err}`));
      resolvePromise(JSON.parse(out.trim().split('\n').pop()!) as StageResult);
    });
  });
}

/** The stages at the bench's body sizes, then at 2,000 events (fewer requests: each takes milliseconds). */
export async function measureStagesPinned(): Promise<VerifyStages> {
  return { bench: await stagesChild(undefined), long: await stagesChild(2_000) };
}
