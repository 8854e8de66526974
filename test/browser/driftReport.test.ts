// The drift report `ariadne calibrate` writes, opened in Chromium: axe-core (pinned as a
// devDependency) finds no accessibility violation, and the warnings and axis titles are shown.
// A screenshot goes to test-artifacts/drift-report.png.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftReportHtml } from '../../src/cli/driftReportHtml.js';
import { acceptedFeatureRows } from '../../src/core/scoring/drift/acceptedFeatureRows.js';
import { calibrationPeople } from '../../src/core/scoring/drift/calibrationPeople.js';
import { compareWithPeople } from '../../src/core/scoring/drift/compareWithPeople.js';
import { describeSample } from '../../src/core/scoring/drift/describeSample.js';
import { sampleWarnings } from '../../src/core/scoring/drift/sampleWarnings.js';
import { scoringTables } from '../../src/core/scoring/ScoringTable.js';
import type { TraceRecord } from '../../src/core/traffic/traceRecord.js';
import { FEATURE_NAMES } from '../../src/kernel/features.js';
import { type Browser, findChromium, launchBrowser } from './helpers/browser.js';
import { repoRoot } from './helpers/server.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Twelve accepted traces like the calibration people, five of them let through by shadow mode. */
function report(): string {
  const people = calibrationPeople.v3!;
  const records: Partial<TraceRecord>[] = Array.from({ length: 12 }, (_, i) => ({
    time: `2030-01-01T00:${String(10 + i).padStart(2, '0')}:00.000Z`,
    site: 'shop',
    outcome: 'ok',
    input_type: 'mouse',
    mode: 'shadow',
    score: i < 5 ? 0.02 : 0.9,
    features: Object.fromEntries(FEATURE_NAMES.map((name) => [name, people.features[name]!.quantiles[i * 3]!])),
  }));
  const table = scoringTables.v3;
  const rows = acceptedFeatureRows(records);
  const facts = describeSample(records, table.threshold);
  return driftReportHtml(compareWithPeople(table, people, rows), facts, sampleWarnings(rows.length, facts, table.threshold));
}

describe.skipIf(!findChromium())('the drift report in Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ viewport: { width: 1000, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('has no axe-core violation, one main landmark, its warnings and titled axes', async () => {
    const page = await browser.context.newPage();
    await page.setContent(report());
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'drift-report.png'), fullPage: true });
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(c: Document): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
      return (await axe.run(document)).violations.map((v) => `${v.id} x${v.nodes.length}`);
    });
    expect(violations).toEqual([]);
    expect(await page.getByRole('main').count()).toBe(1);
    const notes = await page.getByRole('note').innerText();
    expect(notes).toContain('Only 12 traces compared');
    expect(notes).toContain('5 of the 12 traces were accepted only because their site scores in shadow mode');
    expect(await page.getByText('Site: shop. Traces from 2030-01-01T00:10:00.000Z to 2030-01-01T00:21:00.000Z').count()).toBe(1);
    await page.close();
  });
});
