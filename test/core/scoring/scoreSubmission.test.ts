import { beforeAll, describe, expect, it } from 'vitest';
import { defaultTable, scoringTables, type ScoringTable } from '../../../src/core/scoring/ScoringTable.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import { TraceFingerprints } from '../../../src/core/scoring/TraceFingerprints.js';
import { inferInputType } from '../../../src/core/scoring/inferInputType.js';
import { parseScoringConfig } from '../../../src/core/scoring/parseScoringConfig.js';
import { termContributions } from '../../../src/core/scoring/scoreFeatures.js';
import { scoreSubmission } from '../../../src/core/scoring/scoreSubmission.js';
import { FEATURE_NAMES } from '../../../src/kernel/features.js';
import { KEYBOARD_FEATURE_NAMES } from '../../../src/core/scoring/keyboard/measureKeyboard.js';
import { packEvents, type MazeParams, type RawEvent } from '../../../src/kernel/index.js';
import type { CalibrationKernel } from '../../../calibration/samples.js';
import { botEvents } from '../../../calibration/bots/scriptedMovers.js';
import { Rng } from '../../../calibration/random.js';
import { kernelWithFeatures } from './kernelWithFeatures.js';
import { INDEPENDENT_GAP_FAMILIES, HOLD_STYLES } from '../../../calibration/keyboard/keyboardBots.js';
import { modelledPersonAtKeys, scriptAtKeys } from '../../helpers/keyboardSolves.js';
import { KEYBOARD_PEOPLE } from '../../../calibration/keyboard/keyboardPeople.js';

const maze: MazeParams = { seed: 424242, width: 6, height: 6, difficulty: 0.5 };
const ARROWS: Record<string, string> = { '1,0': 'ArrowRight', '-1,0': 'ArrowLeft', '0,1': 'ArrowDown', '0,-1': 'ArrowUp' };

let kernel: CalibrationKernel;
beforeAll(async () => {
  kernel = await kernelWithFeatures();
});

/** Arrow-key solve: a keydown at each solution cell's centre (maze fractions), `gap(i)` ms apart. */
function keyboardSolve(gap: (i: number) => number): RawEvent[] {
  const cells = kernel.generateMaze(maze).solution;
  let t = 0;
  return cells.slice(1).map((c, i) => {
    const prev = cells[i]!;
    t += gap(i);
    const key = ARROWS[`${c.x - prev.x},${c.y - prev.y}`]!;
    return { x: (c.x + 0.5) / maze.width, y: (c.y + 0.5) / maze.height, t, type: 'keydown', key };
  });
}

const newFingerprints = () => new TraceFingerprints(new MemoryStore({ maxMarkers: 10, maxCounters: 10 }));

function score(events: RawEvent[], fingerprints = newFingerprints(), probeReactionsMs?: number[]) {
  return scoreSubmission(
    { kernel, fingerprints },
    { maze, cellSize: 40, events: packEvents(events), rawEvents: events, ...(probeReactionsMs ? { probeReactionsMs } : {}) },
  );
}

/** The modelled person's solve of `maze` (seed 3, which the table accepts: see the first test). */
const personAtKeys = () => modelledPersonAtKeys(kernel.generateMaze(maze), 3);

/** How many of 100 scripted keyboard solves of `family` (every hold style, default mazes) `table` accepts. */
async function scriptsAccepted(table: ScoringTable, family: (typeof INDEPENDENT_GAP_FAMILIES)[number]): Promise<number> {
  let accepted = 0;
  for (let seed = 1; seed <= 100; seed++) {
    const m = kernel.generateMaze({ seed: seed * 104_729, width: 8, height: 8, difficulty: 0.3 });
    const events = scriptAtKeys(m, family, HOLD_STYLES[seed % HOLD_STYLES.length]!, seed);
    const r = await scoreSubmission(
      { kernel, table, fingerprints: newFingerprints() },
      { maze: m, cellSize: 40, events: packEvents(events), rawEvents: events },
    );
    expect(r.inputType).toBe('keyboard');
    if (r.score >= table.threshold) accepted++;
    else expect(r.reasons.length).toBeGreaterThan(0);
  }
  return accepted;
}

/** The script families table v2's keyboard model was fitted against. */
const V2_FAMILIES = ['constant', 'uniform', 'gaussian', 'exponential', 'lognormal'] as const;

