import { beforeAll, describe, expect, it } from 'vitest';
import { BOT_FAMILIES } from '../../../calibration/bots/families.js';
import { scoreAll, type Scored } from '../../../calibration/pointer/evaluate.js';
import { Rng } from '../../../calibration/random.js';
import { botSamples, type CalibrationKernel } from '../../../calibration/samples.js';
import { defaultTable } from '../../../src/core/scoring/ScoringTable.js';
import { kernelWithFeatures } from '../../core/scoring/kernelWithFeatures.js';

describe('scoreAll: why /verify refused a trace', () => {
  let kernel: CalibrationKernel;
  let scored: Scored[];
  beforeAll(async () => {
    kernel = await kernelWithFeatures();
    const bots = await botSamples(
      kernel,
      new Rng(5),
      12,
      BOT_FAMILIES.filter((f) => f.name === 'linear' || f.name === 'submovements'),
    );
    // The same movement stopped half way: it never reaches the exit, so replay refuses it.
    const cut = { ...bots[0]!, events: bots[0]!.events.slice(0, bots[0]!.events.length >> 1) };
    scored = await scoreAll(kernel, defaultTable, [...bots, cut], defaultTable.threshold);
  });

  it('a trace replay refuses is never scored: no served score, gate or reasons', () => {
    const cut = scored[scored.length - 1]!;
    expect(cut.replays).toBe(false);
    expect(cut.served).toBeNull();
    expect(cut.gate).toBeUndefined();
    expect(cut.reasons).toEqual([]);
  });

  it("a served trace below the threshold carries /verify's reasons, and the gate that refused it alone", () => {
    const refused = scored.filter((s) => s.served !== null && s.served < defaultTable.threshold);
    expect(refused.length).toBeGreaterThan(0);
    for (const s of refused) expect(s.reasons.length).toBeGreaterThan(0);
    const gated = refused.filter((s) => s.gate !== undefined);
    expect(gated.length).toBeGreaterThan(0);
    for (const s of gated) {
      expect(s.gate).toBe('jerk_norm');
      expect(s.served).toBe(0);
      expect(s.reasons[0]).toBe('motion_too_smooth');
    }
    const accepted = scored.filter((x) => x.served !== null && x.served >= defaultTable.threshold);
    expect(accepted.length).toBeGreaterThan(0);
    for (const s of accepted) expect(s.reasons).toEqual([]);
  });
});
