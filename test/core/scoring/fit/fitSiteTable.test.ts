import { beforeAll, describe, expect, it } from 'vitest';
import { featureValues } from '../../../../calibration/pointer/fitCalibration.js';
import { Rng } from '../../../../calibration/random.js';
import { botSamples } from '../../../../calibration/samples.js';
import { acceptedFeatureRows } from '../../../../src/core/scoring/drift/acceptedFeatureRows.js';
import { botFeatureRows } from '../../../../src/core/scoring/fit/BotRows.js';
import { FitRefused, MIN_FIT_TRACES, type SiteFit, fitSiteTable } from '../../../../src/core/scoring/fit/fitSiteTable.js';
import { pointerScore } from '../../../../src/core/scoring/fit/pointerScore.js';
import { shippedBotRows } from '../../../../src/core/scoring/fit/shippedBotRows.js';
import { termContributions } from '../../../../src/core/scoring/scoreFeatures.js';
import { parseScoringTable } from '../../../../src/core/scoring/parseScoringTable.js';
import { scoringTables } from '../../../../src/core/scoring/ScoringTable.js';
import { FEATURE_NAMES } from '../../../../src/kernel/features.js';
import { hasHumans, humanDataFile } from '../../../helpers/humanTraces.js';
import { sampledTraffic } from '../../../helpers/sampledTraffic.js';
import { kernelWithFeatures } from '../kernelWithFeatures.js';

if (!hasHumans) console.warn(`skipping the site fit on sampled people: no human data at ${humanDataFile}`);

const v3 = scoringTables.v3;
const bots = botFeatureRows(shippedBotRows.v3!);
const logit = (p: number) => Math.log(p / (1 - p));

describe.skipIf(!hasHumans)('fitSiteTable on the accepted traffic of held-out people (shadow mode, table v3)', () => {
  let rows: number[][];
  let fit: SiteFit;
  beforeAll(async () => {
    rows = acceptedFeatureRows(await sampledTraffic(300, 3));
    fit = fitSiteTable(v3, rows, bots);
  }, 120_000);

  it('writes a table that loads, weighs what v3 weighs, and keeps PEOPLE_KEPT of the sample or more', () => {
    const loaded = parseScoringTable(JSON.stringify(fit.table));
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    expect(new Set(loaded.table.types.mouse.terms.map((t) => t.feature))).toEqual(new Set(v3.types.mouse.terms.map((t) => t.feature)));
    expect(fit.after.sample.n).toBe(rows.length);
    // Scored as /verify would, with the written table at its own threshold.
    const accepted = rows.filter((r) => pointerScore(loaded.table, Float64Array.from(r)) >= loaded.table.threshold).length;
    expect(accepted).toBe(fit.after.sample.accepted);
    expect(accepted / rows.length).toBeGreaterThanOrEqual(0.99);
    expect(fit.after.sample.accepted).toBeGreaterThanOrEqual(fit.before.sample.accepted);
  });

  it('accepts no shipped bot family more often than v3 does', () => {
    expect(Object.keys(fit.after.families)).toEqual([...bots.keys()]);
    for (const [family, after] of Object.entries(fit.after.families)) {
      expect({ family, accepted: after.accepted }).toEqual({
        family,
        accepted: Math.min(after.accepted, fit.before.families[family]!.accepted),
      });
    }
  });

  it('holds bot families it never saw (another seed) about where v3 holds them', async () => {
    const kernel = await kernelWithFeatures();
    const fresh = await botSamples(kernel, new Rng(11), 40);
    const values = featureValues(kernel, fresh);
    const acceptedBy = (table: typeof v3) => fresh.filter((b) => pointerScore(table, values.get(b)!) >= table.threshold).length;
    // v3 lets about 0.4% of these through; the fit, shipped rows in, may not let through much more.
    expect(acceptedBy(fit.table)).toBeLessThanOrEqual(Math.max(4, 2 * acceptedBy(v3)));
  }, 60_000);

  it("keeps v3's recipe: bounded geometry cannot reject a person alone, signed terms only lower, keyboard verdicts unchanged", () => {
    const model = fit.table.types.mouse;
    expect(model.boundedFloor).toBe(v3.types.mouse.boundedFloor);
    // The smoothness gate as shipped: the sample passed it, so a bound read from it would rise.
    expect(v3.types.mouse.gates?.length).toBeGreaterThan(0);
    expect(model.gates).toEqual(v3.types.mouse.gates);
    expect(new Set(model.terms.filter((t) => t.bounded).map((t) => t.feature))).toEqual(
      new Set(v3.types.mouse.terms.filter((t) => t.bounded).map((t) => t.feature)),
    );
    expect(model.terms.filter((t) => !t.fold).every((t) => t.onlyLowers)).toBe(true);
    // Traces at the sample's median on every weighed feature but corridor geometry, which sits
    // far out on one side or the other: the bounded terms lower the score, never past their
    // floor, and the person passes.
    const lowered: number[] = [];
    for (const side of [-1, 1]) {
      const trace = new Float64Array(FEATURE_NAMES.length);
      for (const term of model.terms) {
        const z = term.bounded ? side * 50 : 0;
        const x = term.center + z * term.scale;
        trace[FEATURE_NAMES.indexOf(term.feature as (typeof FEATURE_NAMES)[number])] = term.transform === 'log' ? Math.exp(x) - 0.01 : x;
      }
      const parts = termContributions(model, { kernel: trace });
      const bounded = model.terms.reduce((sum, term, i) => sum + (term.bounded ? parts[i]! : 0), 0);
      expect(bounded).toBeGreaterThanOrEqual(-model.boundedFloor! - 1e-9);
      lowered.push(bounded);
      expect(pointerScore(fit.table, trace)).toBeGreaterThanOrEqual(fit.table.threshold);
    }
    expect(Math.min(...lowered)).toBeLessThan(-0.5);
    expect(model.bias - model.boundedFloor!).toBeGreaterThan(logit(fit.table.threshold));
    expect(fit.table.types.keyboard.bias - logit(fit.table.threshold)).toBeCloseTo(v3.types.keyboard.bias - logit(v3.threshold), 12);
    expect(fit.table.probe).toEqual(v3.probe);
  });

  it(`refuses a sample of fewer than ${MIN_FIT_TRACES} usable traces, and takes exactly ${MIN_FIT_TRACES}`, () => {
    expect(() => fitSiteTable(v3, rows.slice(0, MIN_FIT_TRACES - 1), bots)).toThrow(FitRefused);
    expect(() => fitSiteTable(v3, rows.slice(0, MIN_FIT_TRACES - 1), bots)).toThrow(`at least ${MIN_FIT_TRACES} accepted pointer traces`);
    // A trace without a value for a weighed feature is not usable: 200 rows, one of them without.
    const holed = rows.slice(0, MIN_FIT_TRACES).map((r, i) => (i === 0 ? r.map((v, s) => (FEATURE_NAMES[s] === 'speed_cv' ? NaN : v)) : r));
    expect(() => fitSiteTable(v3, holed, bots)).toThrow(`the sample has ${MIN_FIT_TRACES - 1}`);
    expect(fitSiteTable(v3, rows.slice(0, MIN_FIT_TRACES), bots).after.sample.n).toBe(MIN_FIT_TRACES);
  }, 60_000);
});
