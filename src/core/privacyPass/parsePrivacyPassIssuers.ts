import { MAX_ISSUERS, type PrivacyPassIssuer, checkIssuer } from './PrivacyPassIssuer.js';

/**
 * PRIVACY_PASS_ISSUERS: comma-separated `name=token_key` entries (e.g.
 * `issuer.example=MIIBUjA9Bgkq...`); one name may appear with several keys while a key is rotated.
 * Empty or unset: no issuer, the Privacy Pass door is closed. Throws an Error naming the fault.
 */
export function parsePrivacyPassIssuers(text: string | undefined): PrivacyPassIssuer[] {
  const entries = (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length > MAX_ISSUERS) throw new Error(`PRIVACY_PASS_ISSUERS: at most ${MAX_ISSUERS} entries`);
  return entries.map((entry) => {
    const at = entry.indexOf('=');
    if (at <= 0) throw new Error(`PRIVACY_PASS_ISSUERS: ${JSON.stringify(entry.slice(0, 40))} is not name=token_key`);
    try {
      return checkIssuer(entry.slice(0, at).trim(), entry.slice(at + 1).trim());
    } catch (e) {
      throw new Error(`PRIVACY_PASS_ISSUERS: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
}
