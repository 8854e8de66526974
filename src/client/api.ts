// The service's routes as the widget calls them (interface.md). Every call resolves to a
// value: a parsed body, or a failure with a stable code ("network" when nothing came back).
import type { RawEvent } from '../kernel/types.js';
import type { KeyboardDoor } from './keyboardDoorNotice.js';

export interface ProbeCell {
  x: number;
  y: number;
  color: string;
  isTarget?: boolean;
}

export interface Probe {
  id: string;
  type: string;
  instruction?: string;
  target_color: string;
  distractor_colors?: string[];
  cells: ProbeCell[];
  trigger_cell: { x: number; y: number };
}

export interface Challenge {
  id: string;
  challenge_type: string;
  maze_seed: number;
  maze_width: number;
  maze_height: number;
  maze_difficulty: number;
  pow_challenge: string;
  pow_difficulty: number;
  /** What a keyboard solve needs; absent from servers that ask keyboard solves for no more. */
  pow_difficulty_keyboard?: number;
  /** The site's keyboard door (absent from older servers): the widget explains any but people_first. */
  keyboard_door?: KeyboardDoor;
  site_key: string;
  created_at: number;
  expires_at: number;
  cell_size: number;
  requirements?: {
    probe?: { mode?: string; required_completion_count?: number };
    webauthn?: { mode?: string };
  };
  probes?: Probe[];
  webauthn_request_options?: WebAuthnRequestOptions;
  /** The site opened the passkey door and this stable_id has a passkey: POST /passkey passes without a maze. */
  passkey_door?: boolean;
  /** The site trusts Privacy Pass issuers: GET /privacy-pass may pass without a maze. */
  privacy_pass?: boolean;
  /** A test site key: nothing to solve, /verify answers a fixed outcome. */
  test?: boolean;
}

export interface WebAuthnRequestOptions {
  challenge: string;
  rpId?: string;
  timeout?: number;
  userVerification?: UserVerificationRequirement;
  allowCredentials?: { id: string; type: 'public-key'; transports?: string[] }[];
}

export type Result<T> = { ok: true; value: T } | { ok: false; code: string };

export class Api {
  constructor(private readonly base: string) {}

  async post<T>(path: string, body: unknown, accept: (json: Record<string, unknown>) => boolean): Promise<Result<T>> {
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
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
  async privacyPass(query: { challenge_id: string; site_key: string; session_id: string }): Promise<Result<{ token: string }>> {
    let res: Response;
    try {
      res = await fetch(`${this.base}/privacy-pass?${new URLSearchParams(query)}`);
    } catch {
      return { ok: false, code: 'network' };
    }
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.ok && json.success === true && typeof json.token === 'string') return { ok: true, value: { token: json.token } };
    return { ok: false, code: typeof json.error_code === 'string' ? json.error_code : `http_${res.status}` };
  }

  /** POST /passkey: a returning passkey's assertion over the challenge, a session token without a maze. */
  passkeyDoor(body: { challenge_id: string; site_key: string; session_id: string; stable_id: string; webauthn: unknown }): Promise<Result<{ token: string }>> {
    return this.post('/passkey', body, (j) => j.success === true && typeof j.token === 'string');
  }

  verify(body: Record<string, unknown>): Promise<Result<{ token: string }>> {
    return this.post('/verify', body, (j) => j.success === true && typeof j.token === 'string');
  }
}
