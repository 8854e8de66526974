import type { Worker } from 'node:worker_threads';
import { aggregateMetrics } from '../http/aggregateMetrics.js';
import { nextMessage } from './nextMessage.js';
import type { FromServerThread, ToServerThread } from './threadMessages.js';

/** A thread scraped for /metrics gets the metrics of every thread, gathered here. */
export function answerMetricsScrapes(threads: readonly Worker[]): void {
  let nextScrape = 0;
  for (const asker of threads) {
    asker.on('message', (m: FromServerThread) => {
      if (m.type !== 'metrics') return;
      const id = nextScrape++;
      const replies = threads.map((w) =>
        nextMessage(w, (r): r is Extract<FromServerThread, { type: 'metrics-json' }> => r.type === 'metrics-json' && r.id === id),
      );
      threads.forEach((w) => w.postMessage({ type: 'metrics-json', id } satisfies ToServerThread));
      void Promise.all(replies)
        .then((all) => aggregateMetrics(all.map((r) => r.json)))
        .then((text) => asker.postMessage({ type: 'metrics', id: m.id, text } satisfies ToServerThread));
    });
  }
}
