import { describe, expect, it } from 'vitest';
import { demoVerdict } from '../../../src/http/assets/demoVerdict.js';

describe('demoVerdict', () => {
  it('calls a score under the threshold in shadow mode accepted, not passed, with the score to two decimals and the reasons', () => {
    const { text, tone } = demoVerdict({
      valid: true,
      score: 0.002452762455724041,
      mode: 'shadow',
      threshold: 0.5,
      reasons: ['motion_too_smooth'],
    });
    expect(tone).toBe('shadow');
    expect(text).toBe(
      'Accepted only because scoring is in shadow mode: the score 0.00 is under the threshold 0.5 (motion_too_smooth), which enforce mode would refuse.',
    );
    expect(text).not.toContain('passed');
  });

  it('calls a score at or above the threshold a pass, saying when the mode is shadow', () => {
    expect(demoVerdict({ valid: true, score: 0.91234, mode: 'enforce', threshold: 0.5 })).toEqual({
      text: 'The human check passed (score 0.91, threshold 0.5).',
      tone: 'ok',
    });
    expect(demoVerdict({ valid: true, score: 0.5, mode: 'shadow', threshold: 0.5 })).toEqual({
      text: 'The human check passed (score 0.50, threshold 0.5; scoring is in shadow mode, which accepts any score).',
      tone: 'ok',
    });
  });

  it('says no score was measured when scoring is off, and names the error of a refusal', () => {
    expect(demoVerdict({ valid: true, score: 1, mode: 'off', threshold: 0.5 }).text).toContain('scoring is off');
    expect(demoVerdict({ valid: false, score: 0, error: 'token_already_used' })).toEqual({
      text: 'The human check did not pass: token_already_used.',
      tone: 'error',
    });
  });
});
