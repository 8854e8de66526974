import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_FIT_TRACES } from '../../src/core/scoring/fit/fitSiteTable.js';
import { shippedBotRows } from '../../src/core/scoring/fit/shippedBotRows.js';
import { parseScoringTable } from '../../src/core/scoring/parseScoringTable.js';
import type { TraceRecord } from '../../src/core/traffic/traceRecord.js';
import { runAriadne } from '../helpers/cliProcess.js';
import { hasHumans } from '../helpers/humanTraces.js';
import { sampledTraffic } from '../helpers/sampledTraffic.js';

const ariadne = (args: string[], cwd: string) => runAriadne(args, { cwd, timeoutMs: 60_000 });

let dir: string;
let records: TraceRecord[];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ariadne-fit-'));
  if (hasHumans) records = await sampledTraffic(300, 3);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const jsonLines = (xs: readonly unknown[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
/** `ariadne calibrate --fit`'s line for a row: name, before (n/N p%), after (n/N p%). */
const rowOf = (stdout: string, name: string) => {
  const m = new RegExp(`^ {2}${name.replace(/[-]/g, '\\-')}\\s+(\\d+)/(\\d+) [\\d.]+%\\s+(\\d+)/(\\d+) [\\d.]+%$`, 'm').exec(stdout);
  if (m === null) throw new Error(`no row for ${name} in\n${stdout}`);
  const [before, n, after, n2] = m.slice(1).map(Number);
  return { before: before!, after: after!, n: n!, n2: n2! };
};

describe.skipIf(!hasHumans)('ariadne calibrate --traces FILE --fit OUT', () => {
  it('writes a site table fitted on the accepted traffic plus the shipped bot families, and prints acceptance before and after', async () => {
    const refused = { ...records[0]!, outcome: 'behavioral_rejected' };
    const file = path.join(dir, 'traces.jsonl');
    await writeFile(file, jsonLines([...records, refused]));
    const r = await ariadne(['calibrate', '--traces', file, '--out', 'report.html', '--fit', 'site-table.json'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `site table v3-site fitted on ${records.length} accepted pointer traces and 10 bot families (1500 bots); written to site-table.json`,
    );
    const table = parseScoringTable(await readFile(path.join(dir, 'site-table.json'), 'utf8'));
    if (!table.ok) throw new Error(table.errors.join('\n'));
    expect(r.stdout).toMatch(new RegExp(`accepted\\s+v3 at 0\\.5\\s+fitted at ${table.table.threshold}\\n`));
    const sample = rowOf(r.stdout, 'your sample');
    expect(sample.n).toBe(records.length);
    expect(sample.after / sample.n).toBeGreaterThanOrEqual(0.99);
    for (const family of Object.keys(shippedBotRows.v3!.families)) {
      const row = rowOf(r.stdout, family);
      expect({ family, n: row.n, n2: row.n2 }).toEqual({ family, n: 150, n2: 150 });
      expect(row.after).toBeLessThanOrEqual(row.before);
    }
  }, 120_000);

  it(`refuses to fit on fewer than ${MIN_FIT_TRACES} accepted traces (exit 1, nothing written)`, async () => {
    const file = path.join(dir, 'few.jsonl');
    await writeFile(file, jsonLines(records.slice(0, MIN_FIT_TRACES - 1)));
    const r = await ariadne(['calibrate', '--traces', file, '--out', 'few.html', '--fit', 'few-table.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `no site table written: a site fit needs at least ${MIN_FIT_TRACES} accepted pointer traces with every weighed feature; the sample has ${MIN_FIT_TRACES - 1}`,
    );
    await expect(access(path.join(dir, 'few-table.json'))).rejects.toThrow();
  }, 60_000);
});
