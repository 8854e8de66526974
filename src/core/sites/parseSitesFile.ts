import { Value } from '@sinclair/typebox/value';
import type { Config } from '../../config.js';
import type { ScoringTable } from '../scoring/ScoringTable.js';
import { type PrivacyPassIssuer, checkIssuer } from '../privacyPass/PrivacyPassIssuer.js';
import { parseWebAuthnConfig } from '../webauthn/parseWebAuthnConfig.js';
import { loadSiteTable } from './loadSiteTable.js';
import type { SiteEntry, SitesSnapshot } from './SiteRegistry.js';
import { DEFAULT_PASSKEY_DOOR_PER_HOUR, DEFAULT_POW_HEADROOM, MAX_POW_DIFFICULTY, type SitePolicy, defaultPolicy } from './SitePolicy.js';
import { type PolicyInFile, type SitesFile, SitesFileSchema, SITE_KEY_PATTERN } from './sitesFileSchema.js';
import { TEST_SITE_KEYS } from './testKeys.js';

export type SitesParse = { ok: true; snapshot: SitesSnapshot } | { ok: false; errors: string[] };

/** Errors reported at once; the rest are summed up. */
const MAX_REPORTED = 10;

/**
 * Validates the text of a sites file against SitesFileSchema and the rules a schema cannot say
 * (max_difficulty not below difficulty, passkeys with a relying party, one secret per site, test
 * keys reserved, a table_file that is a scoring table: loadSiteTable, relative to `source`), and
 * resolves each site's policy over the server-wide one. Every error names the
 * site and the field. Never throws.
 */
