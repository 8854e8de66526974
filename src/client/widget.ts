// The widget's life: fetch a challenge, draw its maze with the kernel, record the trace while
// the proof of work runs in a worker, handle probes and passkeys, sign, submit, and put the
// token in the form. Every async step checks it still belongs to the current challenge. This
// file holds the order of things and the state; what is shown is display.ts, the pointer and
// keys traceInput.ts (into recording.ts), a probe probeQuestion.ts.
import { inferInputType } from '../core/scoring/inferInputType.js';
import type { Kernel, Maze, RawEvent } from '../kernel/types.js';
import { Api, type Challenge, type Probe } from './api.js';
import { Display } from './display.js';
import type { Scene } from './draw.js';
import { surfaceOf } from './geometry.js';
import { compileKernel, instantiateKernel } from './kernel.js';
import { announce } from './keyboardAnnouncement.js';
import { withKeyboardDoorNotice } from './keyboardDoorNotice.js';
import { assertPasskey, passkeysAvailable } from './passkey.js';
import { PowSolver } from './pow.js';
import { powProgress, type PowFound } from './powSearch.js';
import { ProbeQuestion } from './probeQuestion.js';
import { Recording, type Recorded } from './recording.js';
import { createSigner, signedText, type Signer } from './signer.js';
import { mergeTexts, type Texts } from './texts.js';
import { type AddListener, TraceInput } from './traceInput.js';
import { buildView, type View } from './view.js';

export interface WidgetOptions {
  siteKey: string;
  sessionId: string;
  stableId?: string;
  /** Base URL of the service's routes, without a trailing slash. */
  apiUrl: string;
  /** Base URL (with a trailing slash) of ariadne-worker.js and kernel.wasm. */
  assetsUrl: string;
  texts?: Partial<Texts>;
  /** The action a compatible API's page named (reCAPTCHA v3's execute, Turnstile's data-action): sent with /verify, carried by the token. */
  action?: string;
}

export type WidgetState = 'loading' | 'ready' | 'tracing' | 'probe' | 'submitting' | 'verified' | 'error';

export interface WidgetEvents {
  verified(token: string): void;
  error(code: string): void;
  expired(): void;
  state(state: WidgetState): void;
}

/** Session tokens live 60 s (interface.md); the field is cleared a little before. */
export const TOKEN_LIFETIME_MS = 55_000;
/** A fresh challenge is fetched this long before the current one expires. */
const EXPIRY_MARGIN_MS = 1_500;

interface Round {
  challenge: Challenge;
  recording: Recording;
  /** Proofs for a pointer solve and for a keyboard solve (which needs more bits), one search. */
  pow: Record<'pointer' | 'keyboard', Promise<PowFound | null>>;
  /** Which of them have been found. */
  powDone: Record<'pointer' | 'keyboard', boolean>;
  probes: Probe[];
  completionTokens: string[];
}

export class Widget {
  readonly view: View;
  private readonly display: Display;
  private readonly input: TraceInput;
  private readonly probe: ProbeQuestion;
  private texts: Texts;
  private readonly api: Api;
  private readonly solver: PowSolver;
  private signer: Promise<Signer> | null = null;
  private kernel: { module: WebAssembly.Module; kernel: Kernel } | null = null;
  private round: Round | null = null;
  private generation = 0;
  private state: WidgetState = 'loading';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly cleanup: (() => void)[] = [];

  constructor(
    host: HTMLElement,
    private readonly options: WidgetOptions,
    private readonly emit: WidgetEvents,
  ) {
    this.texts = mergeTexts(options.texts);
    this.api = new Api(options.apiUrl);
    this.solver = new PowSolver(`${options.assetsUrl}ariadne-worker.js`);
    this.view = buildView(host);
    this.display = new Display(this.view, () => this.scene());
    this.probe = new ProbeQuestion(this.api, this.view.stage, options);
    this.input = new TraceInput(this.view.canvas, {
      recording: () => (this.accepting() ? this.round!.recording : null),
      recorded: (got) => this.recorded(got),
      announce: (maze, at, what) => this.display.say(announce(this.texts, maze, at, what)),
    });
    this.display.label(this.texts);
    this.listen();
  }

  get currentState(): WidgetState {
    return this.state;
  }

  setTexts(texts: Partial<Texts> | undefined): void {
    this.texts = mergeTexts(texts);
    this.display.label(this.texts);
    this.display.redraw();
  }

