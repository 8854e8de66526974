import { loadConfig } from '../config.js';
import { loadSitesFile } from '../core/sites/loadSitesFile.js';
import { loadKernel } from '../kernel/index.js';
import { describeSites } from './startSites.js';

/** What `ariadne check` prints to: lines of its report and of its errors. */
export interface CheckOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * `ariadne check`: validates what start-up would read (the environment, the sites file, the
 * built kernel) without listening. Exit code 0 when the server would start, 1 when not.
 */
export async function checkSetup(env: NodeJS.ProcessEnv, print: CheckOutput): Promise<number> {
  const loaded = loadConfig(env);
  if (!loaded.ok) {
    print.err(loaded.error);
    return 1;
  }
  for (const warning of loaded.warnings) print.out(`warning: ${warning}`);
  const sites = await loadSitesFile(loaded.config);
  if (!sites.ok) {
    print.err('Invalid sites file:');
    for (const e of sites.errors) print.err(`  ${e}`);
    return 1;
  }
  try {
    await loadKernel();
  } catch (e) {
    print.err(`The kernel does not load (npm run build): ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  print.out(`ok: the configuration is valid; ${describeSites(sites.snapshot)}`);
  return 0;
}
