import type { Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';

/**
 * Physiological tremor: two sinusoids in the 8 to 12 Hz band per axis, a fraction of a pixel,
 * with slowly drifting amplitude; returns the offset at time t (ms).
 */
export function tremor(rng: Rng): (t: number) => Pt {
  const wave = () => {
    const f = rng.uniform(8, 12) / 1000,
      a = rng.uniform(0.1, 0.5),
      phase = rng.uniform(0, 2 * Math.PI);
    return (t: number) => a * Math.sin(2 * Math.PI * f * t + phase);
  };
  const x1 = wave(),
    x2 = wave(),
    y1 = wave(),
    y2 = wave();
  const drift = rng.uniform(0.3, 1) / 1000;
  return (t) => {
    const gain = 0.7 + 0.3 * Math.sin(2 * Math.PI * drift * t);
    return { x: gain * (x1(t) + x2(t)), y: gain * (y1(t) + y2(t)) };
  };
}
