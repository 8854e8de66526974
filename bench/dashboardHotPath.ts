// The dashboard's counting alone, for callgrind: what one /challenge or one /verify adds on the
// hot path, and what one flush of a second of traffic costs, without a server around it (whose
// own instruction counts vary by far more than this under valgrind). Instructions per operation:
// the run's total minus that of `0 challenge` (start-up), over the count. Run each under valgrind:
//   valgrind --tool=callgrind node --import tsx bench/dashboardHotPath.ts <count> challenge|verify|flush
import { TrafficCounters } from '../src/core/traffic/TrafficCounters.js';
import type { VerifySeen } from '../src/core/traffic/TrafficCounters.js';
import { MemoryTrafficStore } from '../src/store/traffic/MemoryTrafficStore.js';

const count = Number(process.argv[2] ?? 0);
const what = process.argv[3] ?? 'challenge';
const counters = new TrafficCounters(new MemoryTrafficStore({ maxCount: 1, maxBytes: 65_536 }), { flushIntervalMs: 1e9 });
const seen: VerifySeen = {
  inputType: 'mouse',
  scored: { mode: 'shadow', score: 0.4, reasons: ['no_pauses'], features: new Float64Array() },
};
const SITES = ['', 'shop', 'blog'];
for (let i = 0; i < count; i++) {
  if (what === 'challenge') {
    counters.challengeIssued('', 18);
    counters.answered('/challenge', 0.8);
  } else if (what === 'verify') {
    counters.verified('', 'ok', seen);
    counters.answered('/verify', 3);
  } else {
    // A second of traffic over three sites (about 40 fields), then its flush.
    for (const site of SITES) {
      counters.challengeIssued(site, 18);
      counters.verified(site, 'ok', seen);
      counters.verified(site, 'invalid_path', {});
      counters.redeemed(site, 'ok');
    }
    for (const route of ['/challenge', '/verify', '/siteverify']) counters.answered(route, 1 + (i % 7));
    await counters.flush();
  }
}
await counters.close();
