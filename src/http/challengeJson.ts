import type { Challenge } from '../core/challenge/issueChallenge.js';

/**
 * Numbers written by JSON.stringify, not String(n) or a template: those keep each result in
 * V8's number-to-string cache, which lives in the old generation, and so promote a string per
 * challenge into garbage that only a full collection frees (RSS grows under a flood).
 */
const num = (n: number) => JSON.stringify(n);

/**
 * The text of one field's number, remembered from the last challenge: most repeat from one to
 * the next (a policy's sizes, the difficulty, and the times within one millisecond).
 */
class LastNumber {
  #value = Number.NaN;
  #text = '';

  text(n: number): string {
    if (n !== this.#value) {
      this.#value = n;
      this.#text = num(n);
    }
    return this.#text;
  }
}

const mazeWidth = new LastNumber();
const mazeHeight = new LastNumber();
const mazeDifficulty = new LastNumber();
const powDifficulty = new LastNumber();
const powDifficultyKeyboard = new LastNumber();
const createdAt = new LastNumber();
const expiresAt = new LastNumber();
const cellSize = new LastNumber();

/**
 * The JSON text of a challenge, exactly as JSON.stringify writes it. /challenge is the busiest
 * route, and a plain challenge (no probe, no passkey options) is written from a template in
 * half the time; the others (probes, passkey options, Privacy Pass, test challenges) go through JSON.stringify.
 */
export function challengeJson(c: Challenge): string {
  if (
    c.probes !== undefined ||
    c.webauthn_request_options !== undefined ||
    c.privacy_pass !== undefined ||
    c.passkey_door !== undefined ||
    c.test !== undefined
  )
    return JSON.stringify(c);
  return (
    `{"id":"${c.id}","challenge_type":"${c.challenge_type}","maze_seed":${num(c.maze_seed)},"maze_width":${mazeWidth.text(c.maze_width)},` +
    `"maze_height":${mazeHeight.text(c.maze_height)},"maze_difficulty":${mazeDifficulty.text(c.maze_difficulty)},"pow_challenge":"${c.pow_challenge}",` +
    `"pow_difficulty":${powDifficulty.text(c.pow_difficulty)},"pow_difficulty_keyboard":${powDifficultyKeyboard.text(c.pow_difficulty_keyboard)},"keyboard_door":"${c.keyboard_door}",` +
    `"site_key":${JSON.stringify(c.site_key)},"created_at":${createdAt.text(c.created_at)},` +
    `"expires_at":${expiresAt.text(c.expires_at)},"cell_size":${cellSize.text(c.cell_size)},"requirements":${requirementsJson(c.requirements)}}`
  );
}

/** The few possible requirement objects, serialised once each (keyed by their modes). */
const requirements = new Map<string, { count: number; json: string }>();

function requirementsJson(r: Challenge['requirements']): string {
  const key = `${r.probe.mode}/${r.webauthn.mode}`;
  const known = requirements.get(key);
  if (known !== undefined && known.count === r.probe.required_completion_count) return known.json;
  const json = JSON.stringify(r);
  requirements.set(key, { count: r.probe.required_completion_count, json });
  return json;
}
