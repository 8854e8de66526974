import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MAX_TABLE_FILE_BYTES, parseScoringTable } from '../scoring/parseScoringTable.js';
import type { ScoringTable } from '../scoring/ScoringTable.js';

/**
 * A site's own scoring table (policy.scoring.table_file), read at start-up and on each reload of
 * the sites file, never while serving: `tableFile` relative to the sites file's folder (absolute
 * as given). Read synchronously, as the sites file's parse is; at most MAX_TABLE_FILE_BYTES.
 * Never throws: an error says what is wrong with the file.
 */
export function loadSiteTable(tableFile: string, sitesFile: string): { ok: true; table: ScoringTable } | { ok: false; error: string } {
  const file = path.resolve(path.dirname(sitesFile), tableFile);
  let text: string;
  try {
    if (statSync(file).size > MAX_TABLE_FILE_BYTES) return { ok: false, error: `${file} is larger than ${MAX_TABLE_FILE_BYTES} bytes` };
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return { ok: false, error: `${file} cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  const parsed = parseScoringTable(text);
  return parsed.ok ? parsed : { ok: false, error: `${file} is not a scoring table: ${parsed.errors.join('; ')}` };
}
