/**
 * Instructions per /verify, whole route in process (body copy, parse, schema, verifyRoute's
 * handler, the answer's text), counted by valgrind's callgrind: instructions do not move with the
 * machine's load, so an A/B of a change reads here beyond the spread of time. Two runs over the
 * same bodies, after the same warm-up, differ only in how many requests they measure: the
 * difference over the difference in requests is the figure.
 *
 *   node --import tsx bench/callgrind/verifyInstructions.ts [events] [warm-up] [n1] [n2]
 *
 * (defaults: the bench's traces, 1,000, 100, 400; a few minutes). Needs `valgrind`. Also prints
 * the figure by kind of work (KINDS, from callgrind_annotate's count per function).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_HEAP_FLAGS } from '../../src/cli/heapBounds.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { PIN } from '../http/processes.js';
import { makeVerifyBodies, routeRunner } from '../verifyStages.js';

const self = fileURLToPath(import.meta.url);

/** Kinds of work by the functions callgrind names; the first that matches counts a function. */
const KINDS: [string, RegExp][] = [
  ['JSON.parse', /JsonParser|Strtod|StringToDouble/],
  ['JSON.stringify', /JsonStringifier|Dtoa|DoubleToCString|DiyFp|PowersOfTen/],
  ['compiler and parser (V8)', /compiler::|Zone|GraphReducer|LiveRange|interpreter::|Parser|Scanner|BytecodeGenerator|Compil/],
  ['ECDSA (OpenSSL P-256 and bignums)', /nistz256|ecp_|ec_|EC_|BN_|bn_/],
  ['SHA-256 (OpenSSL)', /sha256/i],
  ['garbage collection', /Scaveng|Marking|Sweep|Evacuat|heap::|MarkCompact|Promot|RememberedSet|SlotSet|IterateObjectCache|Pretenuring/],
  ['malloc and free', /malloc|_int_free|\bfree\b/],
  ['JavaScript (optimized and baseline code)', /^\?\?\?:0x/],
];

/** Instructions per function (exclusive) of a callgrind output. */
function perFunction(out: string): Map<string, number> {
  const text = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', out], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+)\s+\([^)]*\)\s+(\S.*)$/.exec(line);
    if (m === null || m[2]!.includes('PROGRAM TOTALS')) continue;
    // Generated code has no name, only an address that differs from run to run: one entry for all.
    const name = /^\?\?\?:0x/.test(m[2]!) ? '???:0x (generated code)' : m[2]!;
    counts.set(name, (counts.get(name) ?? 0) + Number(m[1]!.replaceAll(',', '')));
  }
  return counts;
}

/** The difference of two outputs per request, summed by KINDS (and the rest). */
function byKind(a: string, b: string, requests: number): Record<string, number> {
  const before = perFunction(a);
  const sums: Record<string, number> = Object.fromEntries([...KINDS.map(([kind]) => [kind, 0]), ['other', 0]]);
  for (const [name, count] of perFunction(b)) {
    const kind = KINDS.find(([, re]) => re.test(name))?.[0] ?? 'other';
    sums[kind]! += (count - (before.get(name) ?? 0)) / requests;
  }
  return Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, Math.round(v)]));
}

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
  // Pinned like the bench's server: one core available, so the signature is checked inline as
  // there (unpinned on two cores, WORKERS=1 would send it to a signature worker and count the hop).
  const [command, ...args] = [
    ...PIN.server,
    'valgrind',
    '--tool=callgrind',
    `--callgrind-out-file=${out}`,
    'node',
    ...NODE_HEAP_FLAGS,
    '--import',
    'tsx',
    self,
    'serve',
    file,
    String(warmUp),
    String(n),
  ];
  execFileSync(command!, args, { stdio: 'ignore' });
  return Number(/^summary: (\d+)/m.exec(readFileSync(out, 'utf8'))![1]);
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
} else {
  const [events, warmUp = 1_000, n1 = 100, n2 = 400] = process.argv.slice(2).map(Number);
  const work = mkdtempSync(join(tmpdir(), 'ariadne-callgrind-'));
  try {
    const file = join(work, 'bodies.json');
    writeFileSync(
      file,
      JSON.stringify(
        await makeVerifyBodies(warmUp + n2, events === undefined || Number.isNaN(events) || events === 0 ? undefined : events),
      ),
    );
    const a = instructions(file, warmUp, n1, join(work, 'a.out'));
    const b = instructions(file, warmUp, n2, join(work, 'b.out'));
    const kinds = byKind(join(work, 'a.out'), join(work, 'b.out'), n2 - n1);
    console.log(JSON.stringify({ warmUp, n1, n2, instructionsPerRequest: Math.round((b - a) / (n2 - n1)), byKind: kinds }));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
