import type { Kernel, MazeParams, PackedEvents, ReplayMode, ReplayResult } from '../../kernel/types.js';

/**
 * Cell sizes (px) of the canvases the deployed widget (`@cernosh/react`) draws, whatever a
 * challenge's `cell_size` says: 40 at its default size, 28 at size "compact", each with the
 * 20 px margins and the 24 px strip of kernel.md section 3. Its pointer events are fractions of
 * that canvas, and it never says which size it drew.
 */
export const DEPLOYED_WIDGET_CELL_SIZES: readonly number[] = [40, 28];

export interface TraceReplay {
  replay: ReplayResult;
  /** The cell size whose canvas the walk used (features are computed on the same canvas). */
  cellSize: number;
}

/**
 * Replays a trace on the canvas of the issued cell size (Ariadne's widget draws it), then on
 * each canvas of the deployed widget, and keeps the first valid walk; the issued canvas's walk
 * when none is valid. The cell sizes are the server's own, never the client's: a trace passes
 * only by walking the corridors on a canvas some known widget draws. Keydown events carry maze
 * fractions and walk the same on every canvas.
 */
export function replayTrace(
  kernel: Pick<Kernel, 'replay'>,
  maze: MazeParams,
  events: PackedEvents,
  issuedCellSize: number,
  mode: ReplayMode,
): TraceReplay {
  const first = { replay: kernel.replay(maze, events, issuedCellSize, mode), cellSize: issuedCellSize };
  if (first.replay.valid) return first;
  for (const cellSize of DEPLOYED_WIDGET_CELL_SIZES) {
    if (cellSize === issuedCellSize) continue;
    const replay = kernel.replay(maze, events, cellSize, mode);
    if (replay.valid) return { replay, cellSize };
  }
  return first;
}
