/**
 * The operator dashboard's page: polls GET /dashboard/data (core/traffic/summarizeTraffic.ts)
 * every POLL_MS and draws each panel with uPlot. No inline script or style: the page runs under
 * the same Content-Security-Policy as the widget.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fillChartTable } from './chartTable.js';
import './dashboard.css';
import { showKeyboardDoors } from './keyboardDoorPanel.js';

const POLL_MS = 5_000;
/** The axes' font, set on them and used to measure their labels (CSS pixels). */
const AXIS_FONT = '12px system-ui, sans-serif';
/** An upright label's axis beyond the label: uPlot's tick and gap (15 CSS pixels), and a margin. */
const AXIS_GAP = 24;
/** Height of a chart's plot (CSS pixels), whatever its x axis takes below it. */
const PLOT_HEIGHT = 170;
/** uPlot's default axis size (CSS pixels): what a chart whose labels lie flat takes below its plot. */
const FLAT_AXIS = 50;
/** The widest labels uPlot's default time axis writes (a clock time, and a date under the first). */
const WIDEST_TIME_LABELS = ['12:59pm', '12:59am', '12/31'];
/** The latency panel's y range before any request was answered (ms; log scale). */
const EMPTY_LATENCY_MS: [number, number] = [1, 1000];
const SCORE_BUCKETS = 10;
const COLOURS = [
  '#2f6fde',
  '#d9480f',
  '#2b8a3e',
  '#ae3ec9',
  '#e8590c',
  '#0c8599',
  '#c2255c',
  '#5c940d',
  '#1864ab',
  '#862e9c',
  '#a61e4d',
  '#495057',
];

/** The JSON of GET /dashboard/data. */
interface Summary {
  sites: string[];
  times: number[];
  series: Record<string, number[]>;
  latency: Record<string, { p50: (number | null)[]; p99: (number | null)[] }>;
}

/** The JSON of GET /dashboard/drift (core/scoring/drift/driftOfSample.ts). */
interface Drift {
  table: string;
  traces: number;
  features: { feature: string; wasserstein: number; ks: number; outside: number; fewPeople: boolean }[];
}

/** One panel: its data from what the server sent (`S`), drawn over time or over categories. */
interface Panel<S = Summary> {
  id: string;
  title: string;
  kind: 'time' | 'bars';
  /** Series names and values; for 'bars', `x` holds the categories' labels. */
  data(s: S): { x?: string[]; series: [string, (number | null)[]][] };
  /** Logarithmic y axis (latencies). */
  log?: boolean;
}

/** The most features the drift panel shows, farthest first. */
const DRIFT_FEATURES = 12;

const DRIFT_PANEL: Panel<Drift> = {
  id: 'drift',
  title: 'Drift from the calibration people (Wasserstein-1, scorer units; * where over 10% of traffic sits among few people)',
  kind: 'bars',
  data: (d) =>
    categories(
      d.features.slice(0, DRIFT_FEATURES).map((f) => [`${f.feature}${f.fewPeople ? ' *' : ''}`, Number(f.wasserstein.toFixed(3))] as const),
      `W1 (${d.traces} accepted traces, table ${d.table})`,
    ),
};

const sum = (a: readonly number[]) => a.reduce((t, n) => t + n, 0);
const named = (s: Summary, prefix: string) =>
  Object.keys(s.series)
    .filter((k) => k.startsWith(prefix))
    .sort()
    .map((k) => [k.slice(prefix.length), s.series[k]!] as [string, number[]]);
const totals = (s: Summary, prefix: string) => named(s, prefix).map(([name, values]) => [name, sum(values)] as const);

