import { Value } from '@sinclair/typebox/value';
import type { ScoringTable } from './ScoringTable.js';
import { ScoringTableSchema } from './scoringTableSchema.js';

/** Largest scoring table file read, in bytes (the shipped tables are under 30 kB). */
export const MAX_TABLE_FILE_BYTES = 1024 * 1024;

/** Errors reported at once. */
const MAX_REPORTED = 5;

/**
 * The scoring table in `text` (as `ariadne calibrate --fit` writes one), or the reasons it is not
 * one: not JSON, or not of ScoringTableSchema (each error with the field's path). Never throws.
 */
export function parseScoringTable(text: string): { ok: true; table: ScoringTable } | { ok: false; errors: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [`not valid JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const errors = [...Value.Errors(ScoringTableSchema, json)].map((e) => `${e.path.slice(1).replaceAll('/', '.') || 'table'}: ${e.message}`);
  if (errors.length > 0) return { ok: false, errors: [...new Set(errors)].slice(0, MAX_REPORTED) };
  return { ok: true, table: json as ScoringTable };
}
