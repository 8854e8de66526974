import { describe, expect, it } from 'vitest';
import { withKeyboardDoorNotice } from '../../src/client/keyboardDoorNotice.js';

describe('withKeyboardDoorNotice', () => {
  const ready = 'Trace a path from S to E.';

  it('adds nothing for people first or a server that does not say', () => {
    expect(withKeyboardDoorNotice(ready, 'people_first')).toBe(ready);
    expect(withKeyboardDoorNotice(ready, undefined)).toBe(ready);
  });

  it('adds one sentence for a strict door, and for a surge one that says it passes and what else to do', () => {
    expect(withKeyboardDoorNotice(ready, 'strict')).toBe(`${ready} This site checks keyboard solving strictly.`);
    const surge = withKeyboardDoorNotice(ready, 'surge');
    expect(surge.startsWith(`${ready} `)).toBe(true);
    expect(surge).toContain('for a few minutes');
    expect(surge).toContain('try again later or use another way the site offers');
  });
});
