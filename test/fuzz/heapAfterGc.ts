/**
 * `npm run fuzz:heap`: the fuzz requests of arbitraries.ts against an in-process server (rate
 * limits counted, TRUST_PROXY=1 so every forged X-Forwarded-For is a new client), printing the V8
 * heap after a full collection every 20,000 requests: what the server keeps, not what it has not
 * yet collected. Flat after the first phase means nothing grows without bound.
 */
import fc from 'fast-check';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/http/startServer.js';
import { SCORING_OFF } from '../helpers/server.js';
import { fuzzRequest } from './arbitraries.js';

const PHASES = 4;
const BATCHES_PER_PHASE = 1250;
const BATCH = 16;

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const heapMb = () => {
  gc();
  return Math.round(process.memoryUsage().heapUsed / 2 ** 20);
};

const config = defaultConfig({
  host: '127.0.0.1',
  port: 0,
  powDifficulty: 8,
  rateLimitPerMinute: 10_000_000,
  trustProxy: 1,
  scoring: SCORING_OFF,
  testKeys: false,
});
const server = await startServer({ config });
console.log(`heap after gc: ${heapMb()} MB at start`);
let sent = 0;
for (let phase = 0; phase < PHASES; phase++) {
  for (let b = 0; b < BATCHES_PER_PHASE; b++) {
    // One batch generated at a time: the requests themselves must not be what the heap holds.
    const [batch] = fc.sample(fc.array(fuzzRequest, { minLength: BATCH, maxLength: BATCH }), { numRuns: 1, seed: phase * 100_000 + b });
    await Promise.all(
      batch!.map(async (r) => {
        const res = await fetch(server.url + r.path, {
          method: r.method,
          headers: r.headers,
          ...(r.body === undefined ? {} : { body: r.body }),
        });
        await res.arrayBuffer();
        sent++;
      }),
    );
  }
  console.log(`heap after gc: ${heapMb()} MB after ${sent} requests`);
}
await server.close();
