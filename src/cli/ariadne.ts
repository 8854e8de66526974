#!/usr/bin/env -S node --max-semi-space-size=2 --heap-growing-percent=25
/**
 * The `ariadne` command (package.json "bin"):
 *   ariadne [start]   start the server (what `npm start` runs), configured by the environment
 *   ariadne secret    print a new signing secret
 *   ariadne check     validate the environment and the sites file without starting
 *   ariadne calibrate --traces FILE   compare sampled traffic with the scoring table's calibration people
 *                                     (--fit OUT: and fit a site table on it)
 */
import { checkSetup } from './checkSetup.js';
import { newSecret } from './newSecret.js';

const USAGE = `Usage: ariadne [start | secret | check | calibrate | help]
  start    start the server (the default), configured by environment variables
  secret   print a new random secret for SIGNING_SECRET or a site's secret
  check    validate the environment and SITES_FILE without starting; exit 0 when valid, 1 when not
  calibrate --traces FILE [--out FILE] [--table VERSION] [--fit FILE]
           compare the sampled traffic with the scoring table's calibration people; write an HTML report;
           with --fit, also a site scoring table fitted on that traffic plus the shipped bot families`;

const command = process.argv[2] ?? 'start';
switch (command) {
  case 'start':
    await import('../cli.js');
    break;
  case 'secret':
    console.log(newSecret());
    break;
  case 'check':
    process.exitCode = await checkSetup(process.env, { out: (l) => console.log(l), err: (l) => console.error(l) });
    break;
  case 'calibrate':
    // Loaded only here: the calibration people's quantiles are of no use to a server.
    process.exitCode = await (await import('./calibrateTraces.js')).calibrateTraces(process.argv.slice(3), {
      out: (l) => console.log(l),
      err: (l) => console.error(l),
    });
    break;
  case 'help':
  case '--help':
  case '-h':
    console.log(USAGE);
    break;
  default:
    console.error(`Unknown command ${JSON.stringify(command)}.\n${USAGE}`);
    process.exitCode = 2;
}
