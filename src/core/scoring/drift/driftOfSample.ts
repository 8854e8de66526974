import type { TrafficStore } from '../../../store/traffic/TrafficStore.js';
import type { TraceRecord } from '../../traffic/traceRecord.js';
import { type TableVersion, scoringTables } from '../ScoringTable.js';
import { acceptedFeatureRows } from './acceptedFeatureRows.js';
import { calibrationPeople } from './calibrationPeople.js';
import { compareWithPeople } from './compareWithPeople.js';

/** The dashboard's drift panel: per weighed feature, how far the sampled traffic sits from the people. */
export interface SampleDrift {
  table: string;
  /** Accepted pointer traces compared (0: nothing to compare, or no people ship with the table). */
  traces: number;
  features: { feature: string; wasserstein: number; ks: number; outside: number; fewPeople: boolean }[];
}

/** Compares the accepted traces kept in `store` with the calibration people of `version` (compareWithPeople). */
export async function driftOfSample(store: TrafficStore, version: TableVersion): Promise<SampleDrift> {
  const people = calibrationPeople[version];
  const rows = acceptedFeatureRows((await store.traces()).map((line) => JSON.parse(line) as Partial<TraceRecord>));
  if (people === undefined || rows.length === 0) return { table: version, traces: 0, features: [] };
  const report = compareWithPeople(scoringTables[version], people, rows);
  return {
    table: version,
    traces: rows.length,
    features: report.features.map(({ feature, wasserstein, ks, outside, fewPeople }) => ({ feature, wasserstein, ks, outside, fewPeople })),
  };
}
