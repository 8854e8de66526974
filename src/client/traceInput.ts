// Pointer and keyboard on the maze canvas, recorded into the round's trace. The pointer that
// pressed is captured, so a stroke that leaves the canvas still counts, and each of a move's
// coalesced reports is recorded with their count (scoring sets them apart). The keyboard moves a
// cursor a cell at a time along the corridors, from Enter, a space or an arrow, and the widget
// says after each key where the cursor stands.
import type { Cell, Maze } from '../kernel/types.js';
import type { Announcement } from './keyboardAnnouncement.js';
import type { CanvasBox, PointerSample, Recorded, Recording } from './recording.js';
import { MOVES, wallsAt, type MoveKey } from './trace.js';

/** What input needs of the widget. */
export interface InputTarget {
  /** The round's recording while the widget takes input (a maze ready or being traced), else null. */
  recording(): Recording | null;
  /** An event was recorded (the cursor has followed the walk already). */
  recorded(got: Recorded): void;
  /** The keyboard cursor is on `at` of `maze`: say so. */
  announce(maze: Maze, at: Cell, what: Announcement): void;
}

/** Adds a listener that the widget removes when it is destroyed. */
export type AddListener = <K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K, fn: (e: HTMLElementEventMap[K]) => void) => void;

export class TraceInput {
  /** The pointer that pressed on the maze, until it is released. */
  private pointerId: number | null = null;
  private cursorCell: Cell | null = null;

  constructor(
    private readonly canvas: HTMLElement,
    private readonly target: InputTarget,
  ) {}

  /** The keyboard cursor: null until a key starts a keyboard solve, which it then stays. */
  get cursor(): Cell | null {
    return this.cursorCell;
  }

  listen(on: AddListener): void {
    const c = this.canvas;
    on(c, 'pointerdown', (e) => {
      const rec = this.target.recording();
      if (!rec || !e.isPrimary) return;
      e.preventDefault();
      this.pointerId = e.pointerId;
      try {
        c.setPointerCapture(e.pointerId);
      } catch {
        // capture is a convenience: moves over the canvas are still seen without it
      }
      this.pointer(rec, 'down', e, 1, c.getBoundingClientRect());
    });
    on(c, 'pointermove', (e) => {
      if (this.pointerId !== e.pointerId || !this.target.recording()) return;
      const batch = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
      const list = batch.length > 0 ? batch : [e];
      const rect = c.getBoundingClientRect();
      for (const p of list) {
        // A report may end the tracing (the exit, a probe): the rest are not recorded.
        const rec = this.target.recording();
        if (!rec) break;
        this.pointer(rec, 'move', p, list.length, rect);
      }
    });
    const up = (e: PointerEvent) => {
      if (this.pointerId !== e.pointerId) return;
      this.pointerId = null;
      const rec = this.target.recording();
      if (rec) this.pointer(rec, 'up', e, 1, c.getBoundingClientRect());
    };
    on(c, 'pointerup', up);
    on(c, 'pointercancel', up);
    on(c, 'keydown', (e) => this.key(e, 'keydown'));
    on(c, 'keyup', (e) => this.key(e, 'keyup'));
  }

  /** Lets the pressed pointer go (a probe or the submission takes over). */
  release(): void {
    if (this.pointerId === null) return;
    try {
      this.canvas.releasePointerCapture(this.pointerId);
    } catch {
      // already released by the browser
    }
    this.pointerId = null;
  }

  /** Forgets the pointer and the cursor: a new maze. */
  reset(): void {
    this.cursorCell = null;
    this.pointerId = null;
  }

  private pointer(rec: Recording, type: 'down' | 'move' | 'up', e: PointerSample, coalesced: number, rect: CanvasBox): void {
    const got = rec.pointer(type, e, coalesced, rect);
    if (got) this.recorded(rec, got);
  }

  private key(e: KeyboardEvent, type: 'keydown' | 'keyup'): void {
    const rec = this.target.recording();
    if (!rec) return;
    const key = e.key;
    const isMove = key in MOVES;
    const isStart = key === 'Enter' || key === ' ' || key === 'Spacebar';
    if (!isMove && !isStart) return;
    e.preventDefault();
    if (type === 'keyup') {
      if (this.cursorCell) this.keyAt(rec, 'keyup', key, this.cursorCell, e.timeStamp);
      return;
    }
    const { maze, trace } = rec;
    if (!this.cursorCell) {
      this.cursorCell = trace.last ?? maze.start;
      this.keyAt(rec, 'keydown', key, this.cursorCell, e.timeStamp);
      this.target.announce(maze, this.cursorCell, trace.last ? 'position' : 'started');
      if (!isMove) return;
    } else if (!isMove) {
      this.target.announce(maze, this.cursorCell, 'position');
      return;
    }
    const m = MOVES[key as MoveKey];
    const from = this.cursorCell;
    if (wallsAt(maze, from) & m.wall) {
      this.keyAt(rec, 'keydown', key, from, e.timeStamp);
      this.target.announce(maze, from, 'wall');
      return;
    }
    this.cursorCell = { x: from.x + m.dx, y: from.y + m.dy };
    this.keyAt(rec, 'keydown', key, this.cursorCell, e.timeStamp);
    // Unless the key ended the tracing: the exit's or a probe's text is said then.
    if (this.target.recording()) this.target.announce(maze, this.cursorCell, 'position');
  }

  private keyAt(rec: Recording, type: 'keydown' | 'keyup', key: string, at: Cell, timeStamp: number): void {
    this.recorded(rec, rec.key(type, key, at, timeStamp));
  }

  private recorded(rec: Recording, got: Recorded): void {
    // Once the keyboard is in use, the cursor stands where the walk does (a pointer may move it too).
    if (got.kind === 'step' && this.cursorCell && rec.trace.last) this.cursorCell = rec.trace.last;
    this.target.recorded(got);
  }
}
