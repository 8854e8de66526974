import type { Cell } from '../../kernel/types.js';
import type { Failure } from '../errors.js';
import { powDifficultyFor } from '../pow/adaptiveDifficulty.js';
import { type ProbeCell, probeLayout } from '../probe/probeLayout.js';
import { bindingFromAddress } from '../rateLimit.js';
import { admitSite } from '../sites/admitSite.js';
import { siteLabel } from '../traffic/siteLabel.js';
import type { Site } from '../sites/Site.js';
import { sitePasskeys } from '../sites/sitePasskeys.js';
import { TEST_CHALLENGE_ID } from '../sites/testKeys.js';
import { challengeMaze } from './challengeMaze.js';
import type { CoreContext } from '../context.js';
import { derivedFromMac, deriveWebAuthnChallenge } from './deriveChallenge.js';
import { mintChallengeId } from './mintChallengeId.js';
import type { KeyboardDoorState } from '../keyboard/KeyboardDoorPolicy.js';
import { keyboardDoorOf, surgeDigest } from '../keyboard/keyboardDoorOf.js';
import { type WebAuthnRequestOptions, webauthnRequestOptions } from './webauthnRequestOptions.js';

export interface ChallengeInput {
  site_key: string;
  stable_id?: string | undefined;
  client_capabilities?: { webauthn_available?: boolean | undefined } | undefined;
}

/** What the HTTP layer knows of the client: its page's Origin ('' when absent) and its address. */
export interface ClientInfo {
  origin: string;
  address: string;
}

/** The probe as sent to the client: without `isTarget`, which would hand a bot the answer. */
export interface ProbeView {
  id: string;
  type: 'color_tap';
  instruction: string;
  target_color: string;
  distractor_colors: string[];
  cells: ProbeCell[];
  trigger_cell: Cell;
}

export interface Challenge {
  id: string;
  challenge_type: 'maze' | 'maze_stroop';
  maze_seed: number;
  maze_width: number;
  maze_height: number;
  maze_difficulty: number;
  pow_challenge: string;
  pow_difficulty: number;
  /** Leading zero bits a keyboard solve needs (pow_difficulty + POW_KEYBOARD_EXTRA_BITS, + POW_KEYBOARD_SURGE_EXTRA_BITS in a surge). */
  pow_difficulty_keyboard: number;
  /** The site's keyboard door when issued, for the widget to explain (docs/keyboard-solves.md). */
  keyboard_door: KeyboardDoorState;
  site_key: string;
  created_at: number;
  expires_at: number;
  cell_size: number;
  requirements: {
    probe: { mode: 'required' | 'none'; required_completion_count: number };
    webauthn: { mode: 'required' | 'preferred' | 'none' };
  };
  probes?: ProbeView[];
  webauthn_request_options?: WebAuthnRequestOptions;
  /** The site opened the passkey door and the stable_id has a passkey: POST /passkey passes without a maze. */
  passkey_door?: true;
  /** The site trusts Privacy Pass issuers: the widget asks GET /privacy-pass first (docs/doors.md). */
  privacy_pass?: true;
  /** A test key's challenge: nothing to solve, /verify answers the key's fixed outcome. */
  test?: true;
}

export type IssueResult = { ok: true; challenge: Challenge } | { ok: false; failure: Failure };

/**
 * Issues a challenge for an admitted site (unknown_site_key, hostname_not_allowed), with the
 * client's adaptive proof-of-work difficulty. Writes no single-use state: every value follows
 * from the id (see challengeIdBytes.ts); only the client's load counter moves.
 */
