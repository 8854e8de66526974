import type { TableVersion } from '../ScoringTable.js';
import v3 from '../tables/v3.bots.json' with { type: 'json' };
import type { BotRows } from './BotRows.js';

/** The bot families' rows shipped beside each table that has them (`npm run calibrate:bots` writes them). */
export const shippedBotRows: Partial<Record<TableVersion, BotRows>> = { v3: v3 as BotRows };
