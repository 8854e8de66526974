// The colour-tap probe, put to the person when the walk reaches its trigger cell: the walk so
// far arms it (POST /probe/arm), its cells are shown over the maze as buttons, and the cell
// tapped is sent (POST /probe/complete) for the completion token /verify carries. Someone
// solving by keyboard finds the focus on the first button.
import type { RawEvent } from '../kernel/types.js';
import type { Api, Probe, Result } from './api.js';
import type { Surface } from './geometry.js';
import { probeLabel, probeLayer } from './probeView.js';
import { fill, type Texts } from './texts.js';

/** What asking needs of the widget while the service answers. */
export interface ProbeHost {
  /** False once the widget has moved on (a fresh challenge, or gone): the question then ends quietly. */
  current(): boolean;
  /** The texts as they are when each one is said (a page may change them meanwhile). */
  texts(): Texts;
  say(text: string): void;
}

/** Where the probe is asked: the challenge, the maze's surface the buttons sit on, and whether the keyboard is in use. */
export interface ProbePlace {
  challengeId: string;
  surface: Surface;
  keyboard: boolean;
}

export class ProbeQuestion {
  private layer: HTMLElement | null = null;

  constructor(
    private readonly api: Api,
    /** The element the maze is drawn in: the buttons go over it. */
    private readonly stage: HTMLElement,
    private readonly session: { siteKey: string; sessionId: string },
  ) {}

  /**
   * Asks `probe`, armed with `prefix` (the walk's events up to its trigger cell). Resolves with
   * the completion token, a failure code, or null when the widget moved on meanwhile; the
   * buttons stay shown until hide().
   */
  async ask(probe: Probe, prefix: RawEvent[], at: ProbePlace, host: ProbeHost): Promise<Result<string> | null> {
    host.say(host.texts().probeArming);
    const armed = await this.api.armProbe({
      challenge_id: at.challengeId,
      site_key: this.session.siteKey,
      session_id: this.session.sessionId,
      probe_id: probe.id,
      events: prefix,
    });
    if (!host.current()) return null;
    if (!armed.ok) return armed;
    const texts = host.texts();
    const names = { colors: texts.colors, shapes: texts.shapes };
    const instruction = fill(texts.probeInstruction, { label: probeLabel(probe, probe.target_color, names) });
    const done = await new Promise<Result<{ completion_token: string }>>((answered) => {
      const layer = probeLayer(probe, at.surface, instruction, names, (cell) => {
        // One answer: the other buttons go dead while the service checks it.
        for (const b of layer.querySelectorAll('button')) b.disabled = true;
        answered(
          this.api.completeProbe({
            challenge_id: at.challengeId,
            session_id: this.session.sessionId,
            probe_ticket: armed.value.probe_ticket,
            tapped_cell: cell,
          }),
        );
      });
      this.layer = layer;
      this.stage.append(layer);
      host.say(instruction);
      if (at.keyboard) layer.querySelector('button')?.focus({ preventScroll: true });
    });
    if (!host.current()) return null;
    if (!done.ok) return done;
    return { ok: true, value: done.value.completion_token };
  }

  /** Takes the buttons off the maze. */
  hide(): void {
    this.layer?.remove();
    this.layer = null;
  }
}
