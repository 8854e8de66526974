import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { calibrationPeople } from '../core/scoring/drift/calibrationPeople.js';
import { acceptedFeatureRows } from '../core/scoring/drift/acceptedFeatureRows.js';
import { compareWithPeople } from '../core/scoring/drift/compareWithPeople.js';
import { type TableVersion, defaultTable, scoringTables } from '../core/scoring/ScoringTable.js';
import type { TraceRecord } from '../core/traffic/traceRecord.js';
import { describeSample } from '../core/scoring/drift/describeSample.js';
import { sampleWarnings } from '../core/scoring/drift/sampleWarnings.js';
import { driftReportHtml } from './driftReportHtml.js';
import type { Output } from './Output.js';
import { writeSiteFit } from './writeSiteFit.js';

export const CALIBRATE_USAGE = `Usage: ariadne calibrate --traces FILE [--out FILE] [--table VERSION] [--fit FILE]
  --help    print this and exit 0
  --traces  the sampled traces (JSON Lines, as downloaded from the dashboard)
  --out     where to write the HTML report (default: beside the traces, FILE.drift-report.html)
  --table   the scoring table whose calibration people to compare with (default ${defaultTable.version})
  --fit     also fit a site table on the accepted pointer traces plus that table's bot families,
            write it to FILE (for policy.scoring.table_file) and print acceptance before and after`;

/**
 * The report beside the traces it reads (`ariadne-traces.jsonl` -> `ariadne-traces.drift-report.html`):
 * where the download already is, not the directory the command runs in (often a checkout, whose
 * .gitignore names both).
 */
function defaultReportPath(traces: string): string {
  return path.join(path.dirname(traces), `${path.basename(traces, path.extname(traces))}.drift-report.html`);
}

/**
 * `ariadne calibrate --traces FILE`: compares the features of the accepted pointer traces of a
 * traces download with the calibration people of a table (compareWithPeople), prints the
 * distance per feature and the features where the traffic sits where calibration had few
 * people, and writes the HTML report; with `--fit`, also a site table (writeSiteFit). Exit code
 * 0; 1 for a file that cannot be used or a fit refused; 2 for usage.
 */
export async function calibrateTraces(args: readonly string[], io: Output): Promise<number> {
  let options: {
    traces?: string | undefined;
    out?: string | undefined;
    table?: string | undefined;
    fit?: string | undefined;
    help?: boolean | undefined;
  };
  try {
    options = parseArgs({
      args: [...args],
      options: {
        traces: { type: 'string' },
        out: { type: 'string' },
        table: { type: 'string' },
        fit: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${CALIBRATE_USAGE}`);
    return 2;
  }
  if (options.help === true) {
    io.out(CALIBRATE_USAGE);
    return 0;
  }
  if (options.traces === undefined) {
    io.err(CALIBRATE_USAGE);
    return 2;
  }
  const version = (options.table ?? defaultTable.version) as TableVersion;
  const table = scoringTables[version];
  const people = calibrationPeople[version];
  if (table === undefined || people === undefined) {
    io.err(`no calibration people ship with table ${JSON.stringify(version)} (have: ${Object.keys(calibrationPeople).join(', ')})`);
    return 1;
  }
  let text: string;
  try {
    text = await readFile(options.traces, 'utf8');
  } catch (e) {
    io.err(`cannot read ${options.traces}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const records: Partial<TraceRecord>[] = [];
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (const [i, line] of lines.entries()) {
    try {
      records.push(JSON.parse(line) as Partial<TraceRecord>);
    } catch {
      io.err(`${options.traces}:${i + 1}: not JSON`);
      return 1;
    }
  }
  const rows = acceptedFeatureRows(records);
  if (rows.length === 0) {
    io.err(`${options.traces}: no accepted pointer trace with features among ${lines.length} lines`);
    return 1;
  }
  const report = compareWithPeople(table, people, rows);
  const facts = describeSample(records, table.threshold);
  const warnings = sampleWarnings(rows.length, facts, table.threshold);
  const out = options.out ?? defaultReportPath(options.traces);
  await writeFile(out, driftReportHtml(report, facts, warnings));
  io.out(
    `${rows.length} accepted pointer traces of ${lines.length} compared with the ${people.traces} calibration traces (${people.users} people) of table ${version}:`,
  );
  io.out(`  ${'feature'.padEnd(24)}${'W1'.padStart(8)}${'KS'.padStart(8)}${'outside'.padStart(10)}`);
  for (const f of report.features) {
    io.out(
      `  ${f.feature.padEnd(24)}${f.wasserstein.toFixed(3).padStart(8)}${f.ks.toFixed(3).padStart(8)}${`${(100 * f.outside).toFixed(1)}%`.padStart(10)}${f.fewPeople ? '  few people here' : ''}`,
    );
  }
  const named = report.features.filter((f) => f.fewPeople).map((f) => f.feature);
  io.out(
    named.length === 0
      ? 'No feature puts more than 10% of the traffic where calibration had few people.'
      : `Traffic sits where calibration had few people on: ${named.join(', ')}`,
  );
  for (const w of warnings) io.out(`Warning: ${w}`);
  io.out(`report written to ${out}`);
  return options.fit === undefined ? 0 : writeSiteFit(version, rows, options.fit, io);
}
