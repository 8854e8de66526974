// The person's trace, walked as the server replays it (kernel.md section 4), one event at a
// time so the widget can draw the route and notice the exit and probe trigger cells. A jump
// between two events is filled by the kernel's own segment walk or bounded detour (rule 3), the
// ones the server runs, so what is drawn is what the server records.
import {
  WALL_E,
  WALL_N,
  WALL_S,
  WALL_W,
  type Cell,
  type Kernel,
  type MappedPoint,
  type Maze,
  type MazePoint,
  type RawEvent,
} from '../kernel/types.js';
import { surfaceFractionOf, type Surface } from './geometry.js';

export type StepKind = 'ignored' | 'same' | 'noise' | 'step';

/** Direction names for the keyboard, with the wall bit that blocks them. */
export const MOVES = {
  ArrowUp: { dx: 0, dy: -1, wall: WALL_N, name: 'up' },
  ArrowDown: { dx: 0, dy: 1, wall: WALL_S, name: 'down' },
  ArrowLeft: { dx: -1, dy: 0, wall: WALL_W, name: 'left' },
  ArrowRight: { dx: 1, dy: 0, wall: WALL_E, name: 'right' },
} as const;
export type MoveKey = keyof typeof MOVES;

export function wallsAt(maze: Maze, c: Cell): number {
  return maze.walls[c.y * maze.width + c.x] ?? 0xf;
}

/** True when b is an orthogonal neighbour of a with no wall between them. */
function openStep(maze: Maze, a: Cell, b: Cell): boolean {
  for (const m of Object.values(MOVES)) {
    if (a.x + m.dx === b.x && a.y + m.dy === b.y) return (wallsAt(maze, a) & m.wall) === 0;
  }
  return false;
}

export const sameCell = (a: Cell, b: Cell): boolean => a.x === b.x && a.y === b.y;

/** The part of the kernel a trace walks with. */
export type TraceKernel = Pick<Kernel, 'walkSegment' | 'detour' | 'mapEvent'>;

export class Trace {
  /** Every recorded event, raw, in arrival order: what /verify receives. */
  readonly events: RawEvent[] = [];
  /** Cells from the start to where the trace is now, backtracking removed: what is drawn. */
  readonly route: Cell[] = [];
  /** Indices of the events forming the walk (start first, no noise): a probe arm prefix. */
  private readonly walk: number[] = [];
  /** Where the walk stands: the last recorded cell. */
  last: Cell | null = null;
  /** The point the next segment starts from (the last event that was not noise). */
  private anchor: MazePoint | null = null;
  /** The last step when it crossed more than one cell: its segment, the cells before its end, and whether a detour took them. */
  private jump: { from: MazePoint; to: MazePoint; through: Cell[]; detour: boolean } | null = null;
  /** The plain walk (rules 1 and 2 only): the server also accepts a trace it ends on the exit. */
  private plainLast: Cell | null = null;

  constructor(
    readonly maze: Maze,
    private readonly surface: Surface,
    private readonly kernel: TraceKernel,
  ) {}

  get started(): boolean {
    return this.last !== null;
  }

  /** True when the server's replay would accept the trace as it stands. */
  get atExit(): boolean {
    return (
      (this.last !== null && sameCell(this.last, this.maze.exit)) || (this.plainLast !== null && sameCell(this.plainLast, this.maze.exit))
    );
  }

