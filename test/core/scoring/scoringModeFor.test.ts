import { describe, expect, it } from 'vitest';
import { scoringModeFor } from '../../../src/core/scoring/scoringModeFor.js';

describe('scoringModeFor', () => {
  it('gives a keyboard solve the keyboard mode, every other solve the mode', () => {
    const scoring = { mode: 'enforce', keyboardMode: 'shadow' } as const;
    expect(scoringModeFor(scoring, 'keyboard')).toBe('shadow');
    for (const t of ['mouse', 'touch', 'pen', undefined]) expect(scoringModeFor(scoring, t)).toBe('enforce');
  });

  it('gives a keyboard solve the mode when no keyboard mode is set', () => {
    expect(scoringModeFor({ mode: 'off' }, 'keyboard')).toBe('off');
  });
});
