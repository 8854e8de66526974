/**
 * The value of the series of `name` with exactly `labels` in a Prometheus text, summed over the
 * `thread` label unless `labels` names one: a server of several threads (WORKERS > 1) gives each
 * thread's series that label, a server of one does not. Undefined when there is no such series.
 */
export function metricSum(text: string, name: string, labels: Record<string, string>): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    if (!('thread' in labels)) delete found.thread;
    const keys = Object.keys(found);
    if (keys.length !== Object.keys(labels).length || keys.some((k) => found[k] !== labels[k])) continue;
    sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}
