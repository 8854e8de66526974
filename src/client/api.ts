// The service's routes as the widget calls them (interface.md). Every call resolves to a
// value: a parsed body, or a failure with a stable code ("network" when nothing came back).
import type { Challenge as IssuedChallenge, ProbeView } from '../core/challenge/Challenge.js';
import type { RawEvent } from '../kernel/types.js';

/**
 * A challenge as the widget reads it: as issued (its one declaration is core/challenge/Challenge.ts,
 * imported as a type only), except that `pow_difficulty_keyboard` may be absent from servers that
 * ask keyboard solves for no more.
 */
export type Challenge = Omit<IssuedChallenge, 'pow_difficulty_keyboard'> & { pow_difficulty_keyboard?: number };
export type Probe = ProbeView;
export type WebAuthnRequestOptions = NonNullable<IssuedChallenge['webauthn_request_options']>;

export type Result<T> = { ok: true; value: T } | { ok: false; code: string };

export class Api {
  constructor(private readonly base: string) {}

  post<T>(path: string, body: unknown, accept: (json: Record<string, unknown>) => boolean): Promise<Result<T>> {
    return this.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, accept);
  }

  /** One call: the body when the answer is a 2xx that `accept`s it, else the answer's error code. */
  private async request<T>(path: string, init: RequestInit, accept: (json: Record<string, unknown>) => boolean): Promise<Result<T>> {
    let res: Response;
    try {
      res = await fetch(this.base + path, init);
    } catch {
      return { ok: false, code: 'network' };
    }
    let json: Record<string, unknown>;
    try {
      json = (await res.json()) as Record<string, unknown>;
    } catch {
      return { ok: false, code: res.ok ? 'invalid_response' : `http_${res.status}` };
    }
    if (res.ok && accept(json)) return { ok: true, value: json as T };
    const code = json.error_code ?? json.error;
    return { ok: false, code: typeof code === 'string' ? code : `http_${res.status}` };
  }

  challenge(body: {
    site_key: string;
    session_id: string;
    stable_id?: string;
    client_capabilities: { reduced_motion: boolean; webauthn_available: boolean; pointer_types: string[] };
  }): Promise<Result<Challenge>> {
    return this.post<Challenge>('/challenge', body, (j) => typeof j.id === 'string' && typeof j.maze_seed === 'number');
  }

  armProbe(body: {
    challenge_id: string;
    site_key: string;
    session_id: string;
    probe_id: string;
    events: RawEvent[];
  }): Promise<Result<{ probe_ticket: string; armed_at: number; deadline_at: number }>> {
    return this.post('/probe/arm', body, (j) => j.success === true && typeof j.probe_ticket === 'string');
  }

  completeProbe(body: {
    challenge_id: string;
    session_id: string;
    probe_ticket: string;
    tapped_cell: { x: number; y: number };
  }): Promise<Result<{ completion_token: string }>> {
    return this.post('/probe/complete', body, (j) => j.success === true && typeof j.completion_token === 'string');
  }

  /**
   * GET /privacy-pass: a browser holding Privacy Pass tokens answers the server's 401
   * PrivateToken challenge by itself (it retries with the token), and this resolves to the
   * session token; one that holds none leaves the 401 (`privacy_pass_required`).
   */
  privacyPass(query: { challenge_id: string; site_key: string; session_id: string }): Promise<Result<{ token: string }>> {
    return this.request(`/privacy-pass?${new URLSearchParams(query)}`, {}, (j) => j.success === true && typeof j.token === 'string');
  }

  /** POST /passkey: a returning passkey's assertion over the challenge, a session token without a maze. */
  passkeyDoor(body: {
    challenge_id: string;
    site_key: string;
    session_id: string;
    stable_id: string;
    webauthn: unknown;
  }): Promise<Result<{ token: string }>> {
    return this.post('/passkey', body, (j) => j.success === true && typeof j.token === 'string');
  }

  verify(body: Record<string, unknown>): Promise<Result<{ token: string }>> {
    return this.post('/verify', body, (j) => j.success === true && typeof j.token === 'string');
  }
}