  /** Fetches a fresh challenge and starts over; `notice` replaces the ready text once loaded. */
  async load(notice?: string): Promise<void> {
    const gen = ++this.generation;
    this.clearTimer();
    this.solver.cancel();
    this.probe.hide();
    this.round = null;
    this.input.reset();
    this.setState('loading');
    this.display.say(this.texts.loading);
    this.display.bar(0, this.texts);
    this.view.retry.hidden = true;
    this.view.door.hidden = true;
    this.display.showPuzzle(true);
    if (!window.isSecureContext || !crypto.subtle) return this.fail('insecure_context');
    try {
      this.signer ??= createSigner();
      const [module] = await Promise.all([compileKernel(`${this.options.assetsUrl}kernel.wasm`), this.signer]);
      if (this.kernel?.module !== module) this.kernel = { module, kernel: await instantiateKernel(module) };
    } catch {
      this.signer = null;
      if (gen === this.generation) this.fail('network');
      return;
    }
    const got = await this.api.challenge({
      site_key: this.options.siteKey,
      session_id: this.options.sessionId,
      ...(this.options.stableId ? { stable_id: this.options.stableId } : {}),
      client_capabilities: {
        reduced_motion: matchMedia('(prefers-reduced-motion: reduce)').matches,
        webauthn_available: passkeysAvailable(),
        pointer_types: matchMedia('(pointer: coarse)').matches ? ['touch'] : ['mouse'],
      },
    });
    if (gen !== this.generation) return;
    if (!got.ok) return this.fail(got.code);
    const c = got.value;
    if (c.test === true) return this.runTestKey(c, gen);
    let prefix = '';
    if (c.privacy_pass === true) {
      // The Privacy Pass door first; the maze at once when the browser does not answer.
      this.display.say(this.texts.privacyPass);
      const door = await this.api.privacyPass({ challenge_id: c.id, site_key: c.site_key, session_id: this.options.sessionId });
      if (gen !== this.generation) return;
      if (door.ok) {
        this.display.hidePuzzle();
        return this.succeed(door.value.token, this.texts.privacyPassVerified);
      }
      prefix = `${this.texts.privacyPassFallback} `;
    }
    let maze: Maze;
    try {
      maze = this.kernel.kernel.generateMaze({
        seed: c.maze_seed,
        width: c.maze_width,
        height: c.maze_height,
        difficulty: c.maze_difficulty,
      });
    } catch {
      return this.fail('invalid_response');
    }
    const surface = surfaceOf(c.maze_width, c.maze_height, c.cell_size > 0 ? c.cell_size : 40);
    const keyboardDifficulty = Math.max(c.pow_difficulty, c.pow_difficulty_keyboard ?? c.pow_difficulty);
    // The search goes on past the base difficulty to the keyboard one while the person traces.
    const [pointerPow, keyboardPow] = this.solver.solve(
      this.kernel.module,
      c.pow_challenge,
      [c.pow_difficulty, keyboardDifficulty],
      (tried) => {
        if (gen === this.generation) this.display.bar(powProgress(tried, c.pow_difficulty), this.texts);
      },
    );
    const round: Round = {
      challenge: c,
      recording: new Recording(maze, surface, this.kernel.kernel, performance.now()),
      pow: { pointer: pointerPow!, keyboard: keyboardPow! },
      powDone: { pointer: false, keyboard: false },
      probes: [...(c.probes ?? [])],
      completionTokens: [],
    };
    void round.pow.pointer.then((found) => {
      if (found && gen === this.generation) {
        round.powDone.pointer = true;
        this.display.bar(1, this.texts);
      }
    });
    void round.pow.keyboard.then((found) => {
      round.powDone.keyboard = found !== null;
    });
    this.round = round;
    this.display.size(surface);
    this.display.redraw();
    this.setState('ready');
    const door = c.passkey_door === true && c.webauthn_request_options !== undefined && !!this.options.stableId;
    this.view.door.hidden = !door;
    // Where the keyboard door is tightened the passkey is said first: the door that needs no maze.
    const tightened = c.keyboard_door !== undefined && c.keyboard_door !== 'people_first';
    const ready =
      door && tightened
        ? this.texts.passkeyDoorFirst
        : withKeyboardDoorNotice(door ? this.texts.passkeyDoorOffered : this.texts.ready, c.keyboard_door);
    this.display.say(notice ?? prefix + ready);
    const ttl = c.expires_at - c.created_at;
    if (Number.isFinite(ttl) && ttl > EXPIRY_MARGIN_MS) {
      this.timer = setTimeout(() => this.lifeEnds(), ttl - EXPIRY_MARGIN_MS);
    }
  }

  /** Shown instead of a puzzle when a required setting (like site-key) is missing. */
  showMisconfigured(setting: string): void {
    this.setState('error');
    this.display.say(`${this.texts.errors.misconfigured ?? this.texts.errors.default}: ${setting}`, 'error');
    this.emit.error('misconfigured');
  }