  /** Records an event; `point` is where replay maps it, or null for types replay ignores. */
  add(event: RawEvent, point: MappedPoint | null): StepKind {
    const index = this.events.push(event) - 1;
    if (point === null) return 'ignored';
    const cell = point.cell;
    if (this.last === null || this.anchor === null || this.plainLast === null) {
      const { start } = this.maze;
      if (sameCell(cell, start)) {
        this.last = this.plainLast = cell;
        this.anchor = point;
        this.route.push(cell);
        this.walk.push(index);
        return 'step';
      }
      // The keyboard cursor starts on the start cell: a keydown the start reaches is walked
      // from the start's centre, as the server does; anything else begins nothing.
      const centre = { mx: (start.x + 0.5) / this.maze.width, my: (start.y + 0.5) / this.maze.height };
      if (event.type !== 'keydown' || this.kernel.walkSegment(this.maze, centre, point) === null) return 'ignored';
      this.last = this.plainLast = start;
      this.anchor = centre;
      this.route.push(start);
    }
    if (!sameCell(cell, this.plainLast) && openStep(this.maze, this.plainLast, cell)) this.plainLast = cell;
    if (sameCell(cell, this.last)) {
      this.anchor = point;
      this.walk.push(index);
      return 'same';
    }
    // Rule 2 is the one-step case of the segment walk: a neighbour through an open side. Rule
    // 3b, the detour, is never taken from the exit.
    const segment = this.kernel.walkSegment(this.maze, this.anchor, point);
    const crossed = segment ?? (sameCell(this.last, this.maze.exit) ? null : this.kernel.detour(this.maze, this.last, cell));
    if (crossed === null) return 'noise';
    this.jump = crossed.length > 1 ? { from: this.anchor, to: point, through: crossed.slice(0, -1), detour: segment === null } : null;
    for (const c of crossed) {
      const back = this.route[this.route.length - 2];
      if (back && sameCell(back, c)) this.route.pop();
      else this.route.push(c);
    }
    this.last = cell;
    this.anchor = point;
    this.walk.push(index);
    return 'step';
  }

  /** The events of the walk so far, for /probe/arm. */
  walkEvents(): RawEvent[] {
    return this.walk.map((i) => this.events[i]!);
  }

  /**
   * A probe arm prefix ending on `cell`, or null: the walk's events when the walk stands on it;
   * when the last step jumped through it, the walk's events before that step and a point inside
   * `cell`: on the step's segment (the pointer passed there; the server's strict walk along the
   * same segment stops there), or for a detour the cell's centre (the server's detour to it is
   * the start of the same route, within the bound since the whole route was).
   */
  prefixTo(cell: Cell): RawEvent[] | null {
    if (this.last !== null && sameCell(this.last, cell)) return this.walkEvents();
    const index = this.jump?.through.findIndex((c) => sameCell(c, cell)) ?? -1;
    if (this.jump === null || index < 0) return null;
    const before = this.walk.slice(0, -1).map((i) => this.events[i]!);
    const final = this.events[this.walk.at(-1)!]!;
    const { from, to, through, detour } = this.jump;
    const f = detour ? (index + 1) / (through.length + 1) : midpointInside(from, to, cell, this.maze);
    if (f === null) return null;
    const point = detour
      ? { mx: (cell.x + 0.5) / this.maze.width, my: (cell.y + 0.5) / this.maze.height }
      : { mx: from.mx + (to.mx - from.mx) * f, my: from.my + (to.my - from.my) * f };
    const at = final.type === 'keydown' ? { x: point.mx, y: point.my } : surfaceFractionOf(this.surface, point);
    const t0 = before.at(-1)?.t ?? final.t;
    const event: RawEvent = { ...final, x: at.x, y: at.y, t: t0 + (final.t - t0) * f };
    const landed = this.kernel.mapEvent(this.maze, this.surface.cell, event.x, event.y, event.type);
    if (landed === null || !sameCell(landed.cell, cell)) return null;
    return [...before, event];
  }
}

/** The middle (0..1 along from -> to) of the stretch of the segment inside `cell`, or null. */
function midpointInside(from: MazePoint, to: MazePoint, cell: Cell, maze: Maze): number | null {
  let enter = 0;
  let leave = 1;
  const axes = [
    [from.mx, to.mx, cell.x / maze.width, (cell.x + 1) / maze.width],
    [from.my, to.my, cell.y / maze.height, (cell.y + 1) / maze.height],
  ] as const;
  for (const [a, b, lo, hi] of axes) {
    const d = b - a;
    if (d === 0) {
      if (a < lo || a >= hi) return null;
      continue;
    }
    const t0 = (lo - a) / d;
    const t1 = (hi - a) / d;
    enter = Math.max(enter, Math.min(t0, t1));
    leave = Math.min(leave, Math.max(t0, t1));
  }
  return enter < leave ? (enter + leave) / 2 : null;
}
