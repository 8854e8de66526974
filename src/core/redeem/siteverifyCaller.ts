import type { Site } from '../sites/Site.js';
import type { SiteRegistry } from '../sites/SiteRegistry.js';
import { type TestSecretVerdict, testSecretVerdict } from '../sites/testKeys.js';
import { secretMatcher } from '../token/secretMatcher.js';

/** Who is redeeming a token at /siteverify, by the secret it presented. */
export type SiteverifyCaller =
  /** Without a sites file: the operator (SITEVERIFY_AUTH_TOKEN, or anyone when it is unset). */
  | { kind: 'operator' }
  /** With a sites file: the site whose secret it is; it redeems only its own tokens. */
  | { kind: 'site'; site: Site }
  /** A test secret (when test keys are on): a fixed verdict. */
  | { kind: 'test'; verdict: TestSecretVerdict };

/**
 * Identifies the caller of /siteverify from the secret it presented (the `secret` field or the
 * bearer token; undefined when neither), or undefined when that secret opens nothing (401).
 */
export function siteverifyCallerFinder(
  sites: SiteRegistry,
  operatorToken: string | undefined,
): (secret: string | undefined) => SiteverifyCaller | undefined {
  const operator = operatorToken === undefined ? () => true : secretMatcher(operatorToken);
  return (secret) => {
    const verdict = secret !== undefined && sites.testKeys ? testSecretVerdict(secret) : undefined;
    if (verdict !== undefined) return { kind: 'test', verdict };
    if (sites.listed) {
      const site = secret === undefined ? undefined : sites.bySecret(secret);
      return site === undefined ? undefined : { kind: 'site', site };
    }
    if (operatorToken === undefined) return { kind: 'operator' };
    return secret !== undefined && operator(secret) ? { kind: 'operator' } : undefined;
  };
}
