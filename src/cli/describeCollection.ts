import type { Config } from '../config.js';

/**
 * The start-up lines on what is collected for the operator: where the dashboard is (its token is
 * a password, so it is named, never logged) and what share of /verify is kept as traces. Empty
 * when both are off.
 */
export function describeCollection(config: Pick<Config, 'dashboardToken' | 'traces'>, url: string): string[] {
  const lines: string[] = [];
  if (config.dashboardToken !== undefined) lines.push(`dashboard on: ${url}/dashboard, log in with the value of DASHBOARD_TOKEN`);
  const { sampleRate, maxCount, maxBytes } = config.traces;
  if (sampleRate > 0) {
    const mib = (maxBytes / 1024 / 1024).toFixed(maxBytes % (1024 * 1024) === 0 ? 0 : 2);
    lines.push(
      `trace sampling on: ${Number((sampleRate * 100).toPrecision(6))}% of /verify submissions kept, at most ${maxCount} traces and ${mib} MiB (oldest dropped first)`,
    );
  }
  return lines;
}
