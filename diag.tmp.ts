import { openKernel } from './bench/calibrate/samples.js';
import { keyboardSamples } from './bench/calibrate/keyboard/keyboardSamples.js';
import { measureKeyboard } from './src/core/scoring/keyboard/measureKeyboard.js';
import { readKeystrokes } from './src/core/scoring/keyboard/readKeystrokes.js';
import { termContributions } from './src/core/scoring/scoreFeatures.js';
import { defaultTable } from './src/core/scoring/ScoringTable.js';
const kernel = await openKernel(new URL('./build/kernel.wasm', import.meta.url));
const model = defaultTable.types.keyboard;
const show = (kind: any, n: number, pass: boolean) => {
  const ss = keyboardSamples(kernel, kind, n, 9_000, 'varied');
  let shown = 0;
  for (const s of ss) {
    const v = measureKeyboard(readKeystrokes(kernel.generateMaze(s.maze), s.events));
    const c = termContributions(model, { kernel: new Float64Array(0), keyboard: v });
    const logit = c.reduce((a, b) => a + b, model.bias);
    if ((logit >= 0) === pass && shown++ < 12) console.log(kind, s.holdStyle ?? '', s.maze.width, 'x', s.maze.height, logit.toFixed(2), Array.from(v, (x) => x.toFixed(2)).join(' '), '|', Array.from(c, (x) => x.toFixed(1)).join(' '));
  }
};
show('human', 600, false);
show('gaussian', 200, true);
show('uniform', 200, true);
