import { openKernel, botSample } from './samples.js';
import { BOT_FAMILIES } from './bots/families.js';
import { Rng } from './random.js';
import { packEvents } from '../../src/kernel/index.js';
const kernel = await openKernel(new URL('file:///work/wt/scoring/build/kernel.wasm'));
const fam = BOT_FAMILIES.find((f) => f.name === 'intermittent-control')!;
const rng = new Rng(3); let ok = 0; const n = 60;
for (let i = 0; i < n; i++) { const s = await botSample(kernel, rng, fam, i % fam.variants.length, i); const r = kernel.replay(s.maze, packEvents(s.events), 40, { kind: 'verify' }); if (r.valid) ok++; if (i < 3) console.log(s.events.length, s.events.at(-1)!.t); }
console.log('replay', ok, '/', n);
