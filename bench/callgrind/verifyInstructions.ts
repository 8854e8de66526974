/**
 * Instructions per /verify, whole route in process (body copy, parse, schema, verifyRoute's
 * handler, the answer's text), counted by valgrind's callgrind: instructions do not move with the
 * machine's load, so an A/B of a change reads here beyond the spread of time. Two runs over the
 * same bodies, after the same warm-up, differ only in how many requests they measure: the
 * difference over the difference in requests is the figure.
 *
 *   node --import tsx bench/callgrind/verifyInstructions.ts [events] [warm-up] [n1] [n2]
 *
 * (defaults: the bench's traces, 1,000, 100, 400; a few minutes). Needs `valgrind`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_HEAP_FLAGS } from '../../src/cli/heapBounds.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { makeVerifyBodies, routeRunner } from '../verifyStages.js';

const self = fileURLToPath(import.meta.url);

/** Child mode: serve `warmUp + n` bodies of `file` through the route, in process. */
async function serve(file: string, warmUp: number, n: number): Promise<void> {
  // The bodies' challenges were issued by another process: a store that started before them.
  const store = new MemoryStore({ maxMarkers: 1_000_000, maxCounters: 100_000, now: () => Date.now() - 600_000 });
  const { run, close } = await routeRunner({ store });
  const bodies = (JSON.parse(readFileSync(file, 'utf8')) as string[]).map((t) => new Uint8Array(Buffer.from(t)).buffer);
  for (let i = 0; i < warmUp + n; i++) await run(bodies[i]!);
  await close();
}

function instructions(file: string, warmUp: number, n: number, out: string): number {
  execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, 'node', ...NODE_HEAP_FLAGS, '--import', 'tsx', self, 'serve', file, String(warmUp), String(n)], { stdio: 'ignore' });
  return Number(/^summary: (\d+)/m.exec(readFileSync(out, 'utf8'))![1]);
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
} else {
  const [events, warmUp = 1_000, n1 = 100, n2 = 400] = process.argv.slice(2).map(Number);
  const work = mkdtempSync(join(tmpdir(), 'ariadne-callgrind-'));
  try {
    const file = join(work, 'bodies.json');
    writeFileSync(file, JSON.stringify(await makeVerifyBodies(warmUp + n2, events === undefined || Number.isNaN(events) || events === 0 ? undefined : events)));
    const a = instructions(file, warmUp, n1, join(work, 'a.out'));
    const b = instructions(file, warmUp, n2, join(work, 'b.out'));
    console.log(JSON.stringify({ warmUp, n1, n2, instructionsPerRequest: Math.round((b - a) / (n2 - n1)) }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
