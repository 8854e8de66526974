import { describe, expect, it } from 'vitest';
import { describeCollection } from '../../src/cli/describeCollection.js';

const URL = 'http://127.0.0.1:8787';
const TRACES_OFF = { sampleRate: 0, maxCount: 1000, maxBytes: 16 * 1024 * 1024 };

describe('describeCollection', () => {
  it('says nothing when neither the dashboard nor sampling is on', () => {
    expect(describeCollection({ dashboardToken: undefined, traces: TRACES_OFF }, URL)).toEqual([]);
  });

  it('names the dashboard without its token, and the share and bounds of sampling', () => {
    const token = 'dashboard-token-never-logged';
    const lines = describeCollection(
      { dashboardToken: token, traces: { sampleRate: 0.07, maxCount: 500, maxBytes: 1.5 * 1024 * 1024 } },
      URL,
    );
    expect(lines).toEqual([
      'dashboard on: http://127.0.0.1:8787/dashboard, log in with the value of DASHBOARD_TOKEN',
      'trace sampling on: 7% of /verify submissions kept, at most 500 traces and 1.50 MiB (oldest dropped first)',
    ]);
    expect(lines.join('\n')).not.toContain(token);
  });
});
