import type { Passkeys } from '../context.js';
import type { Site } from './Site.js';

/** The passkey settings of `site` with the credential store, or undefined when they are off for it. */
export function sitePasskeys(passkeys: Passkeys | undefined, site: Pick<Site, 'policy'>): Passkeys | undefined {
  if (passkeys === undefined || site.policy.webauthn.mode === 'off') return undefined;
  return { config: site.policy.webauthn, credentials: passkeys.credentials };
}
