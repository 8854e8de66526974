import { acceptedByScorer, acceptedEndToEnd, type Scored } from './evaluate.js';
import type { Capture } from '../samples.js';

const COLOURS: Record<string, string> = {
  human: '#1f77b4',
  linear: '#d62728',
  bezier: '#ff7f0e',
  minjerk: '#9467bd',
  windmouse: '#8c564b',
  'ghost-cursor': '#e377c2',
  hero: '#bcbd22',
  'windmouse-npm': '#17becf',
  submovements: '#2ca02c',
  'power-law': '#393b79',
  replay: '#7f7f7f',
};
const BINS = 25;

/**
 * An SVG of the scorer's score distributions (left: share of traces per score bin, log scale)
 * and the trade-off across thresholds (right: human acceptance against the worst bot family's),
 * by the scorer alone and end to end (path replay, then the score).
 */
export function drawReport(scoredBy: Readonly<Record<Capture, readonly Scored[]>>, threshold: number): string {
  const scored = scoredBy.native;
  const kinds = Object.keys(COLOURS).filter((k) => scored.some((s) => s.sample.kind === k));
  const byKind = new Map(kinds.map((k) => [k, scored.filter((s) => s.sample.kind === k)]));
  const W = 420,
    H = 300,
    pad = 45;
  const legendRows = Math.ceil(kinds.length / 3);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W + 20}" height="${H + 40 + 16 * legendRows}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
  ];
  // Left: histograms, y = log10 share from 1e-3 to 1.
  const x0 = pad,
    y0 = 30,
    pw = W - pad - 10,
    ph = H - 50;
  const sx = (s: number) => x0 + s * pw;
  const sy = (share: number) => y0 + ph - ((Math.log10(Math.max(share, 1e-3)) + 3) / 3) * ph;
  out.push(`<text x="${x0}" y="18">Scorer alone: score distribution (held-out)</text>`);
  out.push(`<rect x="${x0}" y="${y0}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  for (const e of [1e-3, 1e-2, 1e-1, 1]) out.push(`<text x="${x0 - 4}" y="${sy(e) + 4}" text-anchor="end">${e}</text>`);
  for (const s of [0, 0.25, 0.5, 0.75, 1]) out.push(`<text x="${sx(s)}" y="${y0 + ph + 14}" text-anchor="middle">${s}</text>`);
  out.push(`<text x="${x0 + pw / 2}" y="${y0 + ph + 28}" text-anchor="middle">score</text>`);
  out.push(`<line x1="${sx(threshold)}" y1="${y0}" x2="${sx(threshold)}" y2="${y0 + ph}" stroke="black" stroke-dasharray="4 3"/>`);
  const histogram = (xs: readonly Scored[], colour: string, dash: string) => {
    const counts = new Array<number>(BINS).fill(0);
    for (const s of xs) counts[Math.min(BINS - 1, Math.floor(s.score * BINS))]!++;
    const pts = counts.map((c, b) => `${sx((b + 0.5) / BINS).toFixed(1)},${sy(c / xs.length).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${pts}" fill="none" stroke="${colour}" stroke-width="1.5" stroke-dasharray="${dash}"/>`);
  };
  kinds.forEach((k, i) => {
    const xs = byKind.get(k)!;
    histogram(xs, COLOURS[k]!, '');
    const lx = x0 + (i % 3) * 125,
      ly = H + 16 + 16 * Math.floor(i / 3);
    out.push(`<rect x="${lx}" y="${ly}" width="10" height="10" fill="${COLOURS[k]}"/>`);
    out.push(`<text x="${lx + 14}" y="${ly + 9}">${k} (n=${xs.length})</text>`);
  });
  histogram(scoredBy.throttle33, COLOURS.human!, '2 2');
  out.push(`<text x="${x0}" y="${H + 25 + 16 * legendRows}">dotted: human at the 33 ms throttle (n=${scoredBy.throttle33.length})</text>`);
  // Right: trade-off over thresholds.
  const rx = W + 20 + pad,
    rw = W - pad - 10;
  const tx = (v: number) => rx + v * rw;
  const ty = (v: number) => y0 + ph - v * ph;
  out.push(`<text x="${rx}" y="18">Trade-off across thresholds</text>`);
  out.push(`<rect x="${rx}" y="${y0}" width="${rw}" height="${ph}" fill="none" stroke="#999"/>`);
  out.push(`<text x="${rx + rw / 2}" y="${y0 + ph + 28}" text-anchor="middle">human traces accepted</text>`);
  out.push(
    `<text x="${rx - 30}" y="${y0 + ph / 2}" transform="rotate(-90 ${rx - 30} ${y0 + ph / 2})" text-anchor="middle">worst bot family accepted</text>`,
  );
  for (const v of [0, 0.5, 1]) {
    out.push(`<text x="${tx(v)}" y="${y0 + ph + 14}" text-anchor="middle">${v}</text>`);
    out.push(`<text x="${rx - 4}" y="${ty(v) + 4}" text-anchor="end">${v}</text>`);
  }
  const rate = (xs: readonly Scored[], ok: (s: Scored, t: number) => boolean, t: number) => xs.filter((s) => ok(s, t)).length / xs.length;
  const bots = kinds.filter((k) => k !== 'human' && k !== 'replay');
  const trade = (humans: readonly Scored[], ok: (s: Scored, t: number) => boolean, dash: string, label: string, row: number) => {
    const point = (t: number) => {
      const worst = Math.max(...bots.map((k) => rate(byKind.get(k)!, ok, t)));
      return { x: tx(rate(humans, ok, t)), y: ty(worst) };
    };
    const curve: string[] = [];
    for (let t = 0; t <= 1.0001; t += 0.01) {
      const p = point(t);
      curve.push(`${p.x.toFixed(1)},${p.y.toFixed(1)}`);
    }
    out.push(`<polyline points="${curve.join(' ')}" fill="none" stroke="#1f77b4" stroke-width="1.5" stroke-dasharray="${dash}"/>`);
    const at = point(threshold);
    out.push(`<circle cx="${at.x.toFixed(1)}" cy="${at.y.toFixed(1)}" r="3.5" fill="black"/>`);
    out.push(
      `<line x1="${rx}" y1="${H + 20 + 16 * row}" x2="${rx + 24}" y2="${H + 20 + 16 * row}" stroke="#1f77b4" stroke-width="1.5" stroke-dasharray="${dash}"/>`,
    );
    out.push(`<text x="${rx + 30}" y="${H + 24 + 16 * row}">${label}</text>`);
  };
  const humans = byKind.get('human') ?? [];
  trade(humans, acceptedByScorer, '', 'scorer alone, every recorded point', 0);
  trade(humans, acceptedEndToEnd, '6 3', 'end to end (replay, then score), every recorded point', 1);
  trade(scoredBy.throttle33, acceptedEndToEnd, '2 2', 'end to end, 33 ms throttle', 2);
  out.push(`<text x="${rx + rw}" y="${y0 + 14}" text-anchor="end">dots: threshold ${threshold}</text>`);
  out.push('</svg>');
  return out.join('\n');
}
