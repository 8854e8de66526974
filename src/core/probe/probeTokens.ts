/** `typ` claims: a ticket can never pass as a completion token or a session token. */
export const TICKET_TYP = 'probe_ticket';
export const COMPLETION_TYP = 'probe_completion';

/** Earliest and latest tap after arming, measured by the server. */
export const MIN_REACTION_MS = 150;
export const PROBE_DEADLINE_MS = 5_000;

/** Arm attempts allowed per probe: bounds guessing over the cells, a wrong tap burns a ticket. */
export const MAX_ARM_ATTEMPTS = 3;

export interface TicketClaims {
  typ: typeof TICKET_TYP;
  cid: string;
  pid: string;
  sid: string;
  /** The site key: completing resolves the site's policy (maze, probes) from it. */
  site: string;
  jti: string;
  armed_at: number;
  deadline_at: number;
  exp: number;
}

export interface CompletionClaims {
  typ: typeof COMPLETION_TYP;
  cid: string;
  pid: string;
  sid: string;
  /** Server-measured reaction (arm to complete), ms: scoring reads it at /verify. */
  reaction_ms: number;
  exp: number;
}

/** The type each claim must have, per token kind. */
const TICKET_FIELDS = {
  cid: 'string',
  pid: 'string',
  sid: 'string',
  site: 'string',
  jti: 'string',
  armed_at: 'number',
  deadline_at: 'number',
  exp: 'number',
} as const;
const COMPLETION_FIELDS = { cid: 'string', pid: 'string', sid: 'string', reaction_ms: 'number', exp: 'number' } as const;

function hasClaims(c: Record<string, unknown>, typ: string, fields: Record<string, 'string' | 'number'>): boolean {
  return c.typ === typ && Object.entries(fields).every(([name, type]) => typeof c[name] === type);
}

/** Claims of a verified ticket, or undefined if any is missing or of the wrong type. */
export function ticketClaims(c: Record<string, unknown>): TicketClaims | undefined {
  return hasClaims(c, TICKET_TYP, TICKET_FIELDS) ? (c as unknown as TicketClaims) : undefined;
}

export function completionClaims(c: Record<string, unknown>): CompletionClaims | undefined {
  return hasClaims(c, COMPLETION_TYP, COMPLETION_FIELDS) ? (c as unknown as CompletionClaims) : undefined;
}
