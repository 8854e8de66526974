import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The session cookie's name and its path: sent with the dashboard's requests only. */
export const SESSION_COOKIE = 'ariadne_dashboard';
export const SESSION_PATH = '/dashboard';
/** How long a login lasts. */
export const SESSION_LIFE_MS = 12 * 60 * 60 * 1000;

/**
 * The dashboard's sessions: a cookie `<expiry>.<HMAC of the expiry>` under a key derived from the
 * signing secret and DASHBOARD_TOKEN, so the token itself never travels back to the browser, a
 * session cannot be forged or stretched, and changing either secret ends every session.
 */
export class DashboardSessions {
  readonly #key: Buffer;
  readonly #tokenDigest: Buffer;

  constructor(signingSecret: string, token: string) {
    this.#key = createHmac('sha256', signingSecret).update(`ariadne dashboard session\0${token}`).digest();
    this.#tokenDigest = digest(token);
  }

  /** Whether `given` is the token, compared in constant time (over digests: lengths may differ). */
  tokenMatches(given: string): boolean {
    return timingSafeEqual(digest(given), this.#tokenDigest);
  }

  /** A new session's cookie value, valid until now + SESSION_LIFE_MS. */
  open(now: number): string {
    const expiry = String(now + SESSION_LIFE_MS);
    return `${expiry}.${this.#mac(expiry)}`;
  }

  /** Whether a Cookie header carries a live session. */
  holds(cookieHeader: string, now: number): boolean {
    const value = cookieValue(cookieHeader, SESSION_COOKIE);
    if (value === undefined) return false;
    const dot = value.indexOf('.');
    const expiry = value.slice(0, dot);
    if (dot === -1 || !/^\d{1,16}$/.test(expiry) || Number(expiry) <= now) return false;
    const given = Buffer.from(value.slice(dot + 1));
    const wanted = Buffer.from(this.#mac(expiry));
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }

  #mac(expiry: string): string {
    return createHmac('sha256', this.#key).update(expiry).digest('base64url');
  }
}

/** The Set-Cookie header of a session: HttpOnly, SameSite=Strict, Secure over https, on the dashboard's path only. */
export function sessionCookieHeader(value: string, secure: boolean): string {
  const maxAge = Math.floor(SESSION_LIFE_MS / 1000);
  return `${SESSION_COOKIE}=${value}; Path=${SESSION_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
