/**
 * Sampling every /verify (TRACE_SAMPLE_RATE=1) of a real `npm start` process under the fuzz load
 * and a flood of large submissions: the traces kept stay within TRACE_MAX_BYTES and
 * TRACE_MAX_COUNT, the newest kept, and the server's heap does not grow with what went through.
 * TRACE_FLOOD sets the number of large submissions (default 1,000 of about 120 kB each).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AriadneNode, startNode } from '../helpers/ariadneNode.js';
import { postJson } from '../helpers/client.js';
import { fuzzRequest } from './arbitraries.js';

const TOKEN = 'dashboard-token-0123456789';
const FLOOD = Number(process.env.TRACE_FLOOD ?? 1_000);
const MAX_BYTES = 2 * 1024 * 1024;
const MAX_COUNT = 5_000;
/** Events per large submission: with the sampled record's fields, about 120 kB a record. */
const EVENTS = 2_000;
/** Heap growth allowed for everything but the traces: far below the ~120 MB the flood carries. */
const HEAP_SLACK_MB = 48;
const HEAP_BOUND_MB = MAX_BYTES / 2 ** 20 + HEAP_SLACK_MB;
/** How long the idle server's heap is watched for a collection after the flood. */
const SETTLE_MS = 20_000;

let node: AriadneNode;
let cookie: string;
beforeAll(async () => {
  node = await startNode({
    SIGNING_SECRET: 'fuzz-signing-secret-0123456789abcdef0123',
    DASHBOARD_TOKEN: TOKEN,
    TRACE_SAMPLE_RATE: '1',
    TRACE_MAX_BYTES: String(MAX_BYTES),
    TRACE_MAX_COUNT: String(MAX_COUNT),
    RATE_LIMIT_PER_MINUTE: '0',
    SCORING_MODE: 'off',
    WORKERS: '1',
  });
  const r = await fetch(node.at('/dashboard/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN }),
    redirect: 'manual',
  });
  cookie = r.headers.get('set-cookie')!.split(';')[0]!;
}, 30_000);
afterAll(async () => {
  await node?.stop();
});

async function heapMb(): Promise<number> {
  const metrics = await (await fetch(node.at('/metrics'))).text();
  return Number(/^ariadne_nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/m.exec(metrics)![1]) / 2 ** 20;
}

/** A /verify body that passes the schema and admission, then fails on its challenge id: sampled with its events. */
function largeSubmission(i: number): Record<string, unknown> {
  const events = Array.from({ length: EVENTS }, (_, k) => ({
    x: (k * 7 + i) % 320,
    y: (k * 13) % 320,
    t: k * 16,
    type: 'move',
    pointer_type: 'mouse',
  }));
  return {
    challenge_id: `flood-${i}`,
    site_key: 'fuzz-site',
    session_id: `session-${i}`,
    events,
    pow_proof: { nonce: 1, hash: '00' },
    public_key: 'AAAA',
    signature: 'AAAA',
    timestamp: Date.now(),
  };
}

describe(`sampling every /verify under load (${FLOOD} large submissions and the fuzz requests)`, { timeout: 10 * 60_000 }, () => {
  it('keeps the traces within their bounds, the newest, and the heap with them', async () => {
    await postJson(node.at('/verify'), largeSubmission(-1));
    const before = await heapMb();
    const fuzz = fc.sample(fuzzRequest, { numRuns: FLOOD, seed: 20261127 });
    for (let i = 0; i < FLOOD; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, async (_, k) => {
          const r = await postJson(node.at('/verify'), largeSubmission(i + k));
          expect(r.status).toBe(400);
          const f = fuzz[i + k]!;
          const res = await fetch(node.url + f.path, {
            method: f.method,
            headers: f.headers,
            ...(f.body === undefined ? {} : { body: f.body }),
          });
          await res.arrayBuffer();
          expect(res.status).toBeLessThan(500);
        }),
      );
    }
    // Heap in use counts garbage no collection has reached yet, and how much depends on how busy the
    // machine is (the collector's threads share the cores): what stays once the server is idle is
    // what it kept. V8 collects an idle heap within seconds; a server that kept what went through
    // stays above the bound however long it idles.
    let after = await heapMb();
    for (const end = Date.now() + SETTLE_MS; after - before >= HEAP_BOUND_MB && Date.now() < end; ) {
      await new Promise((r) => setTimeout(r, 500));
      after = Math.min(after, await heapMb());
    }

    const res = await fetch(node.at('/dashboard/traces.jsonl'), { headers: { cookie } });
    const text = await res.text();
    const lines = text.trimEnd().split('\n');
    expect(Buffer.byteLength(text) - lines.length).toBeLessThanOrEqual(MAX_BYTES);
    expect(lines.length).toBeLessThanOrEqual(MAX_COUNT);
    // Far fewer than went through: the oldest were dropped, and what is kept is the newest.
    expect(lines.length).toBeLessThan(FLOOD / 10);
    // The newest kept is one of the last batch (its eight are answered in any order).
    const newest = JSON.parse(lines.at(-1)!).events[0].x as number;
    expect(Array.from({ length: 8 }, (_, k) => (FLOOD - 8 + k) % 320)).toContain(newest);
    console.log(
      `trace sampling: ${FLOOD} large submissions, ${lines.length} traces kept (${Buffer.byteLength(text)} B); heap ${before.toFixed(1)} MB before, ${after.toFixed(1)} MB after`,
    );
    expect(after - before).toBeLessThan(HEAP_BOUND_MB);
  });
});
