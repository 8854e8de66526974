/**
 * The operator dashboard's page: polls GET /dashboard/data (core/traffic/summarizeTraffic.ts)
 * every POLL_MS and draws each panel with uPlot. No inline script or style: the page runs under
 * the same Content-Security-Policy as the widget.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './dashboard.css';
import { showKeyboardDoors } from './keyboardDoorPanel.js';

const POLL_MS = 5_000;
const SCORE_BUCKETS = 10;
const COLOURS = ['#2f6fde', '#d9480f', '#2b8a3e', '#ae3ec9', '#e8590c', '#0c8599', '#c2255c', '#5c940d', '#1864ab', '#862e9c', '#a61e4d', '#495057'];

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
  { id: 'challenges', title: 'Challenges issued', kind: 'time', data: (s) => ({ series: [['challenges', s.series.challenge ?? s.times.map(() => 0)]] }) },
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
      return { x, series: [['enforced', of('enforce')], ['shadow', of('shadow')]] };
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
    data: (s) => categories(totals(s, 'pow:').sort((a, b) => Number(a[0]) - Number(b[0])), 'challenges'),
  },
  {
    id: 'latency',
    title: 'Latency p50 / p99 per route (ms)',
    kind: 'time',
    log: true,
    data: (s) => ({
      series: Object.keys(s.latency)
        .sort()
        .flatMap((route) => [[`${route} p50`, s.latency[route]!.p50], [`${route} p99`, s.latency[route]!.p99]] as [string, (number | null)[]][]),
    }),
  },
];

/** Bars of totals by category; one empty category when there is none yet (uPlot needs a point). */
function categories(entries: readonly (readonly [string, number])[], label: string): { x: string[]; series: [string, number[]][] } {
  if (entries.length === 0) return { x: ['none yet'], series: [[label, [0]]] };
  return { x: entries.map(([name]) => name), series: [[label, entries.map(([, n]) => n)]] };
}

const drawn = new Map<string, { plot: uPlot; key: string }>();

function draw<S>(panel: Panel<S>, s: S, into: HTMLElement): void {
  const { x, series } = panel.data(s);
  const xs = panel.kind === 'time' ? (s as Summary).times : (x ?? []).map((_, i) => i);
  const data = [xs, ...series.map(([, v]) => v)] as uPlot.AlignedData;
  // The same series (and categories) as drawn: new data only; else a new plot.
  const key = JSON.stringify([series.map(([name]) => name), x]);
  const held = drawn.get(panel.id);
  if (held !== undefined && held.key === key) return held.plot.setData(data);
  held?.plot.destroy();
  const bars = panel.kind === 'bars' ? uPlot.paths.bars!({ size: [0.8 / Math.max(1, series.length), 64], align: 0 }) : undefined;
  const opts: uPlot.Options = {
    width: Math.max(320, into.clientWidth),
    height: 220,
    scales: { x: { time: panel.kind === 'time' }, y: panel.log ? { distr: 3 } : { range: (_u, min, max) => [Math.min(0, min), Math.max(1, max)] } },
    axes: [
      panel.kind === 'bars'
        ? // Many categories (reason codes, features): their names slanted, so they do not overlap.
          { values: (_u, splits) => splits.map((i) => x?.[i] ?? ''), ...((x?.length ?? 0) > 4 ? { rotate: -35, size: 90 } : {}) }
        : {},
      {},
    ],
    series: [
      {},
      ...series.map(([label], i) => {
        const colour = COLOURS[i % COLOURS.length]!;
        // Points as well as lines: a minute with traffic between empty ones is still seen.
        return bars ? { label, stroke: colour, fill: `${colour}99`, paths: bars } : { label, stroke: colour, points: { show: true, size: 5 }, spanGaps: false };
      }),
    ],
  };
  drawn.set(panel.id, { plot: new uPlot(opts, data, into), key });
}

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
    section.append(title, chart);
    document.getElementById('panels')!.append(section);
  }
  return section.querySelector('.chart')!;
}

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
document.getElementById('compare')!.addEventListener('click', () => void compareDrift().catch((e: unknown) => status(`drift: ${String(e)}`, true)));
poll();
void compareDrift().catch((e: unknown) => status(`drift: ${String(e)}`, true));
