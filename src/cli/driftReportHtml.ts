import type { DriftReport, FeatureDrift } from '../core/scoring/drift/compareWithPeople.js';
import { QUANTILE_LEVELS } from '../core/scoring/drift/PeopleSummary.js';

const WIDTH = 360;
const HEIGHT = 180;
const PAD = 28;
/** The scorer clamps z to [-4, 4]: the plots show that range. */
const Z = 4;

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const fixed = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : 'n/a');

/** One feature's two distribution functions (people, traffic) over the scaled units, as SVG. */
function plot(f: FeatureDrift): string {
  const x = (z: number) => PAD + ((Math.max(-Z, Math.min(Z, z)) + Z) / (2 * Z)) * (WIDTH - 2 * PAD);
  const y = (p: number) => HEIGHT - PAD - p * (HEIGHT - 2 * PAD);
  const line = (quantiles: readonly number[]) =>
    quantiles
      .map((q, i) => (Number.isFinite(q) ? `${x(q).toFixed(1)},${y(QUANTILE_LEVELS[i]!).toFixed(1)}` : ''))
      .filter(Boolean)
      .join(' ');
  const ticks = [-4, -2, 0, 2, 4].map((z) => `<text x="${x(z)}" y="${HEIGHT - 8}" text-anchor="middle">${z}</text>`).join('');
  return `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escape(f.feature)}">
<rect x="${PAD}" y="${PAD}" width="${WIDTH - 2 * PAD}" height="${HEIGHT - 2 * PAD}" fill="none" stroke="#ccc"/>
<polyline points="${line(f.people)}" fill="none" stroke="#2f6fde" stroke-width="2"/>
<polyline points="${line(f.traffic)}" fill="none" stroke="#d9480f" stroke-width="2"/>
${ticks}</svg>`;
}

/** A standalone HTML report: a table of distances, then each feature's overlaid distributions. */
export function driftReportHtml(report: DriftReport): string {
  const named = report.features.filter((f) => f.fewPeople);
  const rows = report.features
    .map(
      (f) =>
        `<tr${f.fewPeople ? ' class="few"' : ''}><td>${escape(f.feature)}</td><td>${fixed(f.wasserstein)}</td><td>${fixed(f.ks)}</td><td>${(100 * f.outside).toFixed(1)}%</td></tr>`,
    )
    .join('\n');
  const plots = report.features
    .map((f) => `<figure><figcaption>${escape(f.feature)} (W1 ${fixed(f.wasserstein)}, KS ${fixed(f.ks)})</figcaption>${plot(f)}</figure>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Ariadne drift report: table ${escape(report.table)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1d2330; }
table { border-collapse: collapse; } td, th { padding: 0.2rem 0.6rem; border-bottom: 1px solid #e3e6ea; text-align: right; }
td:first-child, th:first-child { text-align: left; } tr.few { background: #fff4e6; }
.plots { display: flex; flex-wrap: wrap; gap: 1rem; } figure { margin: 0; } figcaption { font-size: 0.85rem; }
svg text { font-size: 10px; fill: #5b6475; } .people { color: #2f6fde; } .traffic { color: #d9480f; }
</style></head><body>
<h1>Drift report: your accepted traffic and the calibration people of table ${escape(report.table)}</h1>
<p>${report.traces} accepted pointer traces compared, feature by feature, in the scorer's own units
(z = (transform(value) &minus; center) / scale of the feature's term; the scorer clamps z to &plusmn;4).
W1: Wasserstein-1 distance (the mean shift, in those units); KS: largest gap between the two distribution functions;
outside: the share of your traffic below the people's 1st or above their 99th percentile (2% if it were like them).</p>
<p>${
    named.length === 0
      ? 'No feature puts more than 10% of your traffic where calibration had few people.'
      : `Your traffic sits where calibration had few people on: <strong>${named.map((f) => escape(f.feature)).join(', ')}</strong>.`
  }</p>
<table><thead><tr><th>feature</th><th>W1</th><th>KS</th><th>outside</th></tr></thead><tbody>
${rows}
</tbody></table>
<h2>Distribution functions: <span class="people">calibration people</span>, <span class="traffic">your traffic</span></h2>
<div class="plots">
${plots}
</div></body></html>
`;
}
