import type { Cell } from '../../kernel/types.js';
import { type ProbeCell, probeLayout } from '../probe/probeLayout.js';
import type { CoreContext } from './context.js';
import { derivedFromMac, deriveWebAuthnChallenge } from './deriveChallenge.js';
import { mintChallengeId } from './mintChallengeId.js';
import { type WebAuthnRequestOptions, webauthnRequestOptions } from './webauthnRequestOptions.js';
import { challengeMaze } from './challengeMaze.js';

export interface ChallengeInput {
  site_key: string;
  stable_id?: string | undefined;
  client_capabilities?: { webauthn_available?: boolean | undefined } | undefined;
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
  /** Leading zero bits a keyboard solve needs (pow_difficulty + POW_KEYBOARD_EXTRA_BITS). */
  pow_difficulty_keyboard: number;
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
}

/** Issues a challenge. Writes nothing: every value follows from the id (see challengeIdBytes.ts). */
export async function issueChallenge(ctx: CoreContext, input: ChallengeInput): Promise<Challenge> {
  const { config } = ctx;
  const key = ctx.challengeKeys[0]!;
  const createdAt = ctx.now();
  const { id, bytes, mac } = mintChallengeId(key, input.site_key, createdAt);
  const derived = derivedFromMac(mac, config.probeProbability);
  const maze = challengeMaze(config, derived.seed);
  // Without passkeys there is nothing to wait for.
  const webauthn =
    ctx.passkeys === undefined
      ? undefined
      : await webauthnRequestOptions(ctx, {
          challenge: () => deriveWebAuthnChallenge(key, bytes),
          siteKey: input.site_key,
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
    pow_difficulty: config.powDifficulty,
    pow_difficulty_keyboard: config.powDifficulty + config.powKeyboardExtraBits,
    site_key: input.site_key,
    created_at: createdAt,
    expires_at: createdAt + config.challengeTtlMs,
    cell_size: config.cellSize,
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
        instruction: `Tap the ${p.targetColor} cell`,
        target_color: p.targetColor,
        distractor_colors: p.distractorColors,
        cells: p.cells,
        trigger_cell: p.trigger,
      },
    ];
  }
  if (webauthn !== undefined) challenge.webauthn_request_options = webauthn.options;
  return challenge;
}