export function parseSitesFile(text: string, config: Config, source: string): SitesParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [`not valid JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const errors = [...Value.Errors(SitesFileSchema, json)].map((e) => describe(e.path, e.message, json));
  if (errors.length > 0) return { ok: false, errors: [...new Set(errors)].slice(0, MAX_REPORTED) };

  const file = json as SitesFile;
  const fallback = defaultPolicy(config);
  const secrets = new Map<string, string>();
  const sites: SiteEntry[] = [];
  for (const [key, site] of Object.entries(file.sites)) {
    const at = (field: string, message: string) => errors.push(`site ${JSON.stringify(key)}: ${field}: ${message}`);
    if (Object.hasOwn(TEST_SITE_KEYS, key)) at('key', 'is a reserved test key');
    const other = secrets.get(site.secret);
    if (other !== undefined) at('secret', `is also the secret of site ${JSON.stringify(other)}; each site needs its own`);
    secrets.set(site.secret, key);
    const policy = resolvePolicy(site.policy ?? {}, fallback, source, at);
    if (policy !== undefined) sites.push({ key, hostnames: site.hostnames, secret: site.secret, policy });
  }
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_REPORTED) };
  return { ok: true, snapshot: { source, sites, fallback, testKeys: config.testKeys } };
}

/** The site's policy: its own fields over the server-wide ones; undefined after reporting an error. */
function resolvePolicy(
  p: PolicyInFile,
  fallback: SitePolicy,
  source: string,
  at: (field: string, message: string) => void,
): SitePolicy | undefined {
  const difficulty = p.pow?.difficulty ?? fallback.pow.difficulty;
  const maxDifficulty =
    p.pow?.max_difficulty ??
    (p.pow?.difficulty === undefined ? fallback.pow.maxDifficulty : Math.min(MAX_POW_DIFFICULTY, difficulty + DEFAULT_POW_HEADROOM));
  if (maxDifficulty < difficulty) {
    at('policy.pow.max_difficulty', `${maxDifficulty} is below the difficulty ${difficulty}`);
    return undefined;
  }
  let webauthn = fallback.webauthn;
  if (p.passkeys !== undefined) {
    try {
      webauthn = parseWebAuthnConfig({
        WEBAUTHN_MODE: p.passkeys.mode,
        WEBAUTHN_RP_ID: p.passkeys.rp_id ?? fallback.webauthn.rpId,
        WEBAUTHN_ORIGIN: (p.passkeys.origins ?? fallback.webauthn.origins).join(','),
        WEBAUTHN_RP_NAME: p.passkeys.rp_name ?? fallback.webauthn.rpName,
      });
    } catch (e) {
      const message = (e instanceof Error ? e.message : String(e))
        .replaceAll('WEBAUTHN_MODE', 'mode')
        .replaceAll('WEBAUTHN_RP_ID', 'rp_id (or WEBAUTHN_RP_ID)')
        .replaceAll('WEBAUTHN_ORIGIN', 'origins (or WEBAUTHN_ORIGIN)');
      at('policy.passkeys', message);
      return undefined;
    }
  }
  let siteTable: ScoringTable | undefined;
  if (p.scoring?.table_file !== undefined) {
    const loaded = loadSiteTable(p.scoring.table_file, source);
    if (!loaded.ok) {
      at('policy.scoring.table_file', loaded.error);
      return undefined;
    }
    siteTable = loaded.table;
  }
  const withoutMaze = p.passkeys?.without_maze;
  if (withoutMaze !== undefined && webauthn.mode === 'off') {
    at('policy.passkeys.without_maze', 'needs passkeys on (mode preferred or required)');
    return undefined;
  }
  let privacyPassIssuers = fallback.privacyPassIssuers;
  if (p.privacy_pass !== undefined) {
    try {
      privacyPassIssuers = p.privacy_pass.issuers.map((i): PrivacyPassIssuer => checkIssuer(i.name, i.token_key));
    } catch (e) {
      at('policy.privacy_pass.issuers', e instanceof Error ? e.message : String(e));
      return undefined;
    }
  }
  // A site that sets its mode sets its keyboard solves' too, unless it names keyboard_mode.
  const keyboardMode = p.scoring?.keyboard_mode ?? (p.scoring?.mode === undefined ? fallback.scoring.keyboardMode : undefined);
  return {
    pow: { difficulty, maxDifficulty, freePerMinute: p.pow?.free_per_minute ?? fallback.pow.freePerMinute },
    maze: {
      width: p.maze?.width ?? fallback.maze.width,
      height: p.maze?.height ?? fallback.maze.height,
      difficulty: p.maze?.difficulty ?? fallback.maze.difficulty,
    },
    probeProbability: p.probe_probability ?? fallback.probeProbability,
    webauthn,
    scoring: {
      mode: p.scoring?.mode ?? fallback.scoring.mode,
      ...(keyboardMode === undefined ? {} : { keyboardMode }),
      // A site's own table comes with its own calibrated threshold, over the server-wide one.
      threshold: p.scoring?.threshold ?? siteTable?.threshold ?? fallback.scoring.threshold,
      table: fallback.scoring.table,
      ...(siteTable === undefined ? {} : { siteTable }),
    },
    keyboard: {
      door: p.keyboard?.door ?? fallback.keyboard.door,
      floorPerMinute: p.keyboard?.floor_per_minute ?? fallback.keyboard.floorPerMinute,
      surgeFactor: p.keyboard?.surge_factor ?? fallback.keyboard.surgeFactor,
      calmMinutes: p.keyboard?.calm_minutes ?? fallback.keyboard.calmMinutes,
      clientPerHour: p.keyboard?.client_per_hour ?? fallback.keyboard.clientPerHour,
    },
    remoteip: p.remoteip ?? fallback.remoteip,
    ...(privacyPassIssuers !== undefined && privacyPassIssuers.length > 0 ? { privacyPassIssuers } : {}),
    ...(withoutMaze === undefined ? {} : { passkeyDoor: { perHour: withoutMaze.per_hour ?? DEFAULT_PASSKEY_DOOR_PER_HOUR } }),
  };
}

/** A schema error as `site "key": field.path: message` (or the top-level field). */
function describe(path: string, message: string, json: unknown): string {
  const parts = path
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (parts[0] !== 'sites' || parts.length < 2) {
    return `${parts.join('.') || 'file'}: ${message}${parts.length === 0 ? ' (expected {"sites": {...}})' : ''}`;
  }
  const key = parts[1]!;
  if (parts.length === 2 && !new RegExp(SITE_KEY_PATTERN).test(key)) {
    return `site ${JSON.stringify(key)}: key: not a valid site key (1-128 of A-Z a-z 0-9 . _ -)`;
  }
  const field = parts.slice(2).join('.');
  if (/^hostnames\.\d+$/.test(field) && message.startsWith('Expected string to match')) {
    return `site ${JSON.stringify(key)}: ${field}: not a hostname (lowercase, like shop.example.com, *.example.com, 127.0.0.1 or [::1]; no scheme or port)`;
  }
  const site = (json as { sites: Record<string, unknown> }).sites[key];
  if (field === '' && (site === null || typeof site !== 'object')) return `site ${JSON.stringify(key)}: ${message}`;
  return `site ${JSON.stringify(key)}: ${field || 'site'}: ${message}`;
}
