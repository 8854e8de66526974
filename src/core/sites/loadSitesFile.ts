import { readFile } from 'node:fs/promises';
import type { Config } from '../../config.js';
import { type SitesParse, parseSitesFile } from './parseSitesFile.js';
import { defaultPolicy } from './SitePolicy.js';

/** Largest sites file read, in bytes. */
export const MAX_SITES_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The sites the server serves: those of config.sitesFile (SITES_FILE), or without one any site
 * key under the server-wide policy. Errors name the file, the site and the field. Never throws.
 */
export async function loadSitesFile(config: Config): Promise<SitesParse> {
  const path = config.sitesFile;
  if (path === undefined) {
    return { ok: true, snapshot: { source: undefined, sites: undefined, fallback: defaultPolicy(config), testKeys: config.testKeys } };
  }
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > MAX_SITES_FILE_BYTES) return fail(path, [`larger than ${MAX_SITES_FILE_BYTES} bytes`]);
    text = bytes.toString('utf8');
  } catch (e) {
    return fail(path, [`cannot be read: ${e instanceof Error ? e.message : String(e)}`]);
  }
  const parsed = parseSitesFile(text, config, path);
  return parsed.ok ? parsed : fail(path, parsed.errors);
}

function fail(path: string, errors: string[]): SitesParse {
  return { ok: false, errors: errors.map((e) => `SITES_FILE ${path}: ${e}`) };
}
