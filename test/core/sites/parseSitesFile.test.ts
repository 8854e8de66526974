import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config.js';
import { scoringTables } from '../../../src/core/scoring/ScoringTable.js';
import { parseSitesFile } from '../../../src/core/sites/parseSitesFile.js';

const config = defaultConfig({ powDifficulty: 18 });
const SECRET = 'a-site-secret-of-at-least-32-characters!';
const parse = (file: unknown) => parseSitesFile(typeof file === 'string' ? file : JSON.stringify(file), config, 'sites.json');
const site = (over: Record<string, unknown> = {}) => ({ hostnames: ['shop.example.com'], secret: SECRET, ...over });
const errorsOf = (file: unknown) => {
  const r = parse(file);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
};

describe('parseSitesFile', () => {
  it('reads the complete example of docs/operating.md, every field resolved over the server-wide policy', () => {
    const r = parse(readFileSync(new URL('../../../docs/sites.example.json', import.meta.url), 'utf8'));
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const [shop, forum, staging] = r.snapshot.sites!;
    expect(shop!.key).toBe('shop-7f3a2c');
    expect(shop!.hostnames).toEqual(['shop.example.com', '*.shop.example.com']);
    expect(shop!.policy.pow).toEqual({ difficulty: 18, maxDifficulty: 22, freePerMinute: 10 });
    expect(shop!.policy.webauthn).toEqual({
      mode: 'preferred',
      rpId: 'example.com',
      origins: ['https://shop.example.com'],
      rpName: 'Ariadne',
    });
    expect(shop!.policy.passkeyDoor).toEqual({ perHour: 6 });
    expect(shop!.policy.probeProbability).toBe(0.25);
    // Unset fields come from the server: difficulty 16 gets its own headroom of 4 bits.
    expect(forum!.policy.pow).toEqual({ difficulty: 16, maxDifficulty: 20, freePerMinute: 10 });
    expect(forum!.policy.maze).toEqual({ width: 10, height: 6, difficulty: 0.3 });
    // The scoring table is server-wide (SCORING_TABLE) unless a site names its own table_file.
    expect(forum!.policy.scoring).toEqual({ mode: 'shadow', threshold: config.scoring.threshold, table: config.scoring.table });
    expect(forum!.policy.remoteip).toBe('reject');
    expect(shop!.policy.keyboard).toEqual({ door: 'auto', floorPerMinute: 4, surgeFactor: 3, calmMinutes: 2, clientPerHour: 12 });
    // Unset keyboard fields come from the server (KEYBOARD_*).
    expect(forum!.policy.keyboard).toEqual({ ...config.keyboardDoor, door: 'people_first' });
    expect(forum!.policy.passkeyDoor).toBeUndefined();
    expect(staging!.policy).toEqual(r.snapshot.fallback);
  });

  it.each([
    [
      'a field out of range',
      { sites: { shop: site({ policy: { maze: { width: 99 } } }) } },
      'site "shop": policy.maze.width: Expected integer to be less or equal to 32',
    ],
    ['a misspelt field', { sites: { shop: site({ polcy: {} }) } }, 'site "shop": polcy: Unexpected property'],
    [
      'a misspelt policy field',
      { sites: { shop: site({ policy: { pow: { difficulty: 20, max: 24 } } }) } },
      'site "shop": policy.pow.max: Unexpected property',
    ],
    ['a missing secret', { sites: { shop: { hostnames: ['a.example'] } } }, 'site "shop": secret: Expected required property'],
    [
      'a short secret',
      { sites: { shop: site({ secret: 'short' }) } },
      'site "shop": secret: Expected string length greater or equal to 32',
    ],
    [
      'no hostnames',
      { sites: { shop: site({ hostnames: [] }) } },
      'site "shop": hostnames: Expected array length to be greater or equal to 1',
    ],
    [
      'a URL for a hostname',
      { sites: { shop: site({ hostnames: ['https://shop.example.com'] }) } },
      'site "shop": hostnames.0: not a hostname',
    ],
    ['an upper-case hostname', { sites: { shop: site({ hostnames: ['Shop.example.com'] }) } }, 'site "shop": hostnames.0: not a hostname'],
    ['a bad site key', { sites: { 'shop key': site() } }, 'site "shop key": key: not a valid site key'],
    ['a reserved test key', { sites: { 'test-always-pass': site() } }, 'site "test-always-pass": key: is a reserved test key'],
    ['a bad mode', { sites: { shop: site({ policy: { scoring: { mode: 'strict' } } }) } }, 'site "shop": policy.scoring.mode'],
    [
      'max below difficulty',
      { sites: { shop: site({ policy: { pow: { difficulty: 20, max_difficulty: 19 } } }) } },
      'site "shop": policy.pow.max_difficulty: 19 is below the difficulty 20',
    ],
    [
      'passkeys without a relying party',
      { sites: { shop: site({ policy: { passkeys: { mode: 'required' } } }) } },
      'site "shop": policy.passkeys: rp_id (or WEBAUTHN_RP_ID) is required',
    ],
    [
      'passkeys on an IP',
      { sites: { shop: site({ policy: { passkeys: { mode: 'preferred', rp_id: '10.0.0.1', origins: ['https://10.0.0.1'] } } }) } },
      'site "shop": policy.passkeys: rp_id (or WEBAUTHN_RP_ID) must be a domain name',
    ],
    [
      'a keyboard door that is none',
      { sites: { shop: site({ policy: { keyboard: { door: 'closed' } } }) } },
      'site "shop": policy.keyboard.door',
    ],
    [
      'a surge factor under 1.5',
      { sites: { shop: site({ policy: { keyboard: { surge_factor: 1.49 } } }) } },
      'site "shop": policy.keyboard.surge_factor: Expected number to be greater or equal to 1.5',
    ],
    [
      'a keyboard floor under 0.1',
      { sites: { shop: site({ policy: { keyboard: { floor_per_minute: 0.09 } } }) } },
      'site "shop": policy.keyboard.floor_per_minute: Expected number to be greater or equal to 0.1',
    ],
    [
      'calm over an hour',
      { sites: { shop: site({ policy: { keyboard: { calm_minutes: 61 } } }) } },
      'site "shop": policy.keyboard.calm_minutes: Expected integer to be less or equal to 60',
    ],
    [
      'a negative client budget',
      { sites: { shop: site({ policy: { keyboard: { client_per_hour: -1 } } }) } },
      'site "shop": policy.keyboard.client_per_hour: Expected integer to be greater or equal to 0',
    ],
    ['no sites object', { site: {} }, 'site: Unexpected property'],
    ['not JSON', '{"sites": {', 'not valid JSON'],
  ])('refuses %s, naming the site and the field', (_what, file, message) => {
    expect(errorsOf(file).join('\n')).toContain(message);
  });

  it("reads a site's keyboard_mode; a site that sets its mode sets its keyboard solves' too; otherwise SCORING_KEYBOARD_MODE", () => {
    const server = defaultConfig({ scoring: { ...config.scoring, keyboardMode: 'shadow' } });
    const r = parseSitesFile(
      JSON.stringify({
        sites: {
          own: site({ policy: { scoring: { mode: 'enforce', keyboard_mode: 'off' } } }),
          strict: site({ secret: `${SECRET}-strict`, policy: { scoring: { mode: 'enforce' } } }),
          plain: site({ secret: `${SECRET}-plain` }),
        },
      }),
      server,
      'sites.json',
    );
    if (!r.ok) throw new Error(r.errors.join('\n'));
    const [own, strict, plain] = r.snapshot.sites!;
    expect(own!.policy.scoring).toMatchObject({ mode: 'enforce', keyboardMode: 'off' });
    expect(strict!.policy.scoring.mode).toBe('enforce');
    expect(strict!.policy.scoring).not.toHaveProperty('keyboardMode');
    expect(plain!.policy.scoring).toMatchObject({ mode: 'enforce', keyboardMode: 'shadow' });
    expect(errorsOf({ sites: { shop: site({ policy: { scoring: { keyboard_mode: 'lenient' } } }) } }).join('\n')).toContain(
      'site "shop": policy.scoring.keyboard_mode',
    );
  });

  it('refuses one secret shared by two sites, naming both', () => {
    expect(errorsOf({ sites: { a: site(), b: site() } })).toEqual([
      `site "b": secret: is also the secret of site "a"; each site needs its own`,
    ]);
  });

  it('accepts the limits themselves', () => {
    const r = parse({
      sites: {
        ['k'.repeat(128)]: site({
          hostnames: ['*.example.com', 'localhost', '127.0.0.1', '[::1]'],
          secret: 's'.repeat(32),
          policy: {
            pow: { difficulty: 32, max_difficulty: 32, free_per_minute: 1 },
            maze: { width: 2, height: 32, difficulty: 1 },
            probe_probability: 0,
          },
        }),
      },
    });
    expect(r.ok).toBe(true);
    expect(errorsOf({ sites: { ['k'.repeat(129)]: site() } })[0]).toContain('not a valid site key');
  });

  it("loads a site's table_file relative to the sites file, with its threshold unless the site sets one; a bad one names the site and field", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ariadne-sites-'));
    try {
      await writeFile(path.join(dir, 'fitted.json'), JSON.stringify({ ...scoringTables.v3, version: 'v3-site', threshold: 0.42 }));
      const file = {
        sites: {
          fitted: site({ policy: { scoring: { table_file: 'fitted.json' } } }),
          own: site({ secret: `${SECRET}-own`, policy: { scoring: { table_file: 'fitted.json', threshold: 0.6 } } }),
          plain: site({ secret: `${SECRET}-plain` }),
        },
      };
      const r = parseSitesFile(JSON.stringify(file), config, path.join(dir, 'sites.json'));
      if (!r.ok) throw new Error(r.errors.join('\n'));
      const [fitted, own, plain] = r.snapshot.sites!;
      expect(fitted!.policy.scoring).toMatchObject({ threshold: 0.42, siteTable: { version: 'v3-site', threshold: 0.42 } });
      expect(own!.policy.scoring).toMatchObject({ threshold: 0.6, siteTable: { version: 'v3-site' } });
      expect(plain!.policy.scoring).toEqual(config.scoring);
      const broken = parseSitesFile(
        JSON.stringify({ sites: { fitted: site({ policy: { scoring: { table_file: 'missing.json' } } }) } }),
        config,
        path.join(dir, 'sites.json'),
      );
      expect(broken).toEqual({
        ok: false,
        errors: [expect.stringMatching(/^site "fitted": policy\.scoring\.table_file: .*missing\.json cannot be read/)],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
