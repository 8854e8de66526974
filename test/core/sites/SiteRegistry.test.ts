import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config.js';
import { hostnameAllowed } from '../../../src/core/sites/Site.js';
import { SiteRegistry, type SitesSnapshot } from '../../../src/core/sites/SiteRegistry.js';
import { defaultPolicy, policyDigest } from '../../../src/core/sites/SitePolicy.js';
import { secretOf, sitesSnapshot } from '../../helpers/sites.js';

const config = defaultConfig();
const file = (mazeWidth = 8) => ({
  sites: {
    a: { hostnames: ['a.example'], secret: secretOf('a'), policy: { maze: { width: mazeWidth } } },
    b: { hostnames: ['*.b.example'], secret: secretOf('b') },
  },
});
const open = (testKeys: boolean): SitesSnapshot => ({ source: undefined, sites: undefined, fallback: defaultPolicy(config), testKeys });

describe('SiteRegistry', () => {
  it('with a sites file, knows only its sites, and finds a site by its secret', () => {
    const sites = new SiteRegistry(sitesSnapshot(file(), config));
    expect(sites.listed).toBe(true);
    expect(sites.resolve('a')?.key).toBe('a');
    expect(sites.resolve('c')).toBeUndefined();
    expect(sites.bySecret(secretOf('b'))?.key).toBe('b');
    expect(sites.bySecret(`${secretOf('b')}x`)).toBeUndefined();
    expect(sites.bySecret('')).toBeUndefined();
  });

  it('without one, serves any site key under the one policy', () => {
    const sites = new SiteRegistry(open(false));
    expect(sites.listed).toBe(false);
    expect(sites.resolve('anything')).toMatchObject({ key: 'anything', hostnames: [], digest: policyDigest(defaultPolicy(config)) });
    expect(sites.bySecret(secretOf('a'))).toBeUndefined();
  });

  it('answers the test keys only when they are on', () => {
    expect(new SiteRegistry(open(true)).resolve('test-always-pass')?.test).toBe('pass');
    expect(new SiteRegistry(open(true)).resolve('test-always-fail')?.test).toBe('fail');
    expect(new SiteRegistry(open(false)).resolve('test-always-pass')).toBeUndefined();
    expect(new SiteRegistry({ ...sitesSnapshot(file(), config), testKeys: false }).resolve('test-always-pass')).toBeUndefined();
  });

  it('on replace, retires the digest of a changed policy, keeps the sites resolved before unchanged, and reports the change', () => {
    const sites = new SiteRegistry(sitesSnapshot(file(8), config));
    const before = sites.resolve('a')!;
    const change = sites.replace(
      sitesSnapshot({ sites: { ...file(10).sites, c: { hostnames: ['c.example'], secret: secretOf('c') } } }, config),
    );
    expect(change).toEqual({ added: ['c'], removed: [], repoliced: ['a'] });
    const after = sites.resolve('a')!;
    expect(after.policy.maze.width).toBe(10);
    expect(after.retired).toEqual([before.digest]);
    expect(before.policy.maze.width).toBe(8);
    expect(sites.resolve('b')!.retired).toEqual([]);
    expect(sites.replace(sitesSnapshot({ sites: { a: file(10).sites.a } }, config))).toEqual({
      added: [],
      removed: ['b', 'c'],
      repoliced: [],
    });
  });
});

describe('hostnameAllowed', () => {
  const site = { hostnames: ['shop.example.com', '*.b.example', '[::1]'] };
  it.each([
    ['https://shop.example.com', true],
    ['https://shop.example.com:8443', true],
    ['http://SHOP.example.com', true],
    ['https://x.shop.example.com', false],
    ['https://evil-shop.example.com', false],
    ['https://shop.example.com.evil.net', false],
    ['https://b.example', false],
    ['https://x.b.example', true],
    ['https://x.y.b.example', true],
    ['https://xb.example', false],
    ['http://[::1]:8787', true],
    ['null', false],
    ['', false],
    ['not a url', false],
  ])('%s -> %s', (origin, allowed) => {
    expect(hostnameAllowed(site, origin)).toBe(allowed);
  });

  it('any origin, or none, when a site lists no hostnames', () => {
    expect(hostnameAllowed({ hostnames: [] }, '')).toBe(true);
  });
});
