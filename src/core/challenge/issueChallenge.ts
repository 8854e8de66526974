import type { Challenge } from './Challenge.js';
import type { Failure } from '../errors.js';
import { powDifficultyFor } from '../pow/adaptiveDifficulty.js';
import { probeLayout } from '../probe/probeLayout.js';
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
import { keyboardDoorOf, surgeDigest } from '../keyboard/keyboardDoorOf.js';
import { webauthnRequestOptions } from './webauthnRequestOptions.js';

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

// The challenge's shape is declared once, as a schema (Challenge.ts); what this issues is of its type.
export type { Challenge, ProbeView } from './Challenge.js';

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
  const { id, bytes, mac } = mintChallengeId(key, {
    siteKey: site.key,
    policy: surge ? surgeDigest(site.digest) : site.digest,
    createdAt,
    powDifficulty,
  });
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
