import type { Cell, Kernel, MazeParams } from '../../kernel/types.js';

export const PROBE_ID = 'probe-1';

/**
 * The probe colours, sent as hex: the values the deployed widget (`@cernosh/react`) names and
 * gives a shape (its buttons are otherwise all "colored circle", told apart by colour alone).
 * Ariadne's widget knows them too.
 */
export const PROBE_COLORS = [
  { name: 'red', hex: '#ef4444' },
  { name: 'blue', hex: '#3b82f6' },
  { name: 'green', hex: '#22c55e' },
  { name: 'yellow', hex: '#f59e0b' },
  { name: 'purple', hex: '#8b5cf6' },
  { name: 'orange', hex: '#f97316' },
] as const;

export interface ProbeCell extends Cell {
  /** Hex, one of PROBE_COLORS. */
  color: string;
}

/** A colour-tap probe as the server knows it; `target` never leaves the server. */
export interface ProbeLayout {
  id: string;
  trigger: Cell;
  cells: ProbeCell[];
  targetColor: string;
  /** The target colour's name, for the instruction. */
  targetName: string;
  distractorColors: string[];
  target: Cell;
}

/**
 * The probe of a challenge, a pure function of its maze and probe seed: the trigger is a
 * solution cell in the middle third of the path (so an honest trace always passes it), and up
 * to six distinct other cells get distinct colours, one of them the target.
 */
export function probeLayout(kernel: Kernel, maze: MazeParams, probeSeed: number): ProbeLayout {
  const { solution } = kernel.generateMaze(maze);
  const total = maze.width * maze.height;
  const count = Math.min(PROBE_COLORS.length, total - 1);
  const draws = kernel.mulberry32(probeSeed, 2 + count + PROBE_COLORS.length);
  let d = 0;
  const next = (n: number): number => Math.floor(draws[d++]! * n);

  const lo = Math.max(1, Math.floor(solution.length / 3));
  const hi = Math.min(solution.length - 2, Math.floor((2 * solution.length) / 3));
  const trigger = solution[lo + next(Math.max(1, hi - lo + 1))]!;

  // Partial Fisher-Yates over the grid, the trigger cell left out.
  const triggerIndex = trigger.y * maze.width + trigger.x;
  const pool = Array.from({ length: total }, (_, i) => i).filter((i) => i !== triggerIndex);
  const colors = [...PROBE_COLORS];
  for (let i = colors.length - 1; i > 0; i--) {
    const j = next(i + 1);
    [colors[i], colors[j]] = [colors[j]!, colors[i]!];
  }
  const cells: ProbeCell[] = [];
  for (let i = 0; i < count; i++) {
    const j = i + next(pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    cells.push({ x: pool[i]! % maze.width, y: Math.floor(pool[i]! / maze.width), color: colors[i]!.hex });
  }
  const targetIndex = next(count);
  const target = cells[targetIndex]!;
  return {
    id: PROBE_ID,
    trigger: { x: trigger.x, y: trigger.y },
    cells,
    targetColor: target.color,
    targetName: colors[targetIndex]!.name,
    distractorColors: cells.filter((_, i) => i !== targetIndex).map((c) => c.color),
    target: { x: target.x, y: target.y },
  };
}
