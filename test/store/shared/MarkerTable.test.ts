/**
 * The shared marker table under real threads: several worker threads consume the same keys at
 * once (each in its own order) and no key is ever fresh twice, also while expired slots are
 * reused and when the table is full.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { MarkerTable, type MarkerTableMemory, createMarkerTableMemory } from '../../../src/store/shared/MarkerTable.js';

const THREADS = 4;
const WORKER = new URL('./helpers/consumeKeys.worker.mjs', import.meta.url);

interface Plan {
  keys: string[];
  lifeMs: number;
  fillersPerKey?: number;
  fillerLifeMs?: number;
}

/** A permutation of 0..n-1 from a seed (a small LCG: reproducible orders). */
function shuffled(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let x = seed;
  for (let i = n - 1; i > 0; i--) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const j = x % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** Runs THREADS threads over `plan` at once; each thread's answers by key index. */
async function race(memory: MarkerTableMemory, plan: Plan): Promise<{ answers: string[][]; fillersFresh: number }> {
  const start = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from(
    { length: THREADS },
    (_, t) =>
      new Worker(WORKER, {
        workerData: { memory, fillersPerKey: 0, fillerLifeMs: 1, ...plan, order: shuffled(plan.keys.length, t + 1), name: `t${t}`, start },
      }),
  );
  const results = workers.map(
    (w) =>
      new Promise<{ answers: string[]; fillersFresh: number }>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      }),
  );
  await Promise.all(workers.map((w) => new Promise((r) => w.once('online', r))));
  Atomics.store(start, 0, 1);
  Atomics.notify(start, 0);
  const done = await Promise.all(results);
  await Promise.all(workers.map((w) => w.terminate()));
  return { answers: done.map((d) => d.answers), fillersFresh: done.reduce((n, d) => n + d.fillersFresh, 0) };
}

/** For each key: how many threads answered each result. */
function tally(answers: string[][], keys: number) {
  return Array.from({ length: keys }, (_, i) => {
    const count = (r: string) => answers.filter((a) => a[i] === r).length;
    return { fresh: count('fresh'), used: count('used'), full: count('full') };
  });
}

const keys = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `challenge:${tag}-${i}`);

describe('MarkerTable across threads', () => {
  it('gives each of 20,000 keys exactly one fresh among 4 racing threads', async () => {
    const memory = createMarkerTableMemory(65_536);
    const plan = { keys: keys(20_000, 'a'), lifeMs: 60_000 };
    const { answers } = await race(memory, plan);
    for (const t of tally(answers, plan.keys.length)) expect(t).toEqual({ fresh: 1, used: THREADS - 1, full: 0 });
  });

  it('reuses expired slots while threads race and still gives each key one fresh', async () => {
    // 1,024 slots; 4 threads x 256 keys x 8 markers already expired when written (their expiry
    // the millisecond before: a marker is live through its expiry millisecond, so a life of 0
    // would hold its slot for the rest of that millisecond and fill buckets at this rate): eight
    // times more fresh markers than slots, so expired slots are taken again all along, between
    // the racing inserts.
    const memory = createMarkerTableMemory(1_024);
    const plan = { keys: keys(256, 'b'), lifeMs: 60_000, fillersPerKey: 8, fillerLifeMs: -1 };
    const { answers, fillersFresh } = await race(memory, plan);
    expect(fillersFresh).toBe(THREADS * 256 * 8);
    for (const t of tally(answers, plan.keys.length)) expect(t).toEqual({ fresh: 1, used: THREADS - 1, full: 0 });
    // Still held: every key is used for a thread that comes later.
    const late = new MarkerTable(memory);
    for (const key of plan.keys) expect(late.consume(key, Date.now() + 60_000, undefined, Date.now())).toBe('used');
  });

  it('when full, answers full and never drops a live marker; frees the slots when they expire', async () => {
    // One bucket of 64 slots, 200 keys raced for: exactly 64 are recorded, each once.
    const memory = createMarkerTableMemory(64);
    const plan = { keys: keys(200, 'c'), lifeMs: 400 };
    const { answers } = await race(memory, plan);
    const tallies = tally(answers, plan.keys.length);
    const recorded = tallies.flatMap((t, i) => (t.fresh > 0 ? [i] : []));
    expect(recorded).toHaveLength(64);
    for (const t of tallies) expect(t.fresh).toBeLessThanOrEqual(1);
    // A key nobody recorded was refused as full by every thread that did not see it recorded.
    for (const t of tallies) if (t.fresh === 0) expect(t.full).toBeGreaterThan(0);
    const table = new MarkerTable(memory);
    const now = Date.now();
    for (const i of recorded) expect(table.consume(plan.keys[i]!, now + 400, undefined, now)).toBe('used');
    expect(table.consume('challenge:new', now + 400, undefined, now)).toBe('full');
    // Live through the millisecond of their expiry, free the one after.
    const later = now + 401;
    expect(table.consume('challenge:new', later + 400, undefined, later)).toBe('fresh');
  });

  it('keeps a marker through the millisecond of its expiry, as the other stores do, and frees it the one after', () => {
    const table = new MarkerTable(createMarkerTableMemory(64));
    expect(table.consume('challenge:edge', 1_000, undefined, 500)).toBe('fresh');
    expect(table.consume('challenge:edge', 1_500, undefined, 1_000)).toBe('used');
    expect(table.consume('challenge:edge', 1_500, undefined, 1_001)).toBe('fresh');
  });
});