describe('scoreSubmission', () => {
  it('accepts a (modelled) person solving with arrow keys, whatever input_type claims', async () => {
    const claimed = personAtKeys().map((e) => ({ ...e, input_type: 'mouse' }));
    const r = await score(claimed);
    expect(r.inputType).toBe('keyboard');
    expect(r.duplicate).toBe(false);
    expect(r.score).toBeGreaterThanOrEqual(defaultTable.threshold);
    expect(r.reasons).toEqual([]);
  });

  it('accepts the human keyboard model on most mazes, from both widgets', async () => {
    let accepted = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const m = kernel.generateMaze({ seed: seed * 7919, width: 8, height: 8, difficulty: 0.3 });
      const events = modelledPersonAtKeys(m, seed, seed % 2 === 0 ? 'ours' : 'deployed');
      const r = await scoreSubmission(
        { kernel, fingerprints: newFingerprints() },
        { maze: m, cellSize: 40, events: packEvents(events), rawEvents: events },
      );
      if (r.score >= defaultTable.threshold) accepted++;
    }
    expect(accepted).toBeGreaterThanOrEqual(38);
  });

  // v3 places its keyboard bias for people (PEOPLE_FIRST_SHARE, fitKeyboardModel.ts): every
  // people model, screen-reader explorers, switch scanning and sip-and-puff users included, is
  // accepted. Here 100 held-out solves of each (seeds the calibration does not use), both widgets.
  it.each(KEYBOARD_PEOPLE)('accepts modelled %s keyboard users, at least 97 of 100', async (kind) => {
    let accepted = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const m = kernel.generateMaze({ seed: seed * 6151, width: 8, height: 8, difficulty: 0.3 });
      const events = modelledPersonAtKeys(m, 70_000 + seed, seed % 2 === 0 ? 'ours' : 'deployed', kind);
      const r = await scoreSubmission(
        { kernel, fingerprints: newFingerprints() },
        { maze: m, cellSize: 40, events: packEvents(events), rawEvents: events },
      );
      expect(r.inputType).toBe('keyboard');
      if (r.score >= defaultTable.threshold) accepted++;
    }
    expect(accepted).toBeGreaterThanOrEqual(97);
  });

  // Table v2's keyboard model: at most 2% accepted per family of the scripts it was fitted
  // against (calibration/README.md "Keyboard"): here 100 solves each, every hold style.
  it.each(V2_FAMILIES)('v2 rejects arrow keys pressed with independent %s gaps, with or without keyups', async (family) => {
    expect(await scriptsAccepted(scoringTables.v2, family)).toBeLessThanOrEqual(2);
  });

  // People first costs v3 most scripts that send keyups and vary their gaps (docs/keyboard-solves.md).
  // What it still refuses whatever the bias: its gates, a machine's signatures no modelled person shows.
  it.each(INDEPENDENT_GAP_FAMILIES.filter((f) => f !== 'shuffled-person'))(
    'v3 refuses every %s script that sends no keyups, by its gate',
    async (family) => {
      for (let seed = 1; seed <= 30; seed++) {
        const m = kernel.generateMaze({ seed: seed * 104_729, width: 8, height: 8, difficulty: 0.3 });
        const events = scriptAtKeys(m, family, 'none', seed);
        const r = await scoreSubmission(
          { kernel, fingerprints: newFingerprints() },
          { maze: m, cellSize: 40, events: packEvents(events), rawEvents: events },
        );
        expect(r.score).toBe(0);
        expect(r.reasons[0]).toBe('keyboard_keyups_missing');
      }
    },
  );

  it('v3 refuses keys pressed at one fixed rhythm, keys released or not, by its gate', async () => {
    let refused = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const m = kernel.generateMaze({ seed: seed * 104_729, width: 8, height: 8, difficulty: 0.3 });
      const events = scriptAtKeys(m, 'constant', HOLD_STYLES[seed % HOLD_STYLES.length]!, seed);
      const r = await scoreSubmission(
        { kernel, fingerprints: newFingerprints() },
        { maze: m, cellSize: 40, events: packEvents(events), rawEvents: events },
      );
      if (r.score === 0 && (r.reasons[0] === 'timing_too_regular' || r.reasons[0] === 'keyboard_keyups_missing')) refused++;
    }
    // Measured 96.3% over 600 (npm run calibrate:keyboard): a jitter of up to 5 ms on a short gap
    // can pass the gap gate.
    expect(refused).toBeGreaterThanOrEqual(54);
  });

  it('still loads table v1 unchanged, which scores keyboard solves on their timing regularity alone', async () => {
    expect(defaultTable.version).toBe('v3');
    expect(scoringTables.v1.types.keyboard.terms.map((t) => t.feature)).toEqual(['interval_cv']);
    const events = scriptAtKeys(kernel.generateMaze(maze), 'uniform', 'random', 1);
    const r = await scoreSubmission(
      { kernel, fingerprints: newFingerprints(), table: scoringTables.v1 },
      { maze, cellSize: 40, events: packEvents(events), rawEvents: events },
    );
    // v1 lets this script through; v2 does not.
    expect(r.score).toBeGreaterThanOrEqual(scoringTables.v1.threshold);
    const v2 = await scoreSubmission(
      { kernel, fingerprints: newFingerprints(), table: scoringTables.v2 },
      { maze, cellSize: 40, events: packEvents(events), rawEvents: events },
    );
    expect(v2.score).toBeLessThan(scoringTables.v2.threshold);
  });

  it('rejects keystrokes at a machine-regular rhythm', async () => {
    const r = await score(keyboardSolve(() => 100));
    expect(r.inputType).toBe('keyboard');
    expect(r.score).toBeLessThan(defaultTable.threshold);
    expect(r.reasons).toContain('keyboard_keyups_missing');
  });

  it('rejects scripted pointer movers', async () => {
    const rng = new Rng(99);
    for (const family of ['linear', 'bezier', 'minjerk', 'windmouse'] as const) {
      const r = await score(botEvents(family, rng, kernel.generateMaze(maze)));
      expect(r.inputType).toBe('mouse');
      expect(r.score, family).toBeLessThan(defaultTable.threshold);
    }
  });

  it('keeps v1 working beside v2: its terms are found by name among the appended features', async () => {
    const measured: readonly string[] = [...FEATURE_NAMES, ...KEYBOARD_FEATURE_NAMES];
    for (const table of Object.values(scoringTables)) {
      for (const model of Object.values(table.types)) for (const term of model.terms) expect(measured).toContain(term.feature);
    }
    const v2Only = scoringTables.v2.types.mouse.terms.filter(
      (t) => !scoringTables.v1.types.mouse.terms.some((u) => u.feature === t.feature),
    );
    expect(new Set(v2Only.map((t) => t.feature))).toEqual(new Set(['speed_roughness', 'step_roughness']));
    const events = botEvents('linear', new Rng(5), kernel.generateMaze(maze));
    const input = { maze, cellSize: 40, events: packEvents(events), rawEvents: events };
    const v1 = await scoreSubmission({ kernel, table: scoringTables.v1, fingerprints: newFingerprints() }, input);
    const v2 = await scoreSubmission({ kernel, table: scoringTables.v2, fingerprints: newFingerprints() }, input);
    expect(v1.score).toBeLessThan(scoringTables.v1.threshold);
    expect(v2.score).toBeLessThan(scoringTables.v2.threshold);
    expect(v1.score).not.toBe(v2.score);
  });

  it('a folded term counts the distance from the centre either way; a plain term its signed z', () => {
    const values = new Float64Array(FEATURE_NAMES.length);
    const slot = FEATURE_NAMES.indexOf('speed_cv');
    const term = { feature: 'speed_cv', transform: 'identity', center: 1, scale: 0.5, weight: -2 } as const;
    const logit = (v: number, fold: boolean) => {
      values[slot] = v;
      return termContributions({ bias: 0, terms: [{ ...term, fold }] }, { kernel: values })[0]!;
    };
    expect(logit(1.5, true)).toBeCloseTo(-2, 12);
    expect(logit(0.5, true)).toBeCloseTo(-2, 12);
    expect(logit(0.5, false)).toBeCloseTo(2, 12);
    // Clipped at 4 either way; a value that is not a number counts fully against.
    expect(logit(100, true)).toBeCloseTo(-8, 12);
    expect(logit(Number.NaN, true)).toBeCloseTo(-8, 12);
    expect(logit(Number.NaN, false)).toBeCloseTo(-8, 12);
  });

  it('scores a copy of an accepted trace 0, even shifted in time and re-timed', async () => {
    const fingerprints = newFingerprints();
    const events = personAtKeys();
    expect((await score(events, fingerprints)).score).toBeGreaterThanOrEqual(defaultTable.threshold);
    const copy = events.map((e) => ({ ...e, t: 5000 + e.t * 1.1 }));
    const again = await score(copy, fingerprints);
    expect(again.duplicate).toBe(true);
    expect(again.score).toBe(0);
    expect(again.reasons[0]).toBe('duplicate_trace');
    const other = await score(modelledPersonAtKeys(kernel.generateMaze(maze), 4), fingerprints);
    expect(other.duplicate).toBe(false);
  });

  it('does not remember rejected traces', async () => {
    const fingerprints = newFingerprints();
    const regular = keyboardSolve(() => 100);
    await score(regular, fingerprints);
    expect((await score(regular, fingerprints)).duplicate).toBe(false);
  });

  it('lowers the score for probe reactions faster than a person can react', async () => {
    const events = personAtKeys();
    const base = (await score(events)).score;
    expect((await score(events, newFingerprints(), [700, 1200])).score).toBeCloseTo(base, 12);
    const fast = await score(events, newFingerprints(), [40]);
    expect(fast.score).toBeLessThan(defaultTable.threshold);
    expect(fast.reasons[0]).toBe('probe_reaction_too_fast');
  });
});

