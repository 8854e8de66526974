// Paints the maze surface: walls from the kernel's maze, S and E marked by letter as well as
// colour, the route walked so far, the raw pointer trail and the keyboard cursor.
import { WALL_E, WALL_N, WALL_S, WALL_W, type Cell, type Maze } from '../kernel/types.js';
import { MARGIN, centrePx, type Surface } from './geometry.js';

export interface Scene {
  maze: Maze;
  surface: Surface;
  route: readonly Cell[];
  /** Recent raw pointer positions, surface pixels. */
  trail: readonly { x: number; y: number }[];
  cursor: Cell | null;
  done: boolean;
  strip: string;
  startLabel: string;
  exitLabel: string;
}

const INK = '#1f2933';
const ROUTE = '#1d4ed8';
const DONE = '#15803d';

export function sizeCanvas(canvas: HTMLCanvasElement, s: Surface): CanvasRenderingContext2D {
  const dpr = Math.min(3, Math.max(1, window.devicePixelRatio || 1));
  canvas.width = Math.round(s.width * dpr);
  canvas.height = Math.round(s.height * dpr);
  canvas.style.aspectRatio = `${s.width} / ${s.height}`;
  canvas.style.maxWidth = `${s.width}px`;
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

function fillCell(ctx: CanvasRenderingContext2D, s: Surface, c: Cell, fill: string): void {
  ctx.fillStyle = fill;
  ctx.fillRect(MARGIN + c.x * s.cell, MARGIN + c.y * s.cell, s.cell, s.cell);
}

/** The S and E letters, on a white disc so they stay readable over the route. */
function labelCell(ctx: CanvasRenderingContext2D, s: Surface, c: Cell, label: string): void {
  const x = MARGIN + c.x * s.cell;
  const y = MARGIN + c.y * s.cell;
  ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
  ctx.beginPath();
  ctx.arc(x + s.cell / 2, y + s.cell / 2, s.cell * 0.26, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = INK;
  ctx.font = `bold ${Math.round(s.cell * 0.38)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, x + s.cell / 2, y + s.cell / 2);
}

export function drawScene(ctx: CanvasRenderingContext2D, sc: Scene): void {
  const { maze, surface: s } = sc;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, s.width, s.height);
  fillCell(ctx, s, maze.start, '#bbf7d0');
  fillCell(ctx, s, maze.exit, '#fde68a');

  ctx.strokeStyle = INK;
  ctx.lineWidth = Math.max(2, s.cell / 16);
  ctx.lineCap = 'square';
  ctx.beginPath();
  for (let y = 0; y < maze.height; y++) {
    for (let x = 0; x < maze.width; x++) {
      const w = maze.walls[y * maze.width + x]!;
      const left = MARGIN + x * s.cell;
      const top = MARGIN + y * s.cell;
      if (w & WALL_N) ctx.moveTo(left, top), ctx.lineTo(left + s.cell, top);
      if (w & WALL_W) ctx.moveTo(left, top), ctx.lineTo(left, top + s.cell);
      if (y === maze.height - 1 && w & WALL_S) ctx.moveTo(left, top + s.cell), ctx.lineTo(left + s.cell, top + s.cell);
      if (x === maze.width - 1 && w & WALL_E) ctx.moveTo(left + s.cell, top), ctx.lineTo(left + s.cell, top + s.cell);
    }
  }
  ctx.stroke();

  if (sc.trail.length > 1) {
    ctx.strokeStyle = 'rgba(29, 78, 216, 0.35)';
    ctx.lineWidth = 2;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    sc.trail.forEach((p, i) => (i ? ctx.lineTo(p.x, p.y) : ctx.moveTo(p.x, p.y)));
    ctx.stroke();
  }

  if (sc.route.length > 0) {
    ctx.strokeStyle = sc.done ? DONE : ROUTE;
    ctx.fillStyle = sc.done ? DONE : ROUTE;
    ctx.lineWidth = Math.max(4, s.cell * 0.22);
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    sc.route.forEach((c, i) => {
      const p = centrePx(s, c);
      if (i) ctx.lineTo(p.x, p.y);
      else ctx.moveTo(p.x, p.y);
    });
    if (sc.route.length === 1) {
      const p = centrePx(s, sc.route[0]!);
      ctx.arc(p.x, p.y, ctx.lineWidth / 2, 0, Math.PI * 2);
      ctx.fill();
    } else ctx.stroke();
  }

  labelCell(ctx, s, maze.start, sc.startLabel);
  labelCell(ctx, s, maze.exit, sc.exitLabel);

  if (sc.cursor) {
    const p = centrePx(s, sc.cursor);
    ctx.strokeStyle = '#b91c1c';
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(p.x, p.y, s.cell * 0.34, 0, Math.PI * 2);
    ctx.stroke();
  }

  ctx.fillStyle = '#4b5563';
  ctx.font = '13px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(sc.strip, s.width / 2, s.height - 12, s.width - 2 * MARGIN);
}
