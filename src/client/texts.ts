/**
 * Every text the widget shows or announces. Pass a partial object as `texts` to translate or
 * reword any of them; missing keys fall back to these English defaults.
 */
export interface Texts {
  /** Accessible name of the widget. */
  title: string;
  /** Accessible description of the maze surface (read by screen readers). */
  mazeLabel: string;
  /** Drawn in the strip below the maze. */
  strip: string;
  loading: string;
  ready: string;
  tracing: string;
  keyboardStarted: string;
  /** `{row}`, `{col}` and `{open}` are replaced. */
  keyboardPosition: string;
  keyboardWall: string;
  directions: { up: string; down: string; left: string; right: string };
  none: string;
  working: string;
  submitting: string;
  passkey: string;
  /** While the widget asks the browser for a Privacy Pass token (sites that trust issuers). */
  privacyPass: string;
  /** Verified by a Privacy Pass token: no puzzle. */
  privacyPassVerified: string;
  /** The browser had no Privacy Pass token: the puzzle is shown (this, then the ready text). */
  privacyPassFallback: string;
  /** The passkey door's button: pass with a returning passkey instead of the puzzle. */
  passkeyDoor: string;
  /** The ready text when the passkey door is offered beside the puzzle. */
  passkeyDoorOffered: string;
  /**
   * The ready text when the passkey door is offered and the keyboard door is tightened (a surge,
   * or strict): the passkey first, then the puzzle, whose keyboard solve the passkey confirms.
   */
  passkeyDoorFirst: string;
  /** Verified by a returning passkey: no puzzle. */
  passkeyVerified: string;
  /** The passkey was not given (cancelled, or none on this device): the puzzle stays. */
  passkeyDoorDeclined: string;
  verified: string;
  /** Shown while a test site key's fixed outcome is fetched (no puzzle is drawn). */
  testKey: string;
  expired: string;
  tokenExpired: string;
  retry: string;
  /** The button that closes the puzzle when it opens in a dialog (invisible modes of the compatible scripts). */
  close: string;
  /** `{label}` is replaced by the target's shape and colour name. */
  probeInstruction: string;
  probeArming: string;
  probeDone: string;
  /** `{percent}` is replaced. */
  powProgress: string;
  powDone: string;
  startLabel: string;
  exitLabel: string;
  /** Names of the probe colours and shapes, by colour name (red, blue, green, yellow, purple, orange) and the shape drawn. */
  colors: Record<string, string>;
  shapes: Record<string, string>;
  /** Per error code; unknown codes use `errors.default`. */
  errors: Record<string, string>;
}

export const defaultTexts: Texts = {
  title: 'Human check',
  mazeLabel: 'Maze. Drag from S at the top left to E at the bottom right, or press Enter to start and use the arrow keys.',
  strip: 'Drag from S to E',
  loading: 'Loading the puzzle…',
  ready: 'Trace a path from S to E. Keyboard: press Enter, then use the arrow keys.',
  tracing: 'Keep going to E.',
  keyboardStarted: 'Started at S, row 1, column 1.',
  keyboardPosition: 'Row {row}, column {col}. Open: {open}.',
  keyboardWall: 'Wall. Open: {open}.',
  directions: { up: 'up', down: 'down', left: 'left', right: 'right' },
  none: 'none',
  working: 'Finishing the check…',
  submitting: 'Checking…',
  passkey: 'Confirm with your passkey…',
  privacyPass: 'Asking your browser for a Privacy Pass token. If it has one, there is no puzzle…',
  privacyPassVerified: 'Verified by a Privacy Pass token from your device, without a puzzle. You can continue.',
  privacyPassFallback: 'Your browser gave no Privacy Pass token.',
  passkeyDoor: 'Use my passkey instead of the puzzle',
  passkeyDoorOffered:
    'Trace a path from S to E (keyboard: press Enter, then the arrow keys), or use your passkey instead with the button below the puzzle.',
  passkeyDoorFirst:
    'Use your passkey with the button below the puzzle to skip the puzzle. Trace a path from S to E otherwise (keyboard: press Enter, then the arrow keys): keyboard solving is checked more strictly right now, unless you confirm with your passkey when you reach E.',
  passkeyVerified: 'Verified by your passkey, without a puzzle. You can continue.',
  passkeyDoorDeclined: 'No passkey was given. Trace a path from S to E, or try the passkey again.',
  verified: 'Verified. You can continue.',
  testKey: 'Test site key: no puzzle, the outcome is fixed.',
  expired: 'The puzzle expired. Here is a new one.',
  tokenExpired: 'The verification expired. Please solve the new puzzle.',
  retry: 'Try again',
  close: 'Close',
  probeInstruction: 'Tap the {label}.',
  probeArming: 'One moment…',
  probeDone: 'Thanks. Continue to E.',
  powProgress: 'Preparing {percent}%',
  powDone: 'Ready',
  startLabel: 'S',
  exitLabel: 'E',
  colors: { red: 'red', blue: 'blue', green: 'green', yellow: 'yellow', purple: 'purple', orange: 'orange' },
  shapes: { circle: 'circle', square: 'square', triangle: 'triangle', star: 'star', diamond: 'diamond', hexagon: 'hexagon' },
  errors: {
    default: 'The check failed. Please try again.',
    misconfigured: 'This check is not set up correctly',
    insecure_context: 'This check needs a secure page (https).',
    network: 'The service could not be reached. Please try again.',
    challenge_expired: 'The puzzle expired. Please try again.',
    challenge_not_found: 'This puzzle is no longer valid. Please try again.',
    invalid_path: 'The path did not reach E through the corridors. Please try again.',
    behavioral_rejected: 'We could not confirm that. Please try again, at your own pace.',
    duplicate_trace: 'We could not confirm that. Please try again.',
    invalid_pow: 'The check could not be completed. Please try again.',
    invalid_signature: 'The check could not be completed. Please try again.',
    probe_failed: 'The colour question was not answered. Please try again.',
    wrong_cell: 'That was not the asked shape. Please try again.',
    reaction_out_of_window: 'That answer came too early or too late. Please try again.',
    ticket_expired: 'That answer came too late. Please try again.',
    probe_not_reached: 'The path to the question did not follow the corridors. Please try again.',
    probe_attempts_exceeded: 'Too many attempts. Please try again.',
    webauthn_required: 'A passkey is required. Please try again.',
    webauthn_failed: 'The passkey could not be confirmed. Please try again.',
    passkey_rate_exceeded: 'Your passkey has been used too often this hour. Please try again later, or without your passkey.',
    rate_limited: 'Too many attempts. Please wait a moment and try again.',
    site_key_mismatch: 'This page is not set up correctly (site key).',
    unknown_site_key: 'This page is not set up correctly (unknown site key).',
    hostname_not_allowed: 'This check is not enabled for this website.',
    invalid_request: 'The check could not be completed. Please try again.',
    store_unavailable: 'The service is busy. Please try again.',
  },
};

/** Defaults overlaid with the caller's texts (one level deep for the nested groups). */
export function mergeTexts(custom: Partial<Texts> | undefined): Texts {
  if (!custom) return defaultTexts;
  return {
    ...defaultTexts,
    ...custom,
    directions: { ...defaultTexts.directions, ...custom.directions },
    colors: { ...defaultTexts.colors, ...custom.colors },
    shapes: { ...defaultTexts.shapes, ...custom.shapes },
    errors: { ...defaultTexts.errors, ...custom.errors },
  };
}

/** Replaces `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
}