describe('inferInputType', () => {
  const move = (pointer_type?: string): RawEvent => ({ x: 0.1, y: 0.1, t: 0, type: 'move', ...(pointer_type ? { pointer_type } : {}) });
  const key: RawEvent = { x: 0.1, y: 0.1, t: 0, type: 'keydown', key: 'ArrowRight' };
  it('reads the events, not claims', () => {
    expect(inferInputType([move(), move()])).toBe('mouse');
    expect(inferInputType([move('touch'), move('touch'), move('mouse')])).toBe('touch');
    expect(inferInputType([move('pen'), move('pen')])).toBe('pen');
    expect(inferInputType([key, key, move()])).toBe('keyboard');
    expect(inferInputType([key, move()])).toBe('mouse');
    expect(inferInputType([])).toBe('mouse');
  });
});

describe('parseScoringConfig', () => {
  it('defaults to enforce with table v3 at its calibrated threshold', () => {
    expect(defaultTable).toBe(scoringTables.v3);
    expect(parseScoringConfig({})).toEqual({ mode: 'enforce', threshold: scoringTables.v3.threshold, table: 'v3' });
  });
  it('reads SCORING_MODE, SCORING_TABLE and SCORE_THRESHOLD', () => {
    expect(parseScoringConfig({ SCORING_MODE: 'shadow', SCORE_THRESHOLD: '0.3' })).toEqual({ mode: 'shadow', threshold: 0.3, table: 'v3' });
    expect(parseScoringConfig({ SCORING_MODE: 'off' }).mode).toBe('off');
    // v1 and v2 stay selectable, with its own calibrated threshold unless one is given.
    expect(parseScoringConfig({ SCORING_TABLE: 'v1' })).toEqual({ mode: 'enforce', threshold: scoringTables.v1.threshold, table: 'v1' });
    expect(parseScoringConfig({ SCORING_TABLE: ' v1 ', SCORE_THRESHOLD: '0.7' })).toEqual({ mode: 'enforce', threshold: 0.7, table: 'v1' });
    expect(parseScoringConfig({ SCORING_TABLE: 'v2' })).toEqual({ mode: 'enforce', threshold: scoringTables.v2.threshold, table: 'v2' });
  });
  it('reads SCORING_KEYBOARD_MODE, the mode of keyboard solves, absent unless set (then SCORING_MODE applies)', () => {
    expect(parseScoringConfig({})).not.toHaveProperty('keyboardMode');
    expect(parseScoringConfig({ SCORING_KEYBOARD_MODE: ' shadow ' })).toEqual({
      mode: 'enforce',
      keyboardMode: 'shadow',
      threshold: scoringTables.v3.threshold,
      table: 'v3',
    });
    expect(parseScoringConfig({ SCORING_MODE: 'shadow', SCORING_KEYBOARD_MODE: 'enforce' })).toMatchObject({
      mode: 'shadow',
      keyboardMode: 'enforce',
    });
    expect(() => parseScoringConfig({ SCORING_KEYBOARD_MODE: 'lenient' })).toThrow(/SCORING_KEYBOARD_MODE/);
  });
  it('refuses bad values by name', () => {
    expect(() => parseScoringConfig({ SCORING_TABLE: 'v4' })).toThrow(/SCORING_TABLE/);
    expect(() => parseScoringConfig({ SCORING_TABLE: 'toString' })).toThrow(/SCORING_TABLE/);
    expect(() => parseScoringConfig({ SCORING_MODE: 'strict' })).toThrow(/SCORING_MODE/);
    expect(() => parseScoringConfig({ SCORE_THRESHOLD: '1.5' })).toThrow(/SCORE_THRESHOLD/);
    expect(() => parseScoringConfig({ SCORE_THRESHOLD: 'high' })).toThrow(/SCORE_THRESHOLD/);
  });
});
