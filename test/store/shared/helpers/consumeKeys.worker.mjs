// A thread that consumes keys in a shared MarkerTable as soon as the start word is set, and
// posts back its answer for each key. Plain JavaScript on the built code (npm test builds it).
import { workerData, parentPort } from 'node:worker_threads';
import { MarkerTable } from '../../../../dist/store/shared/MarkerTable.js';

const { memory, keys, order, lifeMs, fillersPerKey, fillerLifeMs, name, start } = workerData;
const table = new MarkerTable(memory);
const answers = new Array(keys.length);
let fillersFresh = 0;

// Every thread waits for the same signal, so they really race.
Atomics.wait(start, 0, 0);
for (const i of order) {
  const now = Date.now();
  answers[i] = table.consume(keys[i], now + lifeMs, undefined, now);
  // Short-lived markers of this thread only: they expire within milliseconds, and their slots
  // are taken again by the shared keys while the other threads race for those.
  for (let f = 0; f < fillersPerKey; f++) {
    const t = Date.now();
    if (table.consume(`${name}:${i}:${f}`, t + fillerLifeMs, undefined, t) === 'fresh') fillersFresh++;
  }
}
parentPort.postMessage({ answers, fillersFresh });
