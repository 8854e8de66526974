// `npm run bench`: runs the benchmark sections, prints a table per section and writes all
// of them to bench/results/latest.json and latest.md. `--only <section>` runs one section.
// To make a run the reference, commit its two files as bench/results/baseline.json and .md.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { runKernelBench } from './kernel.js';
import type { Section } from './section.js';

type Runner = () => Promise<Section>;

/**
 * A section living in its own module, exporting `exportName`. The export may return a
 * Section, or a larger result carrying one in `section` (the rest is kept as `detail`).
 */
function optional(specifier: string, exportName: string): Runner {
  return async () => {
    const mod = (await import(specifier)) as Record<string, unknown>;
    const run = mod[exportName];
    if (typeof run !== 'function') throw new Error(`${specifier} does not export ${exportName}`);
    const out = (await run()) as Section | { section: Section };
    if ('rows' in out) return out;
    const { section, ...detail } = out;
    return { ...section, detail };
  };
}

const SECTIONS: Record<string, Runner> = {
  kernel: runKernelBench,
  signature: optional('./signature.js', 'runSignatureBench'),
  http: optional('./http.js', 'runHttpBench'),
  floors: optional('./floors.js', 'runFloorsBench'),
  stages: optional('./verifyStages.js', 'runVerifyStagesBench'),
  keyboard: optional('./keyboardScoring.js', 'runKeyboardScoringBench'),
  dashboard: optional('./dashboardTurns.js', 'runDashboardBench'),
  cluster: optional('./cluster.js', 'runClusterBench'),
  failover: optional('./failover.js', 'runFailoverBench'),
  'keyboard-flood': optional('./keyboardFlood.js', 'runKeyboardFloodBench'),
};

/** Sections run only when named with --only: each takes minutes of real time. */
const ON_REQUEST: ReadonlySet<string> = new Set(['keyboard-flood']);

function format(v: string | number | undefined): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  const abs = Math.abs(v);
  return v.toLocaleString('en-US', { maximumFractionDigits: abs >= 100 ? 0 : abs >= 1 ? 2 : 4 });
}

/** The column names of a section's rows, and every row's formatted values. */
function cellsOf(section: Section): { columns: string[]; cells: string[][] } {
  const columns = ['name', ...new Set(section.rows.flatMap((r) => Object.keys(r).filter((k) => k !== 'name')))];
  return { columns, cells: section.rows.map((r) => columns.map((c) => format(r[c]))) };
}

function printSection(section: Section): void {
  const { columns, cells } = cellsOf(section);
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) => values.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(`\n## ${section.name}`);
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells) console.log(line(row));
  for (const note of section.notes ?? []) console.log(`- ${note}`);
}

function markdownSection(section: Section): string {
  const { columns, cells } = cellsOf(section);
  const row = (values: string[]) => `| ${values.join(' | ')} |`;
  return [
    `## ${section.name}`,
    '',
    row(columns),
    row(columns.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...cells.map(row),
    '',
    ...(section.notes ?? []).map((n) => `- ${n}`),
  ].join('\n');
}

function parseOnly(argv: string[]): string | undefined {
  const at = argv.indexOf('--only');
  const value = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--only='))?.slice(7);
  if (at >= 0 && value === undefined) throw new Error('--only needs a section name');
  if (value !== undefined && !(value in SECTIONS)) throw new Error(`unknown section ${value}; known: ${Object.keys(SECTIONS).join(', ')}`);
  return value;
}

async function main(): Promise<void> {
  const only = parseOnly(process.argv.slice(2));
  const sections: Section[] = [];
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (only !== undefined ? name !== only : ON_REQUEST.has(name)) continue;
    let section: Section;
    try {
      section = await run();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
      if (only !== undefined) throw new Error(`no bench module for section ${name}`, { cause: err });
      console.log(`\n## ${name}\n(skipped: no bench module for this section yet)`);
      continue;
    }
    printSection(section);
    sections.push(section);
  }
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    sections,
  };
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL('latest.json', dir), JSON.stringify(report, null, 2) + '\n');
  const title = `# Benchmarks, ${report.date}\n\nNode ${report.node}, ${report.cores} x ${report.cpu}.\n`;
  await writeFile(new URL('latest.md', dir), [title, ...sections.map(markdownSection)].join('\n\n') + '\n');
  console.log(`\nwrote bench/results/latest.json and latest.md`);
}

await main();
