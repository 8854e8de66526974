// The trace being recorded in one round: each pointer or key event made into the raw event
// /verify receives (fractions of the drawing surface, milliseconds since the maze was shown),
// walked by the Trace as the server replays it, and the pointer's recent positions for the
// faint trail drawn under the route.
import type { Cell, Maze, RawEvent } from '../kernel/types.js';
import { mazeFractionOfCentre, type Surface } from './geometry.js';
import { sameCell, Trace, type StepKind, type TraceKernel } from './trace.js';

/** Past this many events, moves inside the current cell are no longer recorded. */
export const EVENT_CAP = 2000;
/** How many of the pointer's latest positions the trail keeps. */
const TRAIL = 80;

const round = (v: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

/** What is read of a pointer event: the event itself or one of its coalesced reports. */
export type PointerSample = Pick<PointerEvent, 'clientX' | 'clientY' | 'timeStamp' | 'pointerType'>;
/** Where the canvas is on the page (its bounding client rectangle). */
export type CanvasBox = Pick<DOMRect, 'left' | 'top' | 'width' | 'height'>;

/** A recorded event and what it did to the walk. */
export interface Recorded {
  event: RawEvent;
  kind: StepKind;
}

export class Recording {
  readonly trace: Trace;
  /** The pointer's latest positions, surface pixels, oldest first. */
  readonly trail: { x: number; y: number }[] = [];

  constructor(
    readonly maze: Maze,
    readonly surface: Surface,
    private readonly kernel: TraceKernel,
    /** `performance.now()` when the maze was shown: event times count from it. */
    private readonly t0: number,
  ) {
    this.trace = new Trace(maze, surface, kernel);
  }

  /**
   * Records a pointer event (`coalesced`: how many reports its dispatch carried); null when it is
   * not recorded: the canvas has no size, or the cap is reached and it moves inside the current cell.
   */
  pointer(type: 'down' | 'move' | 'up', e: PointerSample, coalesced: number, rect: CanvasBox): Recorded | null {
    if (rect.width === 0 || rect.height === 0) return null;
    const x = round((e.clientX - rect.left) / rect.width, 5);
    const y = round((e.clientY - rect.top) / rect.height, 5);
    const point = this.kernel.mapEvent(this.maze, this.surface.cell, x, y, type);
    const last = this.trace.last;
    if (type === 'move' && this.trace.events.length >= EVENT_CAP && point && last && sameCell(point.cell, last)) return null;
    const pointerType = e.pointerType === 'touch' || e.pointerType === 'pen' ? e.pointerType : 'mouse';
    const event: RawEvent = { x, y, t: round(e.timeStamp - this.t0, 1), type, pointer_type: pointerType, coalesced_count: coalesced };
    this.trail.push({ x: x * this.surface.width, y: y * this.surface.height });
    if (this.trail.length > TRAIL) this.trail.shift();
    return { event, kind: this.trace.add(event, point) };
  }

  /** Records a key pressed or released with the keyboard cursor on `at`: the event sits at its centre. */
  key(type: 'keydown' | 'keyup', key: string, at: Cell, timeStamp: number): Recorded {
    const f = mazeFractionOfCentre(this.surface, at);
    const event: RawEvent = { x: round(f.x, 6), y: round(f.y, 6), t: round(timeStamp - this.t0, 1), type, key };
    return { event, kind: this.trace.add(event, this.kernel.mapEvent(this.maze, this.surface.cell, event.x, event.y, type)) };
  }
}
