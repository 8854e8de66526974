// The calibration people's distribution shipped with a table (src/core/scoring/drift): the
// quantiles of each kernel feature over the calibration humans exactly as the fit sees them
// (laid on mazes in every laying, each trace with every point and at the deployed widget's 33 ms
// throttle).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PeopleSummary, summarizeFeatures } from '../../src/core/scoring/drift/PeopleSummary.js';
import type { Sample } from '../samples.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where the summary of table `version`'s people ships: beside the table. */
export const peopleFile = (version: string) => path.join(repoRoot, `src/core/scoring/tables/${version}.people.json`);

/** The summary of `humans` (their feature values in `values`) for table `version`. */
export function peopleSummary(version: string, humans: readonly Sample[], values: ReadonlyMap<Sample, Float64Array>): PeopleSummary {
  return summarizeFeatures(
    version,
    humans.map((h) => values.get(h)!),
    new Set(humans.map((h) => h.user)).size,
  );
}

/** Writes the summary beside its table. */
export function writePeopleSummary(summary: PeopleSummary): string {
  const file = peopleFile(summary.table);
  writeFileSync(file, `${JSON.stringify(summary)}\n`);
  return file;
}
