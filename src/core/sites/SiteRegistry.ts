import { createHash, timingSafeEqual } from 'node:crypto';
import type { Site } from './Site.js';
import { type SitePolicy, policyDigest } from './SitePolicy.js';
import { testSiteOutcome } from './testKeys.js';

/** A site as a sites file states it (the registry adds the digests). */
export interface SiteEntry {
  key: string;
  hostnames: string[];
  secret: string;
  policy: SitePolicy;
}

/**
 * Everything the registry is built from: plain data, so the thread that reads the sites file
 * can hand it to every thread serving requests, at start-up and on each reload.
 */
export interface SitesSnapshot {
  /** The sites file it came from; undefined when there is none. */
  source: string | undefined;
  /** The listed sites; undefined: any site key is served under `fallback`. */
  sites: SiteEntry[] | undefined;
  /** The policy of every site key when nothing is listed, and of the test keys. */
  fallback: SitePolicy;
  /** Whether the test keys answer (testKeys.ts). */
  testKeys: boolean;
}

/** What a reload changed, by site key. */
export interface SitesChange {
  added: string[];
  removed: string[];
  /** Sites whose policy changed: their earlier challenges are now answered as expired. */
  repoliced: string[];
}

/** Earlier policy digests kept per site, so their challenges get a clear `challenge_expired`. */
const RETIRED_KEPT = 4;
/** Registry key of the policy every site key shares when nothing is listed. */
const OPEN = '\0open';

const digestOfSecret = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * The sites a server serves, swapped whole on reload: a request that resolved its site keeps
 * that object, so a reload never changes the rules under a request in flight.
 */
export class SiteRegistry {
  #listed: Map<string, Site> | undefined;
  #bySecret = new Map<string, Site>();
  #open!: Site;
  #testKeys = false;
  #source: string | undefined;
  readonly #retired = new Map<string, string[]>();

  constructor(snapshot: SitesSnapshot) {
    this.replace(snapshot);
  }

  /** Serves `snapshot` from now on; earlier policies' digests are retired, not forgotten. */
  replace(snapshot: SitesSnapshot): SitesChange {
    const before = this.#listed;
    const open = this.#site(OPEN, '', [], undefined, snapshot.fallback);
    const listed =
      snapshot.sites && new Map(snapshot.sites.map((s) => [s.key, this.#site(s.key, s.key, s.hostnames, s.secret, s.policy)] as const));
    const bySecret = new Map<string, Site>();
    for (const site of listed?.values() ?? []) bySecret.set(digestOfSecret(site.secret!).toString('hex'), site);
    this.#listed = listed;
    this.#bySecret = bySecret;
    this.#open = open;
    this.#testKeys = snapshot.testKeys;
    this.#source = snapshot.source;
    const keys = (m: Map<string, Site> | undefined) => [...(m?.keys() ?? [])];
    return {
      added: keys(listed).filter((k) => !before?.has(k)),
      removed: keys(before).filter((k) => !listed?.has(k)),
      repoliced: keys(listed).filter((k) => before?.has(k) === true && before.get(k)!.digest !== listed!.get(k)!.digest),
    };
  }

  /**
   * The site of `siteKey`: a test key (reserved: unknown while test keys are off), a listed site,
   * or without a list any key; else undefined.
   */
  resolve(siteKey: string): Site | undefined {
    const test = testSiteOutcome(siteKey);
    if (test !== undefined) return this.#testKeys ? { ...this.#open, key: siteKey, test } : undefined;
    if (this.#listed !== undefined) return this.#listed.get(siteKey);
    return { ...this.#open, key: siteKey };
  }

  /** The listed site whose /siteverify secret is `secret` (compared in constant time), or undefined. */
  bySecret(secret: string): Site | undefined {
    const digest = digestOfSecret(secret);
    const site = this.#bySecret.get(digest.toString('hex'));
    return site !== undefined && timingSafeEqual(digestOfSecret(site.secret!), digest) ? site : undefined;
  }

  /** The sites the sites file lists (none without one). */
  get listedSites(): Site[] {
    return [...(this.#listed?.values() ?? [])];
  }

  /** Whether a sites file decides which site keys exist (and /siteverify needs their secrets). */
  get listed(): boolean {
    return this.#listed !== undefined;
  }

  get testKeys(): boolean {
    return this.#testKeys;
  }

  /** The sites file served, if any. */
  get source(): string | undefined {
    return this.#source;
  }

  /** A site with its digest, remembering the digest it replaces under the same key. */
  #site(id: string, key: string, hostnames: readonly string[], secret: string | undefined, policy: SitePolicy): Site {
    const digest = policyDigest(policy);
    const previous = id === OPEN ? this.#open?.digest : this.#listed?.get(id)?.digest;
    let retired = this.#retired.get(id) ?? [];
    if (previous !== undefined && previous !== digest) {
      retired = [previous, ...retired.filter((d) => d !== digest && d !== previous)].slice(0, RETIRED_KEPT);
      this.#retired.set(id, retired);
    }
    return { key, hostnames, secret, policy, digest, retired };
  }
}
