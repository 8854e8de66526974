import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrationPeople } from '../../src/core/scoring/drift/calibrationPeople.js';
import { scoringTables } from '../../src/core/scoring/ScoringTable.js';
import { FEATURE_NAMES } from '../../src/kernel/features.js';
import { repoRoot, runAriadne } from '../helpers/cliProcess.js';

const ariadne = (args: string[], cwd: string) => runAriadne(args, { cwd });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ariadne-drift-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A traces download (JSON Lines as the dashboard serves them): accepted pointer traces like the
 * calibration people but with speed_cv five times theirs, plus lines the report must leave out.
 */
async function fixture(): Promise<string> {
  const people = calibrationPeople.v3!;
  const lines = Array.from({ length: 300 }, (_, i) => {
    const features = Object.fromEntries(
      FEATURE_NAMES.map((name) => {
        const q = people.features[name]!.quantiles;
        const v = q[Math.floor(((i + 0.5) / 300) * q.length)]!;
        return [name, name === 'speed_cv' ? v * 5 : v];
      }),
    );
    return {
      v: 1,
      time: '2030-01-01T00:00:00.000Z',
      site: '',
      outcome: 'ok',
      input_type: 'mouse',
      mode: 'shadow',
      score: 0.9,
      reasons: [],
      maze: null,
      cell_size: 40,
      features,
      events: [],
    };
  });
  const refused = { ...lines[0]!, outcome: 'behavioral_rejected', features: Object.fromEntries(FEATURE_NAMES.map((n) => [n, 1e9])) };
  const keyboard = { ...refused, outcome: 'ok', input_type: 'keyboard' };
  const file = path.join(dir, 'traces.jsonl');
  await writeFile(file, [...lines, refused, keyboard].map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('ariadne calibrate --traces', () => {
  it('compares accepted pointer traffic with the calibration people, names the feature that left them, and writes the HTML report', async () => {
    const file = await fixture();
    const r = await ariadne(['calibrate', '--traces', file, '--out', 'report.html'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('300 accepted pointer traces of 302 compared');
    expect(r.stdout).toMatch(/Traffic sits where calibration had few people on: speed_cv\n/);
    // Farthest first.
    expect(r.stdout.split('\n')[2]).toMatch(/^ {2}speed_cv\s/);
    const html = await readFile(path.join(dir, 'report.html'), 'utf8');
    const weighed = new Set(scoringTables.v3.types.mouse.terms.map((t) => t.feature));
    expect(html.match(/<svg /g)).toHaveLength(weighed.size);
    expect(html).toContain('<strong>speed_cv</strong>');
  });

  it('writes the report beside the traces by default, a name the repository ignores, with the site, the time span and a main landmark', async () => {
    const file = await fixture();
    const r = await ariadne(['calibrate', '--traces', file], repoRoot);
    expect(r.code).toBe(0);
    const out = path.join(dir, 'traces.drift-report.html');
    expect(r.stdout).toContain(`report written to ${out}`);
    const html = await readFile(out, 'utf8');
    expect(html).toContain('Site: every site (no sites file).');
    expect(html).toContain('Traces from the minute of 2030-01-01T00:00:00.000Z');
    expect(html.match(/<main>/g)).toHaveLength(1);
    // Every plot titles its axes.
    expect(html.match(/scaled value z \(scorer units\)/g)).toHaveLength(html.match(/<svg /g)!.length);
    expect(html.match(/share at or below/g)).toHaveLength(html.match(/<svg /g)!.length);
    // 300 traces scored 0.9: no warning.
    expect(html).not.toContain('Warning:');
    // Made in a checkout by mistake, neither the report nor a download is committed.
    const ignored = await promisify(execFile)(
      'git',
      ['check-ignore', 'ariadne-traces.jsonl', 'ariadne-traces.drift-report.html', 'drift-report.html'],
      { cwd: repoRoot },
    );
    expect(ignored.stdout.trim().split('\n')).toHaveLength(3);
  });

  it('warns of a tiny sample and of traces accepted only because of shadow mode, in the report and on stdout', async () => {
    const lines = (await readFile(await fixture(), 'utf8'))
      .trim()
      .split('\n')
      .slice(0, 10)
      .map((l) => JSON.parse(l));
    for (const l of lines.slice(0, 4)) Object.assign(l, { site: 'shop', score: 0.01, time: '2030-01-01T00:07:00.000Z' });
    lines[9].time = '2030-01-01T02:30:00.000Z';
    const file = path.join(dir, 'few.jsonl');
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await ariadne(['calibrate', '--traces', file], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Warning: Only 10 traces compared: with so few, a KS under 0.43 is within chance (95%)');
    expect(r.stdout).toContain(
      'Warning: 4 of the 10 traces were accepted only because their site scores in shadow mode (a score under 0.5)',
    );
    const html = await readFile(path.join(dir, 'few.drift-report.html'), 'utf8');
    expect(html).toContain('Site: every site (no sites file), shop.');
    expect(html).toContain('Traces from 2030-01-01T00:00:00.000Z to 2030-01-01T02:30:00.000Z');
    expect(html.match(/<strong>Warning:<\/strong>/g)).toHaveLength(2);
  });

  it('--help (and -h) prints the usage on stdout and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const r = await ariadne(['calibrate', flag], dir);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toContain('Usage: ariadne calibrate --traces FILE');
    }
  });

  it('refuses a missing file, a line that is not JSON and a file without accepted traces (1), and bad usage (2)', async () => {
    expect((await ariadne(['calibrate'], dir)).code).toBe(2);
    expect((await ariadne(['calibrate', '--traces', 'x', '--nope'], dir)).code).toBe(2);
    expect(await ariadne(['calibrate', '--traces', path.join(dir, 'missing.jsonl')], dir)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('cannot read'),
    });
    await writeFile(path.join(dir, 'bad.jsonl'), '{"outcome":"ok"}\nnot json\n');
    expect(await ariadne(['calibrate', '--traces', path.join(dir, 'bad.jsonl')], dir)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('bad.jsonl:2: not JSON'),
    });
    await writeFile(path.join(dir, 'none.jsonl'), '{"outcome":"invalid_path","features":null}\n');
    expect(await ariadne(['calibrate', '--traces', path.join(dir, 'none.jsonl')], dir)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no accepted pointer trace'),
    });
    expect((await ariadne(['calibrate', '--traces', path.join(dir, 'none.jsonl'), '--table', 'v1'], dir)).stderr).toContain(
      'no calibration people ship with table "v1"',
    );
  });
});