const PANELS: Panel[] = [
  {
    id: 'challenges',
    title: 'Challenges issued',
    kind: 'time',
    data: (s) => ({ series: [['challenges', s.series.challenge ?? s.times.map(() => 0)]] }),
  },
  { id: 'verify', title: '/verify outcomes', kind: 'time', data: (s) => ({ series: named(s, 'verify:') }) },
  {
    id: 'acceptance',
    title: 'Acceptance rate',
    kind: 'time',
    data: (s) => {
      const outcomes = named(s, 'verify:');
      const rate = s.times.map((_, i) => {
        const all = sum(outcomes.map(([, v]) => v[i]!));
        return all === 0 ? null : (s.series['verify:ok']?.[i] ?? 0) / all;
      });
      return { series: [['accepted share', rate]] };
    },
  },
  {
    id: 'scores',
    title: 'Score histogram',
    kind: 'bars',
    data: (s) => {
      const x = Array.from({ length: SCORE_BUCKETS }, (_, b) => `${(b / SCORE_BUCKETS).toFixed(1)}`);
      const of = (mode: string) => x.map((_, b) => sum(s.series[`score:${mode}:${b}`] ?? []));
      return {
        x,
        series: [
          ['enforced', of('enforce')],
          ['shadow', of('shadow')],
        ],
      };
    },
  },
  { id: 'reasons', title: 'Reason codes', kind: 'bars', data: (s) => categories(totals(s, 'reason:'), 'reasons') },
  { id: 'inputs', title: 'Inferred input types', kind: 'time', data: (s) => ({ series: named(s, 'input:') }) },
  { id: 'siteverify', title: '/siteverify redemptions', kind: 'time', data: (s) => ({ series: named(s, 'siteverify:') }) },
  {
    id: 'limited',
    title: 'Rate-limited requests and clients',
    kind: 'time',
    data: (s) => ({
      series: [
        ...named(s, 'limited:').map(([bucket, v]): [string, number[]] => [`${bucket} requests`, v]),
        ...named(s, 'limited_clients:').map(([bucket, v]): [string, number[]] => [`${bucket} clients`, v]),
      ],
    }),
  },
  {
    id: 'pow',
    title: 'Proof-of-work difficulty of challenges issued (bits)',
    kind: 'bars',
    data: (s) =>
      categories(
        totals(s, 'pow:').sort((a, b) => Number(a[0]) - Number(b[0])),
        'challenges',
      ),
  },
  {
    id: 'latency',
    title: 'Latency p50 / p99 per route (ms)',
    kind: 'time',
    log: true,
    data: (s) => {
      const routes = Object.keys(s.latency).sort();
      // No request answered yet: one empty series, so the axes and their labels are still drawn.
      if (routes.length === 0) return { series: [['no requests yet', s.times.map(() => null)]] };
      return {
        series: routes.flatMap(
          (route) =>
            [
              [`${route} p50`, s.latency[route]!.p50],
              [`${route} p99`, s.latency[route]!.p99],
            ] as [string, (number | null)[]][],
        ),
      };
    },
  },
];

/** Bars of totals by category; one empty category when there is none yet (uPlot needs a point). */
function categories(entries: readonly (readonly [string, number])[], label: string): { x: string[]; series: [string, number[]][] } {
  if (entries.length === 0) return { x: ['none yet'], series: [[label, [0]]] };
  return { x: entries.map(([name]) => name), series: [[label, entries.map(([, n]) => n)]] };
}

const drawn = new Map<string, { plot: uPlot; key: string }>();

const measure = document.createElement('canvas').getContext('2d')!;
/** Width of the widest label in the axes' font (CSS pixels). */
function widest(labels: readonly string[]): number {
  measure.font = AXIS_FONT;
  return Math.max(0, ...labels.map((l) => measure.measureText(l).width));
}

/**
 * The x axis of categories: a tick and a label at each, none between. Labels that do not fit
 * their slot side by side stand upright, each below its own bar only (a slanted one reaches
 * under its neighbours, past the chart's edge for the first), and the axis is as tall as the
 * longest: no name is cut.
 */
function categoryAxis(labels: readonly string[], plotWidth: number): uPlot.Axis {
  const slot = plotWidth / Math.max(1, labels.length);
  const upright = widest(labels) + 4 > slot;
  return {
    font: AXIS_FONT,
    splits: () => labels.map((_, i) => i),
    values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
    ...(upright ? { rotate: -90, size: Math.ceil(widest(labels)) + AXIS_GAP } : {}),
  };
}

function draw<S>(panel: Panel<S>, s: S, into: HTMLElement): void {
  const { x, series } = panel.data(s);
  const xs = panel.kind === 'time' ? (s as Summary).times : (x ?? []).map((_, i) => i);
  const data = [xs, ...series.map(([, v]) => v)] as uPlot.AlignedData;
  fillChartTable(into.parentElement!.querySelector('.numbers table')!, {
    caption: panel.title,
    kind: panel.kind,
    x: panel.kind === 'time' ? xs : (x ?? []),
    series,
  });
  const width = into.clientWidth;
  const xAxis = panel.kind === 'bars' ? categoryAxis(x ?? [], width - 60) : { font: AXIS_FONT };
  // The same series, categories and axis as drawn: new data only; else a new plot (a resize
  // that makes category labels stand up or lie down rebuilds the chart at the next poll).
  const key = JSON.stringify([series.map(([name]) => name), x, xAxis.size ?? null]);
  const held = drawn.get(panel.id);
  if (held !== undefined && held.key === key) return held.plot.setData(data);
  held?.plot.destroy();
  const bars = panel.kind === 'bars' ? uPlot.paths.bars!({ size: [0.8 / Math.max(1, series.length), 64], align: 0 }) : undefined;
  const count = x?.length ?? 0;
  const opts: uPlot.Options = {
    width,
    // A time label is centred on its tick, and the last tick can fall on the plot's right edge:
    // room on the right for half the widest one uPlot writes ("12:59pm"), or its end is cut.
    ...(panel.kind === 'time' ? { padding: [null, Math.ceil(widest(WIDEST_TIME_LABELS) / 2) + 2, null, null] as uPlot.Padding } : {}),
    height: PLOT_HEIGHT + (typeof xAxis.size === 'number' ? xAxis.size : FLAT_AXIS),
    // The legend names the series; their values are in the table (no "--" waiting for a cursor).
    legend: { live: false },
    scales: {
      // Half a slot on each side of the categories: the first and last bars are drawn whole.
      x: panel.kind === 'time' ? { time: true } : { time: false, range: () => [-0.5, count - 0.5] },
      y: panel.log
        ? { distr: 3, range: (_u, min, max) => (min === null || max === null ? EMPTY_LATENCY_MS : uPlot.rangeLog(min, max, 10, true)) }
        : { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] },
    },
    axes: [xAxis, { font: AXIS_FONT }],
    series: [
      {},
      ...series.map(([label], i) => {
        const colour = COLOURS[i % COLOURS.length]!;
        // Points as well as lines: a minute with traffic between empty ones is still seen.
        return bars
          ? { label, stroke: colour, fill: `${colour}99`, paths: bars }
          : { label, stroke: colour, points: { show: true, size: 5 }, spanGaps: false };
      }),
    ],
  };
  drawn.set(panel.id, { plot: new uPlot(opts, data, into), key });
}

