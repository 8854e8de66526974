// What the widget shows: the maze with the route, trail and keyboard cursor, painted at most
// once per animation frame however many events arrive; the status line, a polite live region
// that screen readers speak; the proof-of-work bar and the value they hear for it; the labels
// and accessible names taken from the texts.
import { drawScene, sizeCanvas, type Scene } from './draw.js';
import type { Surface } from './geometry.js';
import { fill, type Texts } from './texts.js';
import type { View } from './view.js';

export class Display {
  private ctx: CanvasRenderingContext2D | null = null;
  private frame = 0;

  constructor(
    private readonly view: View,
    /** What to paint, asked when the frame comes so that it is the latest; null: nothing yet. */
    private readonly scene: () => Scene | null,
  ) {}

  /** The title, the maze's accessible name and help, the buttons, the bar's name. */
  label(texts: Texts): void {
    const v = this.view;
    v.title.textContent = texts.title;
    v.canvas.setAttribute('aria-label', texts.mazeLabel);
    v.help.textContent = texts.ready;
    v.retry.textContent = texts.retry;
    v.door.textContent = texts.passkeyDoor;
    v.bar.setAttribute('aria-label', fill(texts.powProgress, { percent: '' }).replace(/\s*%$/, ''));
  }

  /** The status line; `tone` marks an outcome (green, or red and bold). */
  say(text: string, tone: 'ok' | 'error' | '' = ''): void {
    const s = this.view.status;
    s.textContent = text;
    s.className = `status ${tone}`.trim();
  }

  /** The proof-of-work bar at `fraction` (0 to 1), and its percentage as screen readers hear it. */
  bar(fraction: number, texts: Texts): void {
    const pct = Math.round(fraction * 100);
    this.view.barFill.style.width = `${pct}%`;
    this.view.bar.setAttribute('aria-valuenow', String(pct));
    this.view.bar.setAttribute('aria-valuetext', pct >= 100 ? texts.powDone : fill(texts.powProgress, { percent: pct }));
  }

  /** The maze and the bar shown, or hidden for a test site key (marked on the box for its style). */
  showPuzzle(shown: boolean): void {
    this.setPuzzleHidden(!shown);
    if (shown) delete this.view.box.dataset.test;
    else this.view.box.dataset.test = 'true';
  }

  /** The maze and the bar put away: a door passed the person without it. */
  hidePuzzle(): void {
    this.setPuzzleHidden(true);
  }

  private setPuzzleHidden(hidden: boolean): void {
    this.view.stage.hidden = hidden;
    this.view.bar.hidden = hidden;
  }

  /** Sizes the canvas for a new maze's surface. */
  size(surface: Surface): void {
    this.ctx = sizeCanvas(this.view.canvas, surface);
  }

  /** Paints at the next animation frame. */
  redraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const scene = this.scene();
      if (scene && this.ctx) drawScene(this.ctx, scene);
    });
  }

  /** Cancels the frame asked for: the widget is gone. */
  stop(): void {
    cancelAnimationFrame(this.frame);
  }
}
