import { writeFile } from 'node:fs/promises';
import { botFeatureRows } from '../core/scoring/fit/BotRows.js';
import { type Acceptance, FitRefused, fitSiteTable } from '../core/scoring/fit/fitSiteTable.js';
import { shippedBotRows } from '../core/scoring/fit/shippedBotRows.js';
import { type TableVersion, scoringTables } from '../core/scoring/ScoringTable.js';
import type { Output } from './Output.js';

/**
 * `--fit OUT` of `ariadne calibrate --traces`: fits a site table on the accepted pointer traces'
 * feature rows plus the bot families shipped with table `version` (fitSiteTable), writes it to
 * `out` and prints the acceptance of the sample and of every family before (the shipped table at
 * its threshold) and after (the fitted one at its own). Exit code 0; 1 when the fit is refused
 * or cannot be written (nothing is written then).
 */
export async function writeSiteFit(version: TableVersion, rows: readonly ArrayLike<number>[], out: string, io: Output): Promise<number> {
  const bots = shippedBotRows[version];
  if (bots === undefined) {
    io.err(`no bot families ship with table ${JSON.stringify(version)} to fit on (have: ${Object.keys(shippedBotRows).join(', ')})`);
    return 1;
  }
  const families = botFeatureRows(bots);
  let fit;
  try {
    fit = fitSiteTable(scoringTables[version], rows, families);
  } catch (e) {
    if (!(e instanceof FitRefused)) throw e;
    io.err(`no site table written: ${e.message}`);
    return 1;
  }
  try {
    await writeFile(out, `${JSON.stringify(fit.table, null, 2)}\n`);
  } catch (e) {
    io.err(`cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const botCount = [...families.values()].reduce((n, r) => n + r.length, 0);
  io.out(
    `site table ${fit.table.version} fitted on ${fit.after.sample.n} accepted pointer traces` +
      `${fit.unusable > 0 ? ` (${fit.unusable} left out, missing a weighed feature)` : ''} and ${families.size} bot families (${botCount} bots); written to ${out}`,
  );
  const cell = (a: Acceptance, name: string | undefined) => {
    const { accepted, n } = name === undefined ? a.sample : a.families[name]!;
    return `${accepted}/${n} ${((100 * accepted) / n).toFixed(1)}%`;
  };
  io.out(
    `  ${'accepted'.padEnd(24)}${`${version} at ${fit.before.threshold}`.padStart(18)}${`fitted at ${fit.after.threshold}`.padStart(20)}`,
  );
  for (const name of [undefined, ...families.keys()]) {
    io.out(`  ${(name ?? 'your sample').padEnd(24)}${cell(fit.before, name).padStart(18)}${cell(fit.after, name).padStart(20)}`);
  }
  return 0;
}