export async function issueChallenge(ctx: CoreContext, input: ChallengeInput, client: ClientInfo): Promise<IssueResult> {
  const admitted = admitSite(ctx.sites, input.site_key, client.origin);
  if (!admitted.ok) return admitted;
  const { site } = admitted;
  const createdAt = ctx.now();
  if (site.test !== undefined) return { ok: true, challenge: testChallenge(ctx, site, createdAt) };

  const { policy } = site;
  const key = ctx.challengeKeys[0]!;
  const powDifficulty = await powDifficultyFor(ctx.store, bindingFromAddress(client.address), policy.pow, createdAt);
  ctx.onPowIssued?.(powDifficulty);
  ctx.traffic?.challengeIssued(siteLabel(ctx.sites, site.key), powDifficulty);
  const door = keyboardDoorOf(ctx, site);
  const surge = door === 'surge';
  const { id, bytes, mac } = mintChallengeId(key, { siteKey: site.key, policy: surge ? surgeDigest(site.digest) : site.digest, createdAt, powDifficulty });
  const derived = derivedFromMac(mac, policy.probeProbability);
  const maze = challengeMaze(policy.maze, derived.seed);
  const passkeys = sitePasskeys(ctx.passkeys, site);
  // Without passkeys there is nothing to wait for.
  const webauthn =
    passkeys === undefined
      ? undefined
      : await webauthnRequestOptions(passkeys, {
          challenge: () => deriveWebAuthnChallenge(key, bytes),
          siteKey: site.key,
          stableId: input.stable_id,
          webauthnAvailable: input.client_capabilities?.webauthn_available,
        });
  const challenge: Challenge = {
    id,
    challenge_type: derived.hasProbe ? 'maze_stroop' : 'maze',
    maze_seed: derived.seed,
    maze_width: maze.width,
    maze_height: maze.height,
    maze_difficulty: maze.difficulty,
    pow_challenge: derived.powChallenge,
    pow_difficulty: powDifficulty,
    pow_difficulty_keyboard: powDifficulty + ctx.config.powKeyboardExtraBits + (surge ? ctx.config.powKeyboardSurgeExtraBits : 0),
    keyboard_door: door,
    site_key: site.key,
    created_at: createdAt,
    expires_at: createdAt + ctx.config.challengeTtlMs,
    cell_size: ctx.config.cellSize,
    requirements: {
      probe: derived.hasProbe ? { mode: 'required', required_completion_count: 1 } : { mode: 'none', required_completion_count: 0 },
      webauthn: { mode: webauthn?.mode ?? 'none' },
    },
  };
  if (derived.hasProbe) {
    const p = probeLayout(ctx.kernel, maze, derived.probeSeed);
    challenge.probes = [
      {
        id: p.id,
        type: 'color_tap',
        instruction: `Tap the ${p.targetName} cell`,
        target_color: p.targetColor,
        distractor_colors: p.distractorColors,
        cells: p.cells,
        trigger_cell: p.trigger,
      },
    ];
  }
  if (webauthn?.options !== undefined) {
    challenge.webauthn_request_options = webauthn.options;
    if (policy.passkeyDoor !== undefined) challenge.passkey_door = true;
  }
  if (policy.privacyPassIssuers !== undefined) challenge.privacy_pass = true;
  return { ok: true, challenge };
}

/** The challenge of a test key: well formed, flagged, with nothing to solve. */
function testChallenge(ctx: CoreContext, site: Site, createdAt: number): Challenge {
  return {
    id: TEST_CHALLENGE_ID,
    challenge_type: 'maze',
    maze_seed: 0,
    maze_width: site.policy.maze.width,
    maze_height: site.policy.maze.height,
    maze_difficulty: site.policy.maze.difficulty,
    pow_challenge: '0'.repeat(32),
    pow_difficulty: 0,
    pow_difficulty_keyboard: 0,
    keyboard_door: 'people_first',
    site_key: site.key,
    created_at: createdAt,
    expires_at: createdAt + ctx.config.challengeTtlMs,
    cell_size: ctx.config.cellSize,
    requirements: { probe: { mode: 'none', required_completion_count: 0 }, webauthn: { mode: 'none' } },
    test: true,
  };
}
