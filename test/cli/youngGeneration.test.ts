import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEMI_SPACE_FLAG } from '../../src/cli/youngGeneration.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the young generation bound', () => {
  it('is passed to node wherever the server starts: npm start and both shebangs', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(start.split(' ')).toContain(SEMI_SPACE_FLAG);
    for (const entry of ['src/cli.ts', 'src/cli/ariadne.ts']) {
      expect(read(entry).split('\n')[0]).toBe(`#!/usr/bin/env -S node ${SEMI_SPACE_FLAG}`);
    }
  });
});
