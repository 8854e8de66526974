import { describe, expect, it } from 'vitest';
import { TrafficCounters } from '../../../src/core/traffic/TrafficCounters.js';
import { latencyBucket } from '../../../src/core/traffic/trafficNames.js';
import { MemoryTrafficStore } from '../../../src/store/traffic/MemoryTrafficStore.js';

const NOW = Date.UTC(2030, 0, 1, 12);
const MINUTE = Math.floor(NOW / 60_000);

describe('TrafficCounters', () => {
  it('counts in the current minute and hands the counts to the store on flush, once', async () => {
    let now = NOW;
    const store = new MemoryTrafficStore({ maxCount: 1, maxBytes: 65_536 }, () => now);
    const counters = new TrafficCounters(store, { now: () => now, flushIntervalMs: 3_600_000 });
    counters.challengeIssued('shop', 18);
    counters.challengeIssued('shop', 19);
    counters.verified('shop', 'ok', {
      inputType: 'touch',
      scored: { mode: 'enforce', score: 0.73, reasons: [], features: new Float64Array() },
    });
    counters.verified('', 'unknown_site_key', {});
    counters.verified('shop', 'behavioral_rejected', {
      inputType: 'mouse',
      scored: { mode: 'shadow', score: 0.05, reasons: ['no_pauses', 'path_too_straight'], features: new Float64Array() },
    });
    counters.redeemed('shop', 'token_already_used');
    counters.limited('', 'challenge', true);
    counters.limited('', 'challenge', false);
    now += 60_000;
    counters.answered('/verify', 3);
    expect(await store.counts(MINUTE, MINUTE + 1)).toEqual([]);
    await counters.flush();
    await counters.flush();
    expect(new Map(await store.counts(MINUTE, MINUTE + 1))).toEqual(
      new Map([
        [`${MINUTE}\tshop\tchallenge`, 2],
        [`${MINUTE}\tshop\tpow:18`, 1],
        [`${MINUTE}\tshop\tpow:19`, 1],
        [`${MINUTE}\tshop\tverify:ok`, 1],
        [`${MINUTE}\tshop\tinput:touch`, 1],
        [`${MINUTE}\tshop\tscore:enforce:7`, 1],
        [`${MINUTE}\t\tverify:unknown_site_key`, 1],
        [`${MINUTE}\tshop\tverify:behavioral_rejected`, 1],
        [`${MINUTE}\tshop\tinput:mouse`, 1],
        [`${MINUTE}\tshop\tscore:shadow:0`, 1],
        [`${MINUTE}\tshop\treason:no_pauses`, 1],
        [`${MINUTE}\tshop\treason:path_too_straight`, 1],
        [`${MINUTE}\tshop\tsiteverify:token_already_used`, 1],
        [`${MINUTE}\t\tlimited:challenge`, 2],
        [`${MINUTE}\t\tlimited_clients:challenge`, 1],
        [`${MINUTE + 1}\t\tlatency:/verify:${latencyBucket(3)}`, 1],
      ]),
    );
    await counters.close();
  });

  it('drops the counts a store refuses, and counts on', async () => {
    const added: unknown[] = [];
    let refuse = true;
    const store = {
      ...new MemoryTrafficStore({ maxCount: 1, maxBytes: 65_536 }),
      addCounts: async (counts: unknown) => {
        if (refuse) throw new Error('down');
        added.push(counts);
      },
    };
    const counters = new TrafficCounters(store as never, { now: () => NOW, flushIntervalMs: 3_600_000 });
    counters.challengeIssued('', 1);
    await counters.flush();
    refuse = false;
    counters.limited('', 'verify', false);
    await counters.close();
    expect(added).toEqual([[[`${MINUTE}\t\tlimited:verify`, 1]]]);
  });
});
