import { type ScoringTable, scoringTables, type TableVersion } from './ScoringTable.js';

/** enforce: reject below the threshold; shadow: score and log, never reject; off: no scoring. */
export type ScoringMode = 'enforce' | 'shadow' | 'off';

export interface ScoringConfig {
  mode: ScoringMode;
  /**
   * The mode for solves scored as keyboard ones (SCORING_KEYBOARD_MODE); absent: `mode`. The
   * keyboard model rests on a model of people, not on data: `shadow` here lets keyboard users
   * through while pointer solves stay enforced, and the token's input type and score still let
   * the site decide.
   */
  keyboardMode?: ScoringMode;
  threshold: number;
  /** The scoring table's version (SCORING_TABLE). */
  table: TableVersion;
  /**
   * A site's own table (policy.scoring.table_file, loaded with the sites file), scored with
   * instead of `table`'s. Plain data, so it crosses threads with the policy, and part of the
   * policy's digest: a challenge is judged by the table it was issued under.
   */
  siteTable?: ScoringTable;
}

export const DEFAULT_TABLE: TableVersion = 'v3';

/**
 * SCORING_MODE (default enforce), SCORING_KEYBOARD_MODE (default: SCORING_MODE), SCORING_TABLE
 * (default v3) and SCORE_THRESHOLD (default: the calibrated threshold of that table), from the
 * environment. Throws an Error naming the variable for a bad value.
 */
export function parseScoringConfig(env: Readonly<Record<string, string | undefined>>): ScoringConfig {
  const mode = scoringMode(env, 'SCORING_MODE') ?? 'enforce';
  const keyboardMode = scoringMode(env, 'SCORING_KEYBOARD_MODE');
  const tableText = env.SCORING_TABLE?.trim() || DEFAULT_TABLE;
  if (!Object.hasOwn(scoringTables, tableText)) {
    throw new Error(`SCORING_TABLE must be ${Object.keys(scoringTables).join(' or ')}, not ${JSON.stringify(tableText)}`);
  }
  const table = tableText as TableVersion;
  const thresholdText = env.SCORE_THRESHOLD?.trim();
  const threshold = thresholdText ? Number(thresholdText) : scoringTables[table].threshold;
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new Error(`SCORE_THRESHOLD must be a number in [0, 1], not ${JSON.stringify(thresholdText)}`);
  }
  return { mode, ...(keyboardMode === undefined ? {} : { keyboardMode }), threshold, table };
}

function scoringMode(env: Readonly<Record<string, string | undefined>>, name: string): ScoringMode | undefined {
  const text = env[name]?.trim();
  if (!text) return undefined;
  if (text !== 'enforce' && text !== 'shadow' && text !== 'off')
    throw new Error(`${name} must be enforce, shadow or off, not ${JSON.stringify(text)}`);
  return text;
}
