import type { DriftReport, FeatureDrift } from '../core/scoring/drift/compareWithPeople.js';
import type { SampleFacts } from '../core/scoring/drift/describeSample.js';
import { QUANTILE_LEVELS } from '../core/scoring/drift/PeopleSummary.js';

const WIDTH = 360;
const HEIGHT = 200;
/** Margins of a plot: room for the y axis's ticks and title on the left, the x axis's below. */
const PAD = 12;
const PAD_LEFT = 44;
const PAD_BOTTOM = 40;
/** The scorer clamps z to [-4, 4]: the plots show that range. */
const Z = 4;

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : 'n/a');

/** One feature's two distribution functions (people, traffic) over the scaled units, as SVG with its axes titled. */
function plot(f: FeatureDrift): string {
  const x = (z: number) => PAD_LEFT + ((Math.max(-Z, Math.min(Z, z)) + Z) / (2 * Z)) * (WIDTH - PAD_LEFT - PAD);
  const y = (p: number) => HEIGHT - PAD_BOTTOM - p * (HEIGHT - PAD - PAD_BOTTOM);
  const line = (quantiles: readonly number[]) =>
    quantiles
      .map((q, i) => (Number.isFinite(q) ? `${x(q).toFixed(1)},${y(QUANTILE_LEVELS[i]!).toFixed(1)}` : ''))
      .filter(Boolean)
      .join(' ');
  const xTicks = [-4, -2, 0, 2, 4]
    .map((z) => `<text x="${x(z)}" y="${HEIGHT - PAD_BOTTOM + 14}" text-anchor="middle">${z}</text>`)
    .join('');
  const yTicks = [0, 0.5, 1].map((p) => `<text x="${PAD_LEFT - 4}" y="${y(p) + 3}" text-anchor="end">${p}</text>`).join('');
  const titles =
    `<text x="${(PAD_LEFT + WIDTH - PAD) / 2}" y="${HEIGHT - 6}" text-anchor="middle">scaled value z (scorer units)</text>` +
    `<text transform="translate(12 ${(PAD + HEIGHT - PAD_BOTTOM) / 2}) rotate(-90)" text-anchor="middle">share at or below</text>`;
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escape(f.feature)}: distribution functions of the calibration people and of your traffic">
<rect x="${PAD_LEFT}" y="${PAD}" width="${WIDTH - PAD_LEFT - PAD}" height="${HEIGHT - PAD - PAD_BOTTOM}" fill="none" stroke="#ccc"/>
<polyline points="${line(f.people)}" fill="none" stroke="#2f6fde" stroke-width="2"/>
<polyline points="${line(f.traffic)}" fill="none" stroke="#d9480f" stroke-width="2"/>
${xTicks}${yTicks}${titles}</svg>`;
}

/** Which sites the traces came from, in words ('' is the one unnamed site of a server without a sites file). */
const siteWords = (sites: readonly string[]) =>
  sites.length === 0 ? 'no site named' : sites.map((s) => (s === '' ? 'every site (no sites file)' : escape(s))).join(', ');

/**
 * A standalone HTML report: what was compared (site, time span, warnings), a table of distances,
 * then each feature's overlaid distributions, all in one `main` landmark.
 */
export function driftReportHtml(report: DriftReport, facts: SampleFacts, warnings: readonly string[]): string {
  const named = report.features.filter((f) => f.fewPeople);
  const rows = report.features
    .map(
      (f) =>
        `<tr${f.fewPeople ? ' class="few"' : ''}><th scope="row">${escape(f.feature)}</th><td>${fixed(f.wasserstein)}</td><td>${fixed(f.ks)}</td><td>${(100 * f.outside).toFixed(1)}%</td></tr>`,
    )
    .join('\n');
  const plots = report.features
    .map((f) => `<figure><figcaption>${escape(f.feature)} (W1 ${fixed(f.wasserstein)}, KS ${fixed(f.ks)})</figcaption>${plot(f)}</figure>`)
    .join('\n');
  const span =
    facts.from === null
      ? 'no time recorded'
      : facts.from === facts.to
        ? `the minute of ${escape(facts.from)}`
        : `${escape(facts.from)} to ${escape(facts.to!)}`;
  const warned =
    warnings.length === 0
      ? ''
      : `<div class="warnings" role="note">${warnings.map((w) => `<p><strong>Warning:</strong> ${escape(w)}</p>`).join('')}</div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ariadne drift report: table ${escape(report.table)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1d2330; }
table { border-collapse: collapse; } td, th { padding: 0.2rem 0.6rem; border-bottom: 1px solid #e3e6ea; text-align: right; }
th:first-child { text-align: left; } tr.few { background: #fff4e6; }
.warnings { border-left: 4px solid #b45309; background: #fffbeb; padding: 0.25rem 1rem; }
.plots { display: flex; flex-wrap: wrap; gap: 1rem; } figure { margin: 0; } figcaption { font-size: 0.85rem; }
svg text { font-size: 10px; fill: #4b5363; } .people { color: #2f6fde; } .traffic { color: #c2410c; }
</style></head><body><main>
<h1>Drift report: your accepted traffic and the calibration people of table ${escape(report.table)}</h1>
<p>Site: ${siteWords(facts.sites)}. Traces from ${span} (UTC, to the minute).</p>
${warned}
<p>${report.traces} accepted pointer traces compared, feature by feature, in the scorer's own units
(z = (transform(value) &minus; center) / scale of the feature's term; the scorer clamps z to &plusmn;4).
W1: Wasserstein-1 distance (the mean shift, in those units); KS: largest gap between the two distribution functions;
outside: the share of your traffic below the people's 1st or above their 99th percentile (2% if it were like them).</p>
<p>${
    named.length === 0
      ? 'No feature puts more than 10% of your traffic where calibration had few people.'
      : `Your traffic sits where calibration had few people on: <strong>${named.map((f) => escape(f.feature)).join(', ')}</strong>.`
  }</p>
<table><caption>Distance of your traffic from the calibration people, per feature</caption>
<thead><tr><th scope="col">feature</th><th scope="col">W1</th><th scope="col">KS</th><th scope="col">outside</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Distribution functions: <span class="people">calibration people</span>, <span class="traffic">your traffic</span></h2>
<div class="plots">
${plots}
</div></main></body></html>
`;
}