  destroy(): void {
    this.generation++;
    this.clearTimer();
    this.solver.destroy();
    for (const off of this.cleanup.splice(0)) off();
    this.display.stop();
  }

  // --- tracing -----------------------------------------------------------------------------

  private listen(): void {
    const on: AddListener = (el, type, fn) => {
      el.addEventListener(type, fn as EventListener);
      this.cleanup.push(() => el.removeEventListener(type, fn as EventListener));
    };
    this.input.listen(on);
    on(this.view.retry, 'click', () => void this.load());
    on(this.view.door, 'click', () => void this.passWithPasskey());
  }

  /** Whether pointer and keys are taken: while a maze is ready or being traced, not during a probe or after. */
  private accepting(): boolean {
    return this.round !== null && (this.state === 'ready' || this.state === 'tracing');
  }

  /** An event was recorded: a step may start the tracing, reach a probe's trigger cell or the exit. */
  private recorded({ event, kind }: Recorded): void {
    const r = this.round!;
    const { trace } = r.recording;
    this.display.redraw();
    if (kind !== 'step') return;
    if (this.state === 'ready') {
      this.setState('tracing');
      if (event.type !== 'keydown') this.display.say(this.texts.tracing);
    }
    const probe = r.probes[0];
    // A fast stroke may cross the trigger cell between two events: the prefix then ends on a
    // point of that stroke inside it.
    const prefix = probe ? trace.prefixTo(probe.trigger_cell) : null;
    if (probe && prefix) return void this.runProbe(probe, prefix);
    if (trace.atExit) void this.submit();
  }

  /** A step reached the probe's trigger cell: the tracing waits while it is asked. */
  private async runProbe(probe: Probe, prefix: RawEvent[]): Promise<void> {
    const r = this.round!;
    const gen = this.generation;
    const keyboard = this.input.cursor !== null;
    this.setState('probe');
    this.input.release();
    const answer = await this.probe.ask(
      probe,
      prefix,
      { challengeId: r.challenge.id, surface: r.recording.surface, keyboard },
      { current: () => gen === this.generation, texts: () => this.texts, say: (text) => this.display.say(text) },
    );
    if (!answer) return;
    if (!answer.ok) return this.fail(answer.code);
    r.completionTokens.push(answer.value);
    r.probes.shift();
    this.probe.hide();
    this.setState('tracing');
    const cursor = this.input.cursor;
    this.display.say(
      keyboard && cursor ? `${this.texts.probeDone} ${announce(this.texts, r.recording.maze, cursor, 'position')}` : this.texts.probeDone,
    );
    if (keyboard) this.view.canvas.focus({ preventScroll: true });
  }

  // --- passing -----------------------------------------------------------------------------

  /** The walk reached the exit: the replay checked here first, then the proof, a passkey if asked, the signature, /verify. */
  private async submit(): Promise<void> {
    const r = this.round!;
    const gen = this.generation;
    const c = r.challenge;
    const { maze, surface, trace } = r.recording;
    this.setState('submitting');
    this.input.release();
    this.clearTimer();
    const kernel = this.kernel!.kernel;
    const replay = kernel.replay(maze, kernel.packEvents(trace.events), surface.cell, { kind: 'verify' });
    if (!replay.valid) return this.fail('invalid_path');
    // The server infers the input type from the events, and a keyboard solve needs more bits.
    const events = trace.events;
    const inputType = inferInputType(events);
    const kind = inputType === 'keyboard' ? 'keyboard' : 'pointer';
    if (!r.powDone[kind]) this.display.say(this.texts.working);
    const pow = await r.pow[kind];
    if (gen !== this.generation) return;
    if (!pow) return this.fail('invalid_pow');
    let webauthn: Awaited<ReturnType<typeof assertPasskey>> = null;
    if (c.webauthn_request_options) {
      this.display.say(this.texts.passkey);
      webauthn = await assertPasskey(c.webauthn_request_options);
      if (gen !== this.generation) return;
      if (!webauthn && c.requirements?.webauthn?.mode === 'required') return this.fail('webauthn_failed');
    }
    this.display.say(this.texts.submitting);
    const signer = await this.signer!;
    const signature = await signer.sign(signedText(c.id, c.site_key, c.expires_at));
    this.solver.cancel();
    const result = await this.api.verify({
      challenge_id: c.id,
      site_key: c.site_key,
      session_id: this.options.sessionId,
      maze_seed: c.maze_seed,
      events,
      pow_proof: pow,
      public_key: signer.publicKey,
      signature,
      timestamp: Date.now(),
      cell_size: surface.cell,
      input_type: inputType === 'pen' ? 'touch' : inputType,
      ...(this.options.stableId ? { stable_id: this.options.stableId } : {}),
      ...(this.options.action !== undefined ? { action: this.options.action } : {}),
      ...(r.completionTokens.length ? { probe_completion_tokens: r.completionTokens } : {}),
      ...(webauthn ? { webauthn } : {}),
    });
    if (gen !== this.generation) return;
    if (!result.ok) return this.fail(result.code);
    this.succeed(result.value.token);
  }