/** A panel's section: its title, the chart (hidden from screen readers) and the table of its numbers (read in its place). */
function panelElement(panel: { id: string; title: string }): HTMLElement {
  let section = document.getElementById(`panel-${panel.id}`);
  if (section === null) {
    section = document.createElement('section');
    section.id = `panel-${panel.id}`;
    section.className = 'panel';
    const title = document.createElement('h2');
    title.textContent = panel.title;
    const chart = document.createElement('div');
    chart.className = 'chart';
    chart.setAttribute('aria-hidden', 'true');
    // A table is never narrower than its content: the wrapper is what hides it.
    const numbers = document.createElement('div');
    numbers.className = 'numbers';
    numbers.append(document.createElement('table'));
    section.append(title, chart, numbers);
    document.getElementById('panels')!.append(section);
  }
  return section.querySelector('.chart')!;
}

/** Charts follow their panel's width (a turned phone, a resized window). */
const resizing = new ResizeObserver(() => {
  for (const [id, { plot }] of drawn) {
    const width = document.querySelector<HTMLElement>(`#panel-${id} .chart`)?.clientWidth;
    if (width !== undefined && width > 0 && width !== plot.width) plot.setSize({ width, height: plot.height });
  }
});
resizing.observe(document.getElementById('panels')!);

function showSites(sites: readonly string[]): void {
  const select = document.getElementById('site') as HTMLSelectElement;
  const have = new Set([...select.options].map((o) => o.value));
  for (const site of sites) {
    if (site === '' || have.has(site)) continue;
    const option = document.createElement('option');
    option.value = site;
    option.textContent = site;
    select.append(option);
  }
}

function status(text: string, error = false): void {
  const el = document.getElementById('status')!;
  el.textContent = text;
  el.className = error ? 'error' : '';
}

async function refresh(): Promise<void> {
  const site = (document.getElementById('site') as HTMLSelectElement).value;
  const window = (document.getElementById('window') as HTMLSelectElement).value;
  const query = new URLSearchParams({ window });
  if (site !== '') query.set('site', site);
  const res = await fetch(`/dashboard/data?${query}`, { credentials: 'same-origin', cache: 'no-store' });
  // The session ended: the page shows the login form again.
  if (res.status === 401) return location.reload();
  if (!res.ok) return status(`data: HTTP ${res.status}`, true);
  const summary = (await res.json()) as Summary;
  showSites(summary.sites);
  for (const panel of PANELS) draw(panel, summary, panelElement(panel));
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn ?? 0) + 1);
  status(`updated ${new Date().toLocaleTimeString()}`);
}

/** The drift panel: asked for on load and on demand only (the server reads every trace kept). */
async function compareDrift(): Promise<void> {
  const res = await fetch('/dashboard/drift', { credentials: 'same-origin', cache: 'no-store' });
  if (res.status === 401) return location.reload();
  if (!res.ok) return status(`drift: HTTP ${res.status}`, true);
  draw(DRIFT_PANEL, (await res.json()) as Drift, panelElement(DRIFT_PANEL));
  document.body.dataset.drift = 'drawn';
}

function poll(): void {
  void showKeyboardDoors().catch((e: unknown) => status(`keyboard door: ${String(e)}`, true));
  refresh()
    .catch((e: unknown) => status(`data: ${e instanceof Error ? e.message : String(e)}`, true))
    .finally(() => setTimeout(poll, POLL_MS));
}

// Every panel in its place from the start, whichever answer comes first.
for (const panel of [...PANELS, DRIFT_PANEL]) panelElement(panel);
for (const id of ['site', 'window']) document.getElementById(id)!.addEventListener('change', () => void refresh());
document
  .getElementById('compare')!
  .addEventListener('click', () => void compareDrift().catch((e: unknown) => status(`drift: ${String(e)}`, true)));
poll();
void compareDrift().catch((e: unknown) => status(`drift: ${String(e)}`, true));
