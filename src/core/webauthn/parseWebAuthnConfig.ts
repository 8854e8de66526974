import type { WebAuthnConfig, WebAuthnMode } from './WebAuthnConfig.js';

const MODES: readonly WebAuthnMode[] = ['off', 'preferred', 'required'];
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Reads WEBAUTHN_MODE (off), WEBAUTHN_RP_ID, WEBAUTHN_ORIGIN (comma-separated) and
 * WEBAUTHN_RP_NAME (Ariadne). Throws an Error naming the variable when the configuration could
 * not work in a browser, so start-up stops instead of every ceremony failing later.
 */
export function parseWebAuthnConfig(env: Record<string, string | undefined>): WebAuthnConfig {
  const mode = (env.WEBAUTHN_MODE ?? 'off').trim().toLowerCase();
  if (!(MODES as readonly string[]).includes(mode)) {
    throw new Error(`WEBAUTHN_MODE must be one of ${MODES.join(', ')}; got "${env.WEBAUTHN_MODE}"`);
  }
  const rpName = (env.WEBAUTHN_RP_NAME ?? '').trim() || 'Ariadne';
  const rpId = (env.WEBAUTHN_RP_ID ?? '').trim().toLowerCase();
  const origins = (env.WEBAUTHN_ORIGIN ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o.length > 0);
  if (mode === 'off') return { mode, rpId, origins, rpName };

  if (rpId === '') {
    throw new Error(`WEBAUTHN_RP_ID is required when WEBAUTHN_MODE=${mode} (the site's domain, e.g. example.com)`);
  }
  if (!DOMAIN.test(rpId) || /^[0-9.]+$/.test(rpId)) {
    throw new Error(`WEBAUTHN_RP_ID must be a domain name without scheme or port (an IP address is not allowed); got "${rpId}"`);
  }
  if (origins.length === 0) {
    throw new Error(`WEBAUTHN_ORIGIN is required when WEBAUTHN_MODE=${mode} (comma-separated page origins, e.g. https://example.com)`);
  }
  for (const origin of origins) checkOrigin(origin, rpId);
  return { mode: mode as WebAuthnMode, rpId, origins, rpName };
}

/** An origin a browser would send in clientDataJSON, on the RP id or one of its subdomains. */
function checkOrigin(origin: string, rpId: string): void {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`WEBAUTHN_ORIGIN entry "${origin}" is not a URL origin such as https://example.com`);
  }
  if (url.origin !== origin) {
    throw new Error(
      `WEBAUTHN_ORIGIN entry "${origin}" must be a bare origin (scheme://host[:port], no path or trailing slash): "${url.origin}"`,
    );
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && url.hostname === 'localhost');
  if (!secure) {
    throw new Error(`WEBAUTHN_ORIGIN entry "${origin}" must use https (plain http only on localhost)`);
  }
  if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) {
    throw new Error(`WEBAUTHN_ORIGIN entry "${origin}" is not on WEBAUTHN_RP_ID "${rpId}" or one of its subdomains`);
  }
}