  /** The passkey door: the challenge's assertion, sent to POST /passkey instead of a maze. */
  private async passWithPasskey(): Promise<void> {
    const r = this.round;
    const options = r?.challenge.webauthn_request_options;
    if (!r || !options || !this.options.stableId || !this.accepting()) return;
    const gen = this.generation;
    this.display.say(this.texts.passkey);
    const webauthn = await assertPasskey(options);
    if (gen !== this.generation) return;
    if (!webauthn) return this.display.say(this.texts.passkeyDoorDeclined);
    const c = r.challenge;
    const got = await this.api.passkeyDoor({
      challenge_id: c.id,
      site_key: c.site_key,
      session_id: this.options.sessionId,
      stable_id: this.options.stableId,
      webauthn,
    });
    if (gen !== this.generation) return;
    if (!got.ok) return this.fail(got.code);
    this.solver.cancel();
    this.display.hidePuzzle();
    this.view.door.hidden = true;
    this.succeed(got.value.token, this.texts.passkeyVerified);
  }

  /** A test site key: no maze and no proof of work; /verify answers the key's fixed outcome. */
  private async runTestKey(c: Challenge, gen: number): Promise<void> {
    this.display.showPuzzle(false);
    this.setState('submitting');
    this.display.say(this.texts.testKey);
    const result = await this.api.verify({
      challenge_id: c.id,
      site_key: c.site_key,
      session_id: this.options.sessionId,
      events: [],
      pow_proof: { nonce: 0, hash: '' },
      public_key: 'test',
      signature: 'test',
      timestamp: Date.now(),
    });
    if (gen !== this.generation) return;
    if (!result.ok) return this.fail(result.code);
    this.succeed(result.value.token);
  }

  // --- outcomes ----------------------------------------------------------------------------

  private succeed(token: string, text = this.texts.verified): void {
    this.setState('verified');
    this.display.say(text, 'ok');
    this.display.redraw();
    this.emit.verified(token);
    this.timer = setTimeout(() => this.expire(this.texts.tokenExpired), TOKEN_LIFETIME_MS);
  }

  private fail(code: string): void {
    const hadFocus = this.view.root.activeElement !== null;
    this.clearTimer();
    this.solver.cancel();
    this.input.release();
    this.probe.hide();
    if (code === 'challenge_expired') return this.expire(this.texts.errors.challenge_expired ?? this.texts.expired);
    this.setState('error');
    this.display.say(this.texts.errors[code] ?? this.texts.errors.default ?? code, 'error');
    this.view.retry.hidden = false;
    this.view.door.hidden = true;
    if (hadFocus) this.view.retry.focus({ preventScroll: true });
    this.emit.error(code);
  }

  /**
   * The challenge's `expires_at` is near. A pointer solve starts over on a fresh challenge, but a
   * keyboard solve under way is kept: the server accepts a keyboard solve for longer (someone
   * exploring by the announcements takes minutes), and throwing away their way through the maze
   * would make them start again. If it comes too late even so, /verify answers challenge_expired
   * and a fresh challenge is loaded then.
   */
  private lifeEnds(): void {
    const underWay = this.state === 'ready' || this.state === 'tracing' || this.state === 'probe' || this.state === 'submitting';
    if (this.input.cursor !== null && underWay) return;
    this.expire(this.texts.expired);
  }

  private expire(notice: string): void {
    this.emit.expired();
    void this.load(notice);
  }

  // --- output ------------------------------------------------------------------------------

  private setState(state: WidgetState): void {
    this.state = state;
    this.view.box.dataset.state = state;
    this.emit.state(state);
  }

  /** What the canvas shows: the round's maze, the walk and the pointer's trail, the keyboard cursor; green once verified. */
  private scene(): Scene | null {
    const r = this.round;
    if (!r) return null;
    const { maze, surface, trace, trail } = r.recording;
    return {
      maze,
      surface,
      route: trace.route,
      trail,
      cursor: this.input.cursor,
      done: this.state === 'verified',
      strip: this.texts.strip,
      startLabel: this.texts.startLabel,
      exitLabel: this.texts.exitLabel,
    };
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
