import type { SampleFacts } from './describeSample.js';

/**
 * Fewest compared traces a drift report reads without a warning. Below it a KS distance is
 * mostly chance: its 95% level for n traces is 1.36/sqrt(n) (0.43 at 10, 0.14 at 100), and the
 * share "outside" the people's 1st-99th percentiles rests on a handful of traces.
 */
export const MIN_TRACES = 100;

/** The KS distance chance alone reaches 5% of the time between n traces and a known distribution. */
export const ksChanceLevel = (n: number): number => 1.36 / Math.sqrt(n);

/** What a drift report must say before its numbers: a sample too small, or not of people alone. */
export function sampleWarnings(traces: number, facts: SampleFacts, threshold: number): string[] {
  const warnings: string[] = [];
  if (traces < MIN_TRACES) {
    warnings.push(
      `Only ${traces} traces compared: with so few, a KS under ${ksChanceLevel(traces).toFixed(2)} is within chance (95%) and ` +
        `"outside" rests on a handful of traces. Compare again with at least ${MIN_TRACES}.`,
    );
  }
  if (facts.shadowOnly > 0) {
    warnings.push(
      `${facts.shadowOnly} of the ${traces} traces were accepted only because their site scores in shadow mode (a score under ${threshold}): ` +
        'enforce mode would have refused them, bots among them, so this sample is not of people alone.',
    );
  }
  return warnings;
}
