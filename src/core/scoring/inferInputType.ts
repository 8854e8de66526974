import type { RawEvent } from '../../kernel/types.js';
import type { InputType } from './ScoringTable.js';

/**
 * The input type, from the events themselves (never the client's `input_type` claim):
 * keyboard when keydowns outnumber pointer moves and downs, otherwise the most frequent
 * `pointer_type` of the pointer events (mouse when none is given).
 */
export function inferInputType(events: readonly RawEvent[]): InputType {
  let keys = 0,
    pointers = 0,
    touch = 0,
    pen = 0,
    mouse = 0;
  for (const e of events) {
    if (e === null || typeof e !== 'object') continue;
    if (e.type === 'keydown') keys++;
    else if (e.type === 'move' || e.type === 'down') {
      pointers++;
      if (e.pointer_type === 'touch') touch++;
      else if (e.pointer_type === 'pen') pen++;
      else if (e.pointer_type === 'mouse') mouse++;
    }
  }
  if (keys > pointers) return 'keyboard';
  if (touch > mouse && touch >= pen) return 'touch';
  if (pen > mouse && pen > touch) return 'pen';
  return 'mouse';
}
