import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_HEAP_FLAGS } from '../../src/cli/heapBounds.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the heap bounds', () => {
  it('are passed to node wherever the server starts: npm start and both shebangs', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    // `exec`: npm's shell becomes node, so the signals npm passes on reach the server (npmStart.test.ts).
    expect(start).toBe(`exec node ${NODE_HEAP_FLAGS.join(' ')} dist/cli.js`);
    for (const entry of ['src/cli.ts', 'src/cli/ariadne.ts']) {
      expect(read(entry).split('\n')[0]).toBe(`#!/usr/bin/env -S node ${NODE_HEAP_FLAGS.join(' ')}`);
    }
  });

  it('are options this node knows (it refuses to start on an unknown one)', () => {
    const r = spawnSync(process.execPath, [...NODE_HEAP_FLAGS, '-e', '0'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
