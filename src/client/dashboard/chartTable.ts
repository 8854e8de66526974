/**
 * A chart's numbers as a table (visually hidden, read by screen readers in place of the canvas):
 * a row per category for bars, a row per step with any value for series over time, newest first.
 */

/** The most steps a time table lists (the day window has 96): the newest with any value. */
const MAX_ROWS = 60;

/** What a chart shows: its categories (bars) or its steps' times (epoch seconds), and its series. */
export interface ChartNumbers {
  caption: string;
  kind: 'time' | 'bars';
  /** Category labels (bars) or step start times in epoch seconds (time). */
  x: readonly (string | number)[];
  series: readonly (readonly [string, readonly (number | null)[]])[];
}

const shown = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(Number(v.toFixed(3))));
const timeOf = (seconds: number) => new Date(seconds * 1000).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });

/** Fills `table` (emptied first) with the chart's numbers. */
export function fillChartTable(table: HTMLTableElement, c: ChartNumbers): void {
  table.replaceChildren();
  table.createCaption().textContent = c.caption;
  const head = table.createTHead().insertRow();
  for (const name of [c.kind === 'time' ? 'time' : 'category', ...c.series.map(([name]) => name)]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = name;
    head.append(th);
  }
  const body = table.createTBody();
  const rows = c.x
    .map((_, i) => i)
    .filter((i) => c.kind === 'bars' || c.series.some(([, v]) => v[i] !== null && v[i] !== undefined && v[i] !== 0));
  const listed = c.kind === 'time' ? rows.reverse().slice(0, MAX_ROWS) : rows;
  for (const i of listed) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = c.kind === 'time' ? timeOf(Number(c.x[i])) : String(c.x[i]);
    row.append(th);
    for (const [, values] of c.series) row.insertCell().textContent = shown(values[i]);
  }
  if (listed.length === 0) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = c.series.length + 1;
    cell.textContent = 'nothing in this window yet';
  }
}
