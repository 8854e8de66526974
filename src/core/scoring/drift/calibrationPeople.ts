import type { TableVersion } from '../ScoringTable.js';
import v3 from '../tables/v3.people.json' with { type: 'json' };
import type { PeopleSummary } from './PeopleSummary.js';

/** The calibration people shipped beside each table that has them (`npm run calibrate` writes them). */
export const calibrationPeople: Partial<Record<TableVersion, PeopleSummary>> = { v3: v3 as PeopleSummary };
