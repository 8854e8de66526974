/** Sites for in-process servers: a sites file's JSON, parsed exactly as start-up parses it. */
import type { Config } from '../../src/config.js';
import { parseSitesFile } from '../../src/core/sites/parseSitesFile.js';
import { SiteRegistry, type SitesSnapshot } from '../../src/core/sites/SiteRegistry.js';

export function sitesSnapshot(file: unknown, config: Config): SitesSnapshot {
  const parsed = parseSitesFile(JSON.stringify(file), config, 'test-sites.json');
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.snapshot;
}

export function sitesRegistry(file: unknown, config: Config): SiteRegistry {
  return new SiteRegistry(sitesSnapshot(file, config));
}

/** A site secret of the right length, distinct per name. */
export const secretOf = (name: string) => `secret-of-${name}-`.padEnd(40, 'x');
