import { describe, expect, it } from 'vitest';
import { MAX_TABLE_GATES, MAX_TABLE_TERMS, ScoringTableSchema } from '../../../src/core/scoring/scoringTableSchema.js';
import { parseScoringTable } from '../../../src/core/scoring/parseScoringTable.js';
import { scoringTables } from '../../../src/core/scoring/ScoringTable.js';

const v3 = scoringTables.v3;
const withMouseTerms = (n: number) => ({
  ...v3,
  types: {
    ...v3.types,
    mouse: { ...v3.types.mouse, terms: Array.from({ length: n }, (_, i) => v3.types.mouse.terms[i % v3.types.mouse.terms.length]) },
  },
});

describe('parseScoringTable', () => {
  it('reads every shipped table', () => {
    for (const table of Object.values(scoringTables)) expect(parseScoringTable(JSON.stringify(table))).toEqual({ ok: true, table });
  });

  it(`takes ${MAX_TABLE_TERMS} terms for one input type, and refuses one more`, () => {
    expect(parseScoringTable(JSON.stringify(withMouseTerms(MAX_TABLE_TERMS))).ok).toBe(true);
    expect(parseScoringTable(JSON.stringify(withMouseTerms(MAX_TABLE_TERMS + 1)))).toEqual({
      ok: false,
      errors: [`types.mouse.terms: Expected array length to be less or equal to ${MAX_TABLE_TERMS}`],
    });
  });

  it('refuses what would make a score not a number: a scale of 0, a negative probe reaction time, a missing input type', () => {
    const term = { ...v3.types.mouse.terms[0]!, scale: 0 };
    const bad = {
      ...v3,
      types: { mouse: { ...v3.types.mouse, terms: [term] }, touch: v3.types.touch, pen: v3.types.pen },
      probe: { minReactionMs: -1, weight: 6 },
    };
    const r = parseScoringTable(JSON.stringify(bad));
    expect(r.ok).toBe(false);
    const errors = r.ok ? [] : r.errors;
    expect(errors).toContain('types.mouse.terms.0.scale: Expected number to be greater than 0');
    expect(errors).toContain('probe.minReactionMs: Expected number to be greater than 0');
    expect(errors.some((e) => e.startsWith('types.keyboard: Expected required property'))).toBe(true);
    expect(ScoringTableSchema.additionalProperties).toBe(false);
  });

  it(`takes ${MAX_TABLE_GATES} gates for one input type, and refuses one more or one on an unknown feature`, () => {
    const gated = (gates: unknown[]) => JSON.stringify({ ...v3, types: { ...v3.types, keyboard: { ...v3.types.keyboard, gates } } });
    const gate = { feature: 'keyboard_gap_spread', below: 0.015 };
    expect(parseScoringTable(gated(Array.from({ length: MAX_TABLE_GATES }, () => gate))).ok).toBe(true);
    expect(parseScoringTable(gated(Array.from({ length: MAX_TABLE_GATES + 1 }, () => gate)))).toEqual({
      ok: false,
      errors: [`types.keyboard.gates: Expected array length to be less or equal to ${MAX_TABLE_GATES}`],
    });
    expect(parseScoringTable(gated([{ feature: 'keyboard_typing_speed', below: 1 }])).ok).toBe(false);
    expect(parseScoringTable(gated([{ ...gate, above: 1 }])).ok).toBe(false);
  });
});
