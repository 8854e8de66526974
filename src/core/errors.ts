/**
 * Every error a route can answer with, as a stable code and its HTTP status.
 * Codes are part of the public contract: add, never rename.
 */
export const ErrorStatus = {
  invalid_request: 400,
  /** A body framing two HTTP parsers could read differently (see src/http/guard). */
  invalid_framing: 400,
  unauthorized: 401,
  hostname_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  rate_limited: 429,
  store_unavailable: 503,
  internal_error: 500,

  // sites (/challenge, /verify, /probe/arm)
  unknown_site_key: 400,

  // /verify
  challenge_not_found: 400,
  challenge_expired: 400,
  site_key_mismatch: 400,
  invalid_pow: 400,
  trace_time_mismatch: 400,
  invalid_signature: 400,
  webauthn_required: 400,
  webauthn_failed: 400,
  invalid_path: 400,
  probe_failed: 400,
  behavioral_rejected: 400,
  duplicate_trace: 400,

  // probes
  probe_not_found: 400,
  probe_not_reached: 400,
  probe_attempts_exceeded: 400,
  invalid_ticket: 400,
  ticket_expired: 400,
  ticket_already_used: 400,
  wrong_cell: 400,
  reaction_out_of_window: 400,

  // tokens (/siteverify, verifyToken)
  missing_input: 400,
  invalid_token: 400,
  token_expired: 400,
  token_already_used: 400,
  session_mismatch: 400,
  remoteip_mismatch: 400,

  // passkeys
  registration_failed: 400,
  registration_session_not_found: 400,
  /** A passkey used without a maze more often than the site's per-credential rate (POST /passkey). */
  passkey_rate_exceeded: 429,

  // Privacy Pass (GET /privacy-pass, see docs/doors.md)
  /** No token was sent: answered with the site's PrivateToken challenges (WWW-Authenticate). */
  privacy_pass_required: 401,
  /** The Authorization header is not one PrivateToken token of the right length. */
  privacy_pass_malformed: 400,
  /** A token of a type other than 0x0002 (publicly verifiable, blind RSA). */
  privacy_pass_unsupported_type: 400,
  /** A token for another challenge or origin, under a key the site does not trust, or whose signature fails. */
  privacy_pass_rejected: 403,
} as const;

export type ErrorCode = keyof typeof ErrorStatus;

/** A failure as a value: the stable code, and for invalid_request the field at fault. */
export interface Failure {
  code: ErrorCode;
  detail?: string;
}

export function failure(code: ErrorCode, detail?: string): Failure {
  return detail === undefined ? { code } : { code, detail };
}
